//! Bringing up a new IMU on the bench: find its baud rate, read it, set its rate, content and
//! baud, calibrate it, save. `robot imu scan|read|set-rate|set-content|set-baud|calibrate|save`
//! are these, on the command line.
//!
//! Unlike the component, which never waits, each job here blocks: it writes a command (after
//! an unlock, waiting 20 ms after each write as WitMotion's SDK does) and reads the registers
//! back to confirm, since the device acknowledges nothing (`docs/witmotion-protocol.md` §7).

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use backend_witmotion::serial::{self, SerialError};
use serialport::TTYPort;
use witmotion_protocol::{
    BaudRate, Calibration, Command, FrameKind, OutputContent, OutputRate, Parser, Reading, register,
};

/// How long a job listens for frames: two sets at the factory's 10 Hz.
pub const LISTEN: Duration = Duration::from_millis(300);

/// How long a register read waits for its answer.
const ANSWER: Duration = Duration::from_millis(300);

/// The baud rates `scan` tries, the likeliest first: the factory's, a USB converter's, the
/// shipped robot's.
pub const SCAN_ORDER: [BaudRate; 9] = [
    BaudRate::B9600,
    BaudRate::B115200,
    BaudRate::B460800,
    BaudRate::B921600,
    BaudRate::B230400,
    BaudRate::B57600,
    BaudRate::B38400,
    BaudRate::B19200,
    BaudRate::B4800,
];

/// A job that did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum BringUpError {
    /// The port could not be opened.
    #[error(transparent)]
    Serial(#[from] SerialError),
    /// Reading or writing the port failed.
    #[error("`{port}`: {error}")]
    Io {
        /// The port.
        port: String,
        /// What failed.
        error: std::io::Error,
    },
    /// No frame at any baud rate.
    #[error(
        "no frame from `{port}` at any baud rate: is the IMU powered, is this its port (`ls /dev/serial/by-id`), and is its output not stopped?"
    )]
    NotFound {
        /// The port.
        port: String,
    },
    /// No answer to a register read.
    #[error(
        "`{port}` did not answer a register read at {baud} baud within {} ms: is the device at this baud (`robot imu scan --port {port}`)?",
        ANSWER.as_millis()
    )]
    NoAnswer {
        /// The port.
        port: String,
        /// The baud rate.
        baud: u32,
    },
    /// A write that did not read back as written.
    #[error("`{port}` took the write of {what} but reads back {read}: the device refused it")]
    NotConfirmed {
        /// The port.
        port: String,
        /// What was written.
        what: String,
        /// What the register holds.
        read: String,
    },
}

/// What the device's settings registers hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registers {
    /// RSW.
    pub content: OutputContent,
    /// RRATE, raw (a code [`OutputRate::from_code`] may not know).
    pub rate: u16,
    /// BAUD, raw.
    pub baud: u16,
}

/// What `scan` found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The baud rate frames came at.
    pub baud: BaudRate,
    /// The kinds that came, in type order.
    pub kinds: Vec<FrameKind>,
    /// The settings registers, when the device answered a read.
    pub registers: Option<Registers>,
    /// The firmware version register, when answered.
    pub version: Option<u16>,
}

/// One IMU on a serial port, for bring-up.
#[derive(Debug)]
pub struct BringUp {
    port: TTYPort,
    name: String,
    baud: u32,
    parser: Parser,
}

impl BringUp {
    /// Opens `port` at `baud`.
    pub fn open(port: &str, baud: u32) -> Result<BringUp, BringUpError> {
        let serial = serial::open_with_wait(port, baud, Duration::from_millis(20))?;
        Ok(BringUp {
            port: serial,
            name: port.to_string(),
            baud,
            parser: Parser::new(),
        })
    }

