//! `robot imu`: bringing up a WitMotion-protocol IMU (`scan`, `read`, `set-rate`,
//! `set-content`, `set-baud`, `calibrate`, `save`) and `decode`, the plumbing around
//! `witmotion_tools`, where the jobs and the JSON are defined and documented.

use std::io::{BufRead, Write};
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use witmotion_protocol::{BaudRate, Calibration, FrameKind, OutputContent, OutputRate, Reading};
use witmotion_sim::{Settings, SimImu, SimOptions};
use witmotion_tools::bringup::{self, BringUp, Found, Registers, kind_name};
use witmotion_tools::decode;

use super::tool_error::ToolError;

/// `imu scan`, `read`, `set-rate`, `set-content`, `set-baud`, `calibrate`, `save`, `decode`.
#[derive(Debug, Subcommand)]
pub enum ImuCommand {
    /// Find the IMU's baud rate (trying each, the likeliest first) and print what it sends and
    /// its settings registers. Changes nothing.
    Scan(PortArgs),
    /// Print the readings of a few frame sets, in SI units.
    Read {
        #[command(flatten)]
        port: PortArgs,
        /// How many frame sets (1 to 100).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=100))]
        sets: u8,
    },
    /// Set the output rate (in RAM until `save`) and read it back.
    SetRate {
        #[command(flatten)]
        port: PortArgs,
        /// Hz: 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 125 (WT931 only) or 200.
        #[arg(value_parser = bringup::parse_rate)]
        rate: OutputRate,
    },
    /// Set which frames are sent (in RAM until `save`) and read it back.
    SetContent {
        #[command(flatten)]
        port: PortArgs,
        /// Comma-separated kinds: time, acceleration, angular_velocity, angle, magnetic_field,
        /// quaternion, ... (the component needs acceleration,angular_velocity,quaternion).
        #[arg(value_parser = bringup::parse_content)]
        content: OutputContent,
    },
    /// Set the baud rate (the device switches at once; in RAM until `save`) and read it back
    /// at the new rate.
    SetBaud {
        #[command(flatten)]
        port: PortArgs,
        /// 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800 or 921600.
        #[arg(value_parser = bringup::parse_baud)]
        new: BaudRate,
    },
    /// Calibrate: the accelerometer (lying still and level), the magnetometer (turned about every
    /// axis), or reset the heading (yaw) to zero.
    Calibrate {
        #[command(flatten)]
        port: PortArgs,
        /// What to calibrate.
        what: CalibrationArg,
        /// How long the calibration runs before it is ended, seconds (1 to 120).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=120))]
        seconds: u8,
    },
    /// Save the settings in RAM, to be kept over a power cycle.
    Save(PortArgs),
    /// Decode a hex byte stream (from the arguments, or stdin when none are given; `xxd -p
    /// /dev/ttyUSB0 | robot imu decode`) and print one JSON object per frame, rejected
    /// candidate or run of skipped bytes.
    Decode {
        /// Hex bytes; stdin when none are given.
        hex: Vec<String>,
    },
}

/// The port a bring-up command talks on.
#[derive(Debug, Args)]
pub struct PortArgs {
    /// The serial port (`/dev/ttyUSB0`; `ls /dev/serial/by-id`), or `sim`: a simulated IMU
    /// with the factory's settings (10 Hz) at `--baud` (`scan`: the factory's 9600), alive for
    /// this one command.
    #[arg(long)]
    pub port: String,
    /// The baud rate the device is at (`scan` finds it); the factory's 9600 by default.
    #[arg(long, default_value_t = 9600, value_parser = baud)]
    pub baud: u32,
}

fn baud(text: &str) -> Result<u32, String> {
    bringup::parse_baud(text).map(BaudRate::bits_per_second)
}

/// What `calibrate` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CalibrationArg {
    /// Accelerometer and gyroscope bias, the device still and level.
    Accelerometer,
    /// Magnetometer, the device turned about every axis meanwhile.
    Magnetometer,
    /// The present heading becomes yaw zero.
    Heading,
}

