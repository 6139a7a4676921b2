//! The device's firmware, as `docs/witmotion-protocol.md` §7 describes it: settings in RAM and
//! saved, the unlock window, the registers a read answers with, and the frames of one output
//! period.

use std::time::Duration;

use witmotion_protocol::{
    Acceleration, Angle, AngularVelocity, BaudRate, Calibration, Command, FrameKind, MagneticField,
    OutputContent, OutputRate, Quaternion, Reading, Time, register,
};

use crate::motion::Measured;

/// The protocol notes: a write is taken within 10 s of an unlock.
const UNLOCK_WINDOW: Duration = Duration::from_secs(10);

/// The firmware version the device reports (register VERSION, the angle frame's fourth word).
pub const VERSION: u16 = 0x5A31;

/// What the device sends, how often, and at what baud.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Which frame kinds (RSW).
    pub content: OutputContent,
    /// How often (RRATE).
    pub rate: OutputRate,
    /// The serial rate (BAUD).
    pub baud: BaudRate,
}

impl Settings {
    /// WitMotion's factory settings: acceleration, angular velocity, angles and magnetic field
    /// at 10 Hz, 9600 baud.
    pub const FACTORY: Settings = Settings {
        content: OutputContent::DEFAULT,
        rate: OutputRate::Hz10,
        baud: BaudRate::B9600,
    };

    /// What the component needs at `hertz`: acceleration, angular velocity and the quaternion,
    /// at `baud`.
    pub fn streaming(rate: OutputRate, baud: BaudRate) -> Settings {
        Settings {
            content: OutputContent::NONE
                .with(FrameKind::Acceleration)
                .with(FrameKind::AngularVelocity)
                .with(FrameKind::Quaternion),
            rate,
            baud,
        }
    }

    /// The period of a frame set, or `None` when the device streams nothing. The device lowers
    /// the rate by itself when the baud rate cannot carry the frames ("WT901 manual v0513"
    /// §2.4.2): 10 bits a byte on the wire.
    pub fn period(&self) -> Option<Duration> {
        let hertz = self.rate.hertz()?;
        let kinds = FrameKind::ALL
            .iter()
            .filter(|&&k| self.content.contains(k))
            .count()
            .max(1) as f32;
        let carried = self.baud.bits_per_second() as f32 / 10.0 / (11.0 * kinds);
        Some(Duration::from_secs_f32(1.0 / hertz.min(carried)))
    }
}

/// The device's state.
#[derive(Debug, Clone)]
pub(crate) struct Firmware {
    pub(crate) settings: Settings,
    pub(crate) saved: Settings,
    /// Until when writes are taken, on the device's clock (time since it started).
    unlocked_until: Option<Duration>,
    /// Yaw subtracted from every orientation (a heading reset zeroes the present one).
    pub(crate) heading_offset: f32,
    /// Calibrations started, most recent last.
    pub(crate) calibrations: Vec<Calibration>,
    /// A register read asked for, answered with the next frame set.
    pending_read: Option<u8>,
    /// Once: one frame set is owed.
    once_owed: bool,
}

impl Firmware {
    pub(crate) fn new(saved: Settings) -> Firmware {
        Firmware {
            settings: saved,
            saved,
            unlocked_until: None,
            heading_offset: 0.0,
            calibrations: Vec::new(),
            pending_read: None,
            once_owed: false,
        }
    }

    /// Takes one command at `now` (the device's clock: time since it started), given what the device measures then; returns whether it was
    /// taken (a write outside the unlock window is ignored, as the device ignores it).
    pub(crate) fn take(&mut self, command: Command, now: Duration, measured: &Measured) -> bool {
        if command == Command::Unlock {
            self.unlocked_until = Some(now + UNLOCK_WINDOW);
            return true;
        }
        if let Command::ReadRegisters { first } = command {
            self.pending_read = Some(first);
            return true;
        }
        if self.unlocked_until.is_none_or(|until| now > until) {
            return false;
        }
        match command {
            Command::Save => self.saved = self.settings,
            Command::Restart => self.settings = self.saved,
            Command::FactoryReset => {
                self.settings = Settings::FACTORY;
                self.saved = Settings::FACTORY;
            }
            Command::SetOutputContent(content) => self.settings.content = content,
            Command::SetOutputRate(rate) => {
                self.settings.rate = rate;
                self.once_owed = rate == OutputRate::Once;
            }
            Command::SetBaudRate(baud) => self.settings.baud = baud,
            Command::Calibrate(mode) => {
                if mode == Calibration::HeadingReset {
                    let (_, _, yaw) = measured.orientation.to_euler();
                    self.heading_offset = yaw;
                }
                self.calibrations.push(mode);
            }
            Command::Unlock | Command::ReadRegisters { .. } | Command::WriteRegister { .. } => {}
        }
        true
    }

    /// The value of register `address`.
    fn register(&self, address: u8) -> u16 {
        match address {
            register::RSW => self.settings.content.bits(),
            register::RRATE => self.settings.rate as u16,
            register::BAUD => self.settings.baud as u16,
            register::VERSION => VERSION,
            _ => 0,
        }
    }

    /// Whether a frame set is due at a period's tick.
    pub(crate) fn streams(&mut self) -> bool {
        match self.settings.rate {
            OutputRate::Stopped => false,
            OutputRate::Once => std::mem::take(&mut self.once_owed),
            _ => true,
        }
    }

    /// The frames owed to a register read, if one was asked.
    pub(crate) fn register_answer(&mut self) -> Option<[u8; 11]> {
        let first = self.pending_read.take()?;
        let values = [0, 1, 2, 3].map(|i| self.register(first.wrapping_add(i)));
        Reading::RegisterValues(values)
            .encode()
            .ok()
            .map(|frame| frame.encode())
    }

    /// The bytes of one output period: a frame of each kind the content names, in type order.
    pub(crate) fn frame_set(&self, measured: &Measured, content: OutputContent) -> Vec<u8> {
        let offset = Quaternion::from_euler(0.0, 0.0, -self.heading_offset);
        let orientation = offset * measured.orientation;
        let [ax, ay, az] = measured.acceleration;
        let [wx, wy, wz] = measured.angular_velocity;
        let (roll, pitch, yaw) = orientation.to_euler();
        let mut bytes = Vec::with_capacity(11 * 6);
        for kind in FrameKind::ALL {
            if !content.contains(kind) {
                continue;
            }
            let reading = match kind {
                FrameKind::Time => Reading::Time(Time::default()),
                FrameKind::Acceleration => Reading::Acceleration(Acceleration {
                    x: ax,
                    y: ay,
                    z: az,
                    temperature: 25.0,
                }),
                FrameKind::AngularVelocity => Reading::AngularVelocity(AngularVelocity {
                    x: wx,
                    y: wy,
                    z: wz,
                    temperature: 25.0,
                }),
                FrameKind::Angle => Reading::Angle(Angle {
                    roll,
                    pitch,
                    yaw,
                    version: VERSION,
                }),
                FrameKind::MagneticField => Reading::MagneticField(MagneticField {
                    x: 300,
                    y: 0,
                    z: -400,
                    temperature: 25.0,
                }),
                FrameKind::Quaternion => Reading::Quaternion(orientation),
                _ => continue, // pressure, GPS, ports: not simulated
            };
            if let Ok(frame) = reading.encode() {
                bytes.extend_from_slice(&frame.encode());
            }
        }
        bytes
    }
}
