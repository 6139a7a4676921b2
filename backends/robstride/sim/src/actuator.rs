//! A simulated RobStride actuator on the in-process bus: it answers every request as docs/robstride-protocol.md
//! says (one type-2 reply to types 1, 3, 4, 6, 18 and 22; type 17 to a parameter read; type 0 to
//! get-id, set-id, baud rate and protocol switch), runs the MIT law on a [`MotorModel`] while
//! enabled in operation mode, keeps its parameters as firmware does (RAM until saved), and can be
//! told to fail in each way a real motor does ([`Failure`]).
//!
//! Time is the bus clock: the shaft is advanced to `now` whenever a frame arrives or the clock
//! ticks, so a test that advances the bus by one period sees one period of motion.
//!
//! The angle it reports loops within the MIT frame's ±4π, as newer firmware's does, and its MIT
//! law compares the target with that looping angle ([`AngleReport`]); older firmware that
//! saturates at the window's edge is [`AngleReport::Saturating`].

use robstride_protocol::Code16;
use std::time::Duration;

use robstride_protocol::{
    CAN_TIMEOUT_TICKS_PER_SECOND, Command, FeedbackFault, FeedbackFaults, Frame, Mit, Mode, Param,
    ParamOutcome, ParamReply, ParamValue, RawFeedback, Reply, Request, RobstrideModel, RunMode,
};

use crate::bus::{Node, Outbox};
use crate::motor::{Applied, MotorModel, Shaft};
use robot_runtime::actuator::wrap;

/// A way the simulated motor fails, as real ones do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The winding is too hot: the fault bit is set and the motor drops to reset (no torque).
    Overtemperature,
    /// The supply is too low: likewise.
    Undervoltage,
    /// The encoder is not calibrated: likewise.
    Uncalibrated,
    /// The shaft is blocked: it stops moving, the stall bit is set, the motor drops to reset.
    Stall,
    /// The next `n` requests get no reply.
    MissingReplies(u32),
    /// The next `answered` requests are answered, the `missing` after them are not.
    MissingRepliesAfter {
        /// Requests still answered.
        answered: u32,
        /// Requests then left unanswered.
        missing: u32,
    },
    /// Every reply is held back and sent after the next request's (one cycle late).
    LateReplies,
    /// Every reply is a malformed frame (4 data bytes).
    Garbage,
    /// Every reply is a frame of another protocol (an 11-bit id).
    Foreign,
    /// Every reply carries another motor's id (this id + 1).
    WrongMotorId,
    /// The motor answers nothing at all (its transmit line is cut), though it still hears.
    Silent,
    /// The motor's cable is pulled: it hears nothing and answers nothing, and runs on as it
    /// was until its own CAN watchdog (if armed) switches it off.
    Unplugged,
}

/// How the firmware reports an angle beyond the MIT frame's ±4π.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AngleReport {
    /// Looping within `[-4π, 4π)` (docs/robstride-protocol.md §6 "Angle wrap", newer firmware), the MIT law
    /// comparing its target with that looped angle.
    #[default]
    Looping,
    /// Clamped to ±4π, the MIT law comparing its target with the whole angle.
    Saturating,
}

/// The temperature a healthy simulated motor reports, °C.
const AMBIENT: f32 = 30.0;
/// The active-report period at the default `EPScan_time` of 1: 10 ms.
const REPORT_PERIOD: Duration = Duration::from_millis(10);

/// One simulated actuator.
#[derive(Debug, Clone)]
pub struct SimActuator {
    model: RobstrideModel,
    motor_id: u8,
    uid: [u8; 8],
    mechanics: MotorModel,
    shaft: Shaft,
    /// The shaft angle at which the motor reports 0 (set-zero moves it).
    zero: f64,
    enabled: bool,
    run_mode: RunMode,
    angle_report: AngleReport,
    /// The last MIT command, its position in the firmware's angle (see [`AngleReport`]).
    target: Mit,
    faults: FeedbackFaults,
    failure: Option<Failure>,
    held: Option<Frame>,
    active_report: bool,
    last_report: Duration,
    last_step: Duration,
    /// When the last frame for this motor arrived: the CAN watchdog counts from it.
    last_heard: Duration,
    /// The CAN watchdog `canTimeout` sets (kept here so a step need not look it up).
    watchdog: Option<Duration>,
    /// RAM values of the writable parameters, by index into [`Param::ALL`].
    params: [Option<ParamValue>; 32],
    /// The torque applied since [`SimActuator::take_applied`] last took it.
    applied: Applied,
    /// Requests answered, by kind: what a test asserts on.
    pub log: SimLog,
}