/// An open port; for `sim`, with the simulated device kept alive.
struct Port {
    device: BringUp,
    name: String,
    _sim: Option<SimImu>,
}

impl Port {
    fn open(args: &PortArgs) -> Result<Port, ToolError> {
        let (path, sim) = simulated(&args.port, args.baud)?;
        let device = BringUp::open(&path, args.baud).map_err(failed)?;
        Ok(Port {
            device,
            name: args.port.clone(),
            _sim: sim,
        })
    }
}

/// The path to open for `port`, and for `sim` the simulated device behind it, at `baud`.
fn simulated(port: &str, baud: u32) -> Result<(String, Option<SimImu>), ToolError> {
    if port != robot_core::config::SIMULATED_IMU {
        return Ok((port.to_string(), None));
    }
    eprintln!(
        "note: `sim` is a simulated IMU with the factory's settings at {baud} baud, that lives for this one command; nothing written to it is kept"
    );
    let mut settings = Settings::FACTORY;
    settings.baud = BaudRate::from_bits_per_second(baud).unwrap_or(settings.baud);
    let sim = SimImu::spawn(SimOptions::new(settings))
        .map_err(|e| ToolError::Failed(format!("cannot open a pseudo-terminal: {e}")))?;
    Ok((sim.path().to_string(), Some(sim)))
}

fn failed(error: bringup::BringUpError) -> ToolError {
    ToolError::Failed(error.to_string())
}

fn io(error: std::io::Error) -> ToolError {
    ToolError::Failed(format!("cannot write the output: {error}"))
}

pub(crate) fn run(command: ImuCommand) -> Result<(), ToolError> {
    let mut out = std::io::stdout().lock();
    match command {
        ImuCommand::Scan(args) => {
            // A scan finds the baud: a simulated device is at the factory's.
            let factory = Settings::FACTORY.baud.bits_per_second();
            let (path, _sim) = simulated(&args.port, factory)?;
            let found = BringUp::scan(&path).map_err(|e| ToolError::Failed(e.to_string()))?;
            writeln!(out, "{}", found_line(&args.port, &found)).map_err(io)
        }
        ImuCommand::Read { port, sets } => {
            let mut port = Port::open(&port)?;
            for set in port.device.read_sets(usize::from(sets)).map_err(failed)? {
                for reading in set {
                    writeln!(out, "{}", reading_line(&reading)).map_err(io)?;
                }
            }
            Ok(())
        }
        ImuCommand::SetRate { port, rate } => {
            let mut port = Port::open(&port)?;
            let registers = port.device.set_rate(rate).map_err(failed)?;
            writeln!(
                out,
                "{}: rate now {}; read back, in RAM until `robot imu save`",
                port.name,
                rate_name(registers.rate)
            )
            .map_err(io)
        }
        ImuCommand::SetContent { port, content } => {
            let mut port = Port::open(&port)?;
            let registers = port.device.set_content(content).map_err(failed)?;
            writeln!(
                out,
                "{}: content now {}; read back, in RAM until `robot imu save`",
                port.name,
                content_names(registers.content)
            )
            .map_err(io)
        }
        ImuCommand::SetBaud { port, new } => {
            let Port { device, name, _sim } = Port::open(&port)?;
            let (_device, registers) = device.set_baud(new).map_err(failed)?;
            writeln!(
                out,
                "{name}: baud now {}; read back at it, in RAM until `robot imu save --baud {}`",
                baud_name(registers.baud),
                new.bits_per_second()
            )
            .map_err(io)
        }
        ImuCommand::Calibrate {
            port,
            what,
            seconds,
        } => {
            let mut port = Port::open(&port)?;
            let (mode, done) = match what {
                CalibrationArg::Accelerometer => (
                    Calibration::Accelerometer,
                    format!(
                        "accelerometer calibrated over {seconds} s (keep it still and level meanwhile)"
                    ),
                ),
                CalibrationArg::Magnetometer => (
                    Calibration::Magnetometer,
                    format!(
                        "magnetometer calibrated over {seconds} s (turn it about every axis meanwhile)"
                    ),
                ),
                CalibrationArg::Heading => (
                    Calibration::HeadingReset,
                    "heading reset: yaw is 0 now".to_string(),
                ),
            };
            port.device
                .calibrate(mode, Duration::from_secs(u64::from(seconds)))
                .map_err(failed)?;
            writeln!(out, "{}: {done}; `robot imu save` keeps it", port.name).map_err(io)
        }
        ImuCommand::Save(port) => {
            let mut port = Port::open(&port)?;
            port.device.save().map_err(failed)?;
            writeln!(
                out,
                "{}: saved; the settings outlive a power cycle",
                port.name
            )
            .map_err(io)
        }
        ImuCommand::Decode { hex } => {
            let text = if hex.is_empty() {
                let mut text = String::new();
                for line in std::io::stdin().lock().lines() {
                    let line =
                        line.map_err(|e| ToolError::Failed(format!("cannot read stdin: {e}")))?;
                    text.push_str(&line);
                    text.push('\n');
                }
                text
            } else {
                hex.join(" ")
            };
            let (bytes, errors) = decode::parse_hex(&text);
            for object in errors.iter().chain(&decode::decode(&bytes)) {
                writeln!(out, "{object}").map_err(io)?;
            }
            Ok(())
        }
    }
}