    /// Tries each baud rate of [`SCAN_ORDER`] until frames come; reads the settings there.
    pub fn scan(port: &str) -> Result<Found, BringUpError> {
        for baud in SCAN_ORDER {
            let mut device = BringUp::open(port, baud.bits_per_second())?;
            let readings = device.listen(LISTEN)?;
            if readings.is_empty() {
                continue;
            }
            let mut kinds: Vec<FrameKind> = readings.iter().map(Reading::kind).collect();
            kinds.sort();
            kinds.dedup();
            let registers = device.registers().ok();
            let version = device
                .read_registers(register::VERSION)
                .ok()
                .map(|values| values[0]);
            return Ok(Found {
                baud,
                kinds,
                registers,
                version,
            });
        }
        Err(BringUpError::NotFound {
            port: port.to_string(),
        })
    }

    fn io(&self, error: std::io::Error) -> BringUpError {
        BringUpError::Io {
            port: self.name.clone(),
            error,
        }
    }

    /// Every reading that arrives within `time` (register answers included).
    pub fn listen(&mut self, time: Duration) -> Result<Vec<Reading>, BringUpError> {
        let mut readings = Vec::new();
        let end = Instant::now() + time;
        let mut buffer = [0u8; 512];
        while Instant::now() < end {
            match self.port.read(&mut buffer) {
                Ok(count) => readings.extend(
                    self.parser
                        .push(&buffer[..count])
                        .filter_map(|frame| Reading::decode(&frame).ok()),
                ),
                Err(error) if error.kind() == std::io::ErrorKind::TimedOut => {}
                Err(error) => return Err(self.io(error)),
            }
        }
        Ok(readings)
    }

    /// The first `sets` complete frame sets, each starting with the device's first kind.
    pub fn read_sets(&mut self, sets: usize) -> Result<Vec<Vec<Reading>>, BringUpError> {
        let deadline = Instant::now() + LISTEN + Duration::from_secs(sets as u64);
        let mut readings = Vec::new();
        while Instant::now() < deadline {
            readings.extend(self.listen(Duration::from_millis(50))?);
            let kinds: Vec<FrameKind> = {
                let mut k: Vec<FrameKind> = readings.iter().map(Reading::kind).collect();
                k.sort();
                k.dedup();
                k
            };
            let Some(&first) = kinds.first() else {
                continue;
            };
            // Start at a set's first frame; a set ends where the next begins.
            let starts: Vec<usize> = readings
                .iter()
                .enumerate()
                .filter(|(_, r)| r.kind() == first)
                .map(|(i, _)| i)
                .collect();
            if starts.len() > sets {
                return Ok(starts
                    .windows(2)
                    .take(sets)
                    .map(|w| readings[w[0]..w[1]].to_vec())
                    .collect());
            }
        }
        Err(BringUpError::NotFound {
            port: self.name.clone(),
        })
    }

    fn write(&mut self, command: Command) -> Result<(), BringUpError> {
        let sent = self
            .port
            .write_all(&Command::Unlock.encode())
            .and_then(|()| self.port.write_all(&command.encode()))
            .and_then(|()| self.port.flush());
        sent.map_err(|e| self.io(e))?;
        std::thread::sleep(Duration::from_millis(20));
        Ok(())
    }

    /// The four registers from `first`.
    pub fn read_registers(&mut self, first: u8) -> Result<[u16; 4], BringUpError> {
        let sent = self
            .port
            .write_all(&Command::ReadRegisters { first }.encode())
            .and_then(|()| self.port.flush());
        sent.map_err(|e| self.io(e))?;
        let end = Instant::now() + ANSWER;
        while Instant::now() < end {
            for reading in self.listen(Duration::from_millis(20))? {
                if let Reading::RegisterValues(values) = reading {
                    return Ok(values);
                }
            }
        }
        Err(BringUpError::NoAnswer {
            port: self.name.clone(),
            baud: self.baud,
        })
    }

    /// The settings registers RSW, RRATE, BAUD.
    pub fn registers(&mut self) -> Result<Registers, BringUpError> {
        let [content, rate, baud, _] = self.read_registers(register::RSW)?;
        Ok(Registers {
            content: OutputContent::from_bits(content),
            rate,
            baud,
        })
    }