/// What a simulated actuator was asked, for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SimLog {
    /// Operation-control frames received while enabled.
    pub mit_enabled: u64,
    /// Operation-control frames received while not enabled.
    pub mit_disabled: u64,
    /// Enable requests.
    pub enables: u64,
    /// Stop requests (with or without clearing faults).
    pub stops: u64,
    /// Frames that were not a request this motor understood (garbage, other motors' types).
    pub refused: u64,
    /// Times the CAN watchdog (`canTimeout`) switched the motor off: no frame for that long.
    pub watchdog_stops: u64,
}

impl SimActuator {
    /// A motor of `model` with CAN id `motor_id`, at rest at angle `position` (rad, its own
    /// reported angle), carrying `mechanics`.
    pub fn new(
        model: RobstrideModel,
        motor_id: u8,
        mechanics: MotorModel,
        position: f64,
    ) -> SimActuator {
        SimActuator {
            model,
            motor_id,
            uid: [0x52, 0x53, model as u8, motor_id, 0, 0, 0, 1],
            mechanics,
            shaft: Shaft {
                position,
                ..Shaft::default()
            },
            zero: 0.0,
            enabled: false,
            run_mode: RunMode::Operation,
            angle_report: AngleReport::Looping,
            target: Mit::default(),
            faults: FeedbackFaults::default(),
            failure: None,
            held: None,
            active_report: false,
            last_report: Duration::ZERO,
            last_step: Duration::ZERO,
            last_heard: Duration::ZERO,
            watchdog: None,
            params: [None; 32],
            applied: Applied::default(),
            log: SimLog::default(),
        }
    }

    /// The motor's CAN id (set-id changes it).
    pub fn motor_id(&self) -> u8 {
        self.motor_id
    }

    /// Whether the motor is enabled (applying the MIT law).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The motor as firmware that reports angles past ±4π in `report`'s way.
    pub fn with_angle_report(mut self, report: AngleReport) -> SimActuator {
        self.angle_report = report;
        self
    }

    /// Powers the motor off and on where its shaft is: it comes up disabled, its RAM parameters
    /// lost (the CAN watchdog among them), and counts its angle again from within one turn, as
    /// parameter `zero_sta` (0x7029) says (docs/robstride-protocol.md §6): 0 gives 0..2π, anything else −π..π.
    /// With 0, a shaft resting just below its zero reads nearly a whole turn up.
    pub fn power_cycle(&mut self, zero_sta: u8) {
        let turn = std::f64::consts::TAU;
        let angle = self.position();
        let within = if zero_sta == 0 {
            angle.rem_euclid(turn)
        } else {
            (angle + turn / 2.0).rem_euclid(turn) - turn / 2.0
        };
        self.zero += angle - within;
        self.enabled = false;
        self.target = Mit::default();
        // RAM is lost: what was written and not saved (the simulated motor saves nothing).
        self.params = [None; 32];
        self.watchdog = None;
        self.run_mode = RunMode::Operation;
    }

    /// Turns the shaft to `position` rad from the motor's zero, at rest, as a hand or a
    /// back-driving load would while it is switched off: the firmware counts it (`mechPos`
    /// follows), but a host that asked nothing meanwhile saw none of it.
    pub fn turn_by_hand(&mut self, position: f64) {
        self.shaft = Shaft {
            position: position + self.zero,
            ..Shaft::default()
        };
    }

    /// The motor's angle from its zero over any number of turns (what `mechPos` reads), rad.
    pub fn position(&self) -> f64 {
        self.shaft.position - self.zero
    }

    /// The angle the firmware works with and reports ([`firmware_angle`]).
    fn firmware_angle(&self) -> f64 {
        firmware_angle(self.angle_report, self.position())
    }

    /// The torque its load exerts on the shaft, N·m ([`MotorModel::load`]).
    pub fn load(&self) -> f64 {
        self.mechanics.load
    }

    /// The shaft's state.
    pub fn shaft(&self) -> Shaft {
        self.shaft
    }

    /// Makes the motor fail from now on (`None`: healthy again, faults still latched until a
    /// stop that clears them).
    pub fn fail(&mut self, failure: Option<Failure>) {
        self.failure = failure;
        let bit = match failure {
            Some(Failure::Overtemperature) => Some(FeedbackFault::Overtemperature),
            Some(Failure::Undervoltage) => Some(FeedbackFault::Undervoltage),
            Some(Failure::Uncalibrated) => Some(FeedbackFault::Uncalibrated),
            Some(Failure::Stall) => Some(FeedbackFault::StallOverload),
            _ => None,
        };
        if let Some(bit) = bit {
            self.faults = FeedbackFaults::from_bits(self.faults.bits() | 1 << bit as u8);
            // A faulted motor drops to reset: no torque until cleared and enabled again.
            self.enabled = false;
            if failure == Some(Failure::Stall) {
                self.shaft.velocity = 0.0;
            }
        }
    }