/// `sim: 9600 baud, sends acceleration, angular_velocity, angle, magnetic_field at 10 Hz (firmware 0x5A31)`
fn found_line(port: &str, found: &Found) -> String {
    let kinds: Vec<String> = found
        .kinds
        .iter()
        .filter(|&&k| k != FrameKind::RegisterValues)
        .map(|&k| kind_name(k))
        .collect();
    let mut line = format!(
        "{port}: {} baud, sends {}",
        found.baud.bits_per_second(),
        kinds.join(", ")
    );
    if let Some(Registers { rate, .. }) = found.registers {
        line += &format!(" at {}", rate_name(rate));
    }
    if let Some(version) = found.version {
        line += &format!(" (firmware {version:#06X})");
    }
    line
}

fn rate_name(code: u16) -> String {
    match u8::try_from(code).ok().and_then(OutputRate::from_code) {
        Some(OutputRate::Once) => "once".to_string(),
        Some(OutputRate::Stopped) => "stopped".to_string(),
        Some(rate) => format!("{} Hz", rate.hertz().unwrap_or_default()),
        None => format!("rate code {code}"),
    }
}

fn baud_name(code: u16) -> String {
    match u8::try_from(code).ok().and_then(BaudRate::from_code) {
        Some(baud) => baud.bits_per_second().to_string(),
        None => format!("code {code}"),
    }
}

fn content_names(content: OutputContent) -> String {
    let names: Vec<String> = FrameKind::ALL
        .into_iter()
        .filter(|&k| content.contains(k))
        .map(kind_name)
        .collect();
    format!("{} (RSW {:#06X})", names.join(", "), content.bits())
}

/// `acceleration      x +0.0000  y +0.0000  z +9.8066 m/s²  25.00 °C`
fn reading_line(reading: &Reading) -> String {
    let name = kind_name(reading.kind());
    match reading {
        Reading::Acceleration(a) => format!(
            "{name:<17} x {:+.4}  y {:+.4}  z {:+.4} m/s²  {:.2} °C",
            a.x, a.y, a.z, a.temperature
        ),
        Reading::AngularVelocity(w) => format!(
            "{name:<17} x {:+.4}  y {:+.4}  z {:+.4} rad/s",
            w.x, w.y, w.z
        ),
        Reading::Angle(a) => format!(
            "{name:<17} roll {:+.4}  pitch {:+.4}  yaw {:+.4} rad",
            a.roll, a.pitch, a.yaw
        ),
        Reading::MagneticField(m) => {
            format!("{name:<17} x {}  y {}  z {} counts", m.x, m.y, m.z)
        }
        Reading::Quaternion(q) => format!(
            "{name:<17} x {:+.4}  y {:+.4}  z {:+.4}  w {:+.4}",
            q.x, q.y, q.z, q.w
        ),
        other => format!("{name:<17} {other:?}"),
    }
}