    fn confirm(
        &mut self,
        what: String,
        holds: impl Fn(&Registers) -> bool,
    ) -> Result<Registers, BringUpError> {
        let registers = self.registers()?;
        if holds(&registers) {
            return Ok(registers);
        }
        Err(BringUpError::NotConfirmed {
            port: self.name.clone(),
            what,
            read: format!("{registers:?}"),
        })
    }

    /// Sets the output rate (in RAM) and reads it back.
    pub fn set_rate(&mut self, rate: OutputRate) -> Result<Registers, BringUpError> {
        self.write(Command::SetOutputRate(rate))?;
        self.confirm(format!("rate {rate:?}"), |r| r.rate == rate as u16)
    }

    /// Sets the output content (in RAM) and reads it back.
    pub fn set_content(&mut self, content: OutputContent) -> Result<Registers, BringUpError> {
        self.write(Command::SetOutputContent(content))?;
        self.confirm(format!("content {:#06x}", content.bits()), |r| {
            r.content == content
        })
    }

    /// Sets the baud rate (in RAM; the device switches at once), reopens the port at it and
    /// reads it back there.
    pub fn set_baud(self, baud: BaudRate) -> Result<(BringUp, Registers), BringUpError> {
        let mut device = self;
        device.write(Command::SetBaudRate(baud))?;
        let name = device.name.clone();
        drop(device);
        let mut device = BringUp::open(&name, baud.bits_per_second())?;
        let registers = device.confirm(format!("baud {}", baud.bits_per_second()), |r| {
            r.baud == baud as u16
        })?;
        Ok((device, registers))
    }

    /// Runs a calibration: starts it, waits `hold`, ends it (a heading reset needs no end).
    pub fn calibrate(&mut self, mode: Calibration, hold: Duration) -> Result<(), BringUpError> {
        self.write(Command::Calibrate(mode))?;
        if mode != Calibration::HeadingReset {
            std::thread::sleep(hold);
            self.write(Command::Calibrate(Calibration::End))?;
        }
        Ok(())
    }

    /// Saves the settings in RAM, to be kept over a power cycle.
    pub fn save(&mut self) -> Result<(), BringUpError> {
        self.write(Command::Save)
    }
}

/// A kind's name on the command line and in JSON: `angular_velocity`.
pub fn kind_name(kind: FrameKind) -> String {
    kind.name().replace(' ', "_").to_lowercase()
}

/// The kind a command-line name means.
pub fn parse_kind(name: &str) -> Result<FrameKind, String> {
    FrameKind::ALL
        .into_iter()
        .filter(|&k| k != FrameKind::RegisterValues)
        .find(|&k| kind_name(k) == name.trim())
        .ok_or_else(|| {
            let names: Vec<String> = FrameKind::ALL
                .into_iter()
                .filter(|&k| k != FrameKind::RegisterValues)
                .map(kind_name)
                .collect();
            format!(
                "`{name}` is no frame kind; the kinds are {}",
                names.join(", ")
            )
        })
}

/// An output content from `acceleration,angular_velocity,quaternion`.
pub fn parse_content(text: &str) -> Result<OutputContent, String> {
    text.split(',')
        .try_fold(OutputContent::NONE, |content, name| {
            Ok(content.with(parse_kind(name)?))
        })
}

/// The rate code of `hertz`, or the rates there are.
pub fn parse_rate(text: &str) -> Result<OutputRate, String> {
    let hertz: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a rate in Hz"))?;
    OutputRate::ALL
        .into_iter()
        .find(|r| r.hertz() == Some(hertz))
        .ok_or_else(|| {
            format!("the device has no rate {text} Hz: give 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 125 (WT931 only) or 200")
        })
}

/// The baud code of `text`, or the rates there are.
pub fn parse_baud(text: &str) -> Result<BaudRate, String> {
    text.trim()
        .parse()
        .ok()
        .and_then(BaudRate::from_bits_per_second)
        .ok_or_else(|| {
            format!("the device has no baud rate `{text}`: give 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800 or 921600")
        })
}