    /// Advances the shaft to `now`. An enabled motor that has heard nothing for its
    /// `canTimeout` (0x7028; 0 is off) drops to reset at that moment, as a stop would: what
    /// keeps a robot safe when its host dies without a word.
    fn step_to(&mut self, now: Duration) {
        if let Some(watchdog) = self.watchdog {
            let deadline = self.last_heard + watchdog;
            if self.enabled && now > deadline {
                self.advance(deadline);
                self.enabled = false;
                self.log.watchdog_stops += 1;
            }
        }
        self.advance(now);
    }

    fn advance(&mut self, now: Duration) {
        let dt = now.saturating_sub(self.last_step).as_secs_f64();
        self.last_step = self.last_step.max(now);
        if self.failure == Some(Failure::Stall) {
            return;
        }
        let driving = self.enabled && self.run_mode == RunMode::Operation;
        let (command, zero, report) = (self.target, self.zero, self.angle_report);
        // The law's error is the target less the firmware's angle at each of its steps, in shaft
        // angles: a motor that loops while a command acts sees its error jump by 8π, as a real
        // one would.
        let applied = self.mechanics.run(&mut self.shaft, dt, |shaft| {
            driving.then(|| Mit {
                position: shaft.position
                    + (command.position - firmware_angle(report, shaft.position - zero)),
                ..command
            })
        });
        self.applied.impulse += applied.impulse;
        self.applied.duration += applied.duration;
        self.applied.peak = self.applied.peak.max(applied.peak);
    }

    /// The torque the motor applied since the last call (or since it was made): its mean, its
    /// largest magnitude; the firmware's law at every step of its own, where the shaft's torque
    /// is only the last step's.
    pub fn take_applied(&mut self) -> Applied {
        std::mem::take(&mut self.applied)
    }

    fn feedback(&self, host: u8) -> RawFeedback {
        let s = self.model.scaling();
        let code = |range: robstride_protocol::Range, x: f64| {
            // Feedback is a measurement: clamp to the frame's span, as the firmware's encoder does.
            range.encode(range.clamp(x as f32)).unwrap_or(0x7FFF)
        };
        RawFeedback {
            motor: self.motor_id,
            host,
            mode: if self.enabled { Mode::Run } else { Mode::Reset },
            faults: self.faults,
            position: code(s.position, self.firmware_angle()),
            velocity: code(s.velocity, self.shaft.velocity),
            torque: code(s.torque, self.shaft.torque),
            temperature: (AMBIENT * 10.0) as u16,
        }
    }

    /// What a read of `param` gives: the RAM value written, or the motor's own.
    pub fn param(&self, param: Param) -> ParamValue {
        let stored = Param::ALL
            .iter()
            .position(|p| *p == param)
            .and_then(|i| self.params.get(i).copied().flatten());
        match (param, stored) {
            (_, Some(value)) => value,
            (Param::RunMode, None) => ParamValue::U8(self.run_mode as u8),
            (Param::MechPos, None) => ParamValue::F32(self.position() as f32),
            (Param::MechVel, None) => ParamValue::F32(self.shaft.velocity as f32),
            (Param::Vbus, None) => ParamValue::F32(48.0),
            (Param::LimitTorque, None) => ParamValue::F32(self.mechanics.torque_limit as f32),
            (other, None) => ParamValue::from_bytes(other.ty(), [0; 4]),
        }
    }

    /// The reply to `request` (already known to be for this motor), and what it changes.
    fn answer(&mut self, request: &Request) -> Option<Reply> {
        let host = request.host;
        let feedback = |me: &SimActuator| Some(Reply::Feedback(me.feedback(host)));
        let device_id = |me: &SimActuator| {
            Some(Reply::DeviceId {
                motor: me.motor_id,
                host: 0xFE,
                uid: me.uid,
            })
        };
        match request.command {
            Command::GetId => device_id(self),
            Command::Mit(mit) => {
                if self.enabled {
                    self.log.mit_enabled += 1;
                } else {
                    self.log.mit_disabled += 1;
                }
                self.target = mit.mit();
                feedback(self)
            }
            Command::Enable => {
                self.log.enables += 1;
                // A latched fault keeps the motor in reset until cleared.
                self.enabled = self.faults.is_empty();
                feedback(self)
            }
            Command::Stop => {
                self.log.stops += 1;
                self.enabled = false;
                feedback(self)
            }
            Command::StopClearFault => {
                self.log.stops += 1;
                self.enabled = false;
                self.faults = FeedbackFaults::default();
                feedback(self)
            }
            Command::SetZero => {
                self.zero = self.shaft.position;
                feedback(self)
            }
            Command::SetCanId { new_id } => {
                self.motor_id = new_id;
                device_id(self)
            }
            Command::ReadParam { index } => Some(Reply::Param(ParamReply {
                motor: self.motor_id,
                host,
                index,
                outcome: match Param::from_index(index) {
                    Some(param) => ParamOutcome::Value(self.param(param)),
                    None => ParamOutcome::Failed,
                },
            })),
            Command::WriteParam(write) => {
                let (param, value) = (write.param(), write.value());
                if param == Param::RunMode
                    && let ParamValue::U8(mode) = value
                {
                    self.run_mode = match mode {
                        1 => RunMode::Position,
                        2 => RunMode::Velocity,
                        3 => RunMode::Current,
                        5 => RunMode::Csp,
                        _ => RunMode::Operation,
                    };
                }
                if let (Param::CanTimeout, ParamValue::U32(ticks)) = (param, value) {
                    self.watchdog = (ticks > 0).then(|| {
                        Duration::from_secs_f64(
                            f64::from(ticks) / f64::from(CAN_TIMEOUT_TICKS_PER_SECOND),
                        )
                    });
                }
                if let Some(slot) = Param::ALL
                    .iter()
                    .position(|p| *p == param)
                    .and_then(|i| self.params.get_mut(i))
                {
                    *slot = Some(value);
                }
                feedback(self)
            }
            Command::Save => feedback(self),
            Command::BaudRate(_) | Command::ProtocolSwitch(_) => device_id(self),
            Command::ActiveReport { on } => {
                self.active_report = on;
                None
            }
        }
    }

    /// Puts `reply` on the bus, as the injected failure allows.
    fn send(&mut self, reply: Frame, out: &mut Outbox<'_>) {
        let frame = match self.failure {
            Some(Failure::Silent | Failure::Unplugged) => return,
            Some(Failure::MissingRepliesAfter { answered, missing }) => {
                self.failure = Some(match answered {
                    0 => Failure::MissingReplies(missing),
                    _ => Failure::MissingRepliesAfter {
                        answered: answered - 1,
                        missing,
                    },
                });
                if answered == 0 {
                    return self.send(reply, out);
                }
                reply
            }
            Some(Failure::MissingReplies(n)) if n > 0 => {
                self.failure = (n > 1).then_some(Failure::MissingReplies(n - 1));
                return;
            }
            Some(Failure::LateReplies) => match self.held.replace(reply) {
                Some(late) => late,
                None => return,
            },
            Some(Failure::Garbage) => <Frame as embedded_can::Frame>::new(
                embedded_can::ExtendedId::MAX,
                &[0xDE, 0xAD, 0xBE, 0xEF],
            )
            .unwrap_or(reply),
            Some(Failure::Foreign) => <Frame as embedded_can::Frame>::new(
                embedded_can::StandardId::new(0x123).unwrap_or(embedded_can::StandardId::ZERO),
                &[0; 8],
            )
            .unwrap_or(reply),
            Some(Failure::WrongMotorId) => {
                let id = reply.extended_id().unwrap_or(0);
                let other = u32::from(self.motor_id.wrapping_add(1));
                Frame::extended(
                    (id & !0xFF00) | other << 8,
                    reply.data().try_into().unwrap_or([0; 8]),
                )
            }
            _ => reply,
        };
        out.send(frame);
    }
}

/// The angle firmware that reports as `report` says works with at `position` rad from its zero:
/// looped into the window, or as it is (the frame's encoding then clamps it).
fn firmware_angle(report: AngleReport, position: f64) -> f64 {
    match report {
        AngleReport::Looping => wrap(position),
        AngleReport::Saturating => position,
    }
}

impl Node for SimActuator {
    fn receive(&mut self, now: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        self.step_to(now);
        if self.failure == Some(Failure::Unplugged) {
            return;
        }
        let Ok(request) = Request::decode(frame, self.model) else {
            // Another motor's reply, garbage, another protocol: a real motor ignores it.
            if frame
                .extended_id()
                .is_some_and(|id| id as u8 == self.motor_id)
            {
                self.log.refused += 1;
            }
            return;
        };
        if request.motor != self.motor_id {
            return;
        }
        self.last_heard = now;
        if let Some(reply) = self.answer(&request) {
            let frame = reply.encode();
            self.send(frame, out);
        }
    }

    fn tick(&mut self, now: Duration, out: &mut Outbox<'_>) {
        self.step_to(now);
        if self.active_report && now.saturating_sub(self.last_report) >= REPORT_PERIOD {
            self.last_report = now;
            let frame = Reply::ActiveReport(self.feedback(0xFD)).encode();
            self.send(frame, out);
        }
    }
}
