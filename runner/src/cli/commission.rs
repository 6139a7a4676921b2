//! `can scan`, `can set-id`, `can set-zero` and `can param`: the plumbing around
//! `robstride_tools::commission`, which does the talking, and the lines they print.

use std::io::Write;
use std::time::Duration;

use backend_robstride::transport::{self, Opened, Transport, TransportKind};
use robot_core::Robot;
use robstride_protocol::{Param, ParamOutcome};
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;
use robstride_tools::commission::{Commissioner, Found};
use robstride_tools::inspect;

use super::args::{BusArgs, MotorArgs, ParamCommand, ScanArgs, SetIdArgs};
use super::tool_error::ToolError;

/// Finds a robot by ROS name, or the tool's first one.
pub(crate) type FindRobot<'a> = &'a dyn Fn(Option<&str>) -> Result<&'static Robot, String>;

/// An open bus; for `sim`, with the simulated actuators of the robot's bus on it.
struct Bus {
    transport: Box<dyn Transport>,
    interface: String,
    host: u8,
    timeout: Duration,
}

impl Bus {
    fn open(args: &BusArgs, find_robot: FindRobot<'_>) -> Result<Bus, ToolError> {
        let interface = args.interface.as_str();
        // Before opening: a usage error stays one whether or not the interface exists.
        let simulated = matches!(TransportKind::of(interface), TransportKind::Sim(_));
        if !simulated && (args.robot.is_some() || args.bus.is_some()) {
            return Err(ToolError::Usage(format!(
                "--robot and --bus choose the motors of a simulated bus; `{interface}` is a real one"
            )));
        }
        let opened = transport::open(interface).map_err(|e| ToolError::Failed(e.to_string()))?;
        let transport = match opened {
            Opened::SocketCan(socket) => Box::new(socket) as Box<dyn Transport>,
            Opened::Simulated(name) => {
                let sim = SimBus::new(&name);
                eprintln!(
                    "note: `{interface}` is an in-process bus of simulated actuators that lives for this one command; nothing written to them is kept"
                );
                let robot = find_robot(args.robot.as_deref()).map_err(ToolError::Usage)?;
                let bus = sim_bus(robot, args.bus.as_deref())?;
                attach_actuators(robot, bus, None, &sim);
                Box::new(sim.host())
            }
        };
        Ok(Bus {
            transport,
            interface: interface.to_owned(),
            host: args.host,
            timeout: Duration::from_millis(args.timeout_ms),
        })
    }

    fn tool(&mut self) -> Commissioner<'_> {
        Commissioner::new(self.transport.as_mut(), &self.interface, self.host).timeout(self.timeout)
    }
}

/// The robot's bus named `name`, or its first.
fn sim_bus<'r>(robot: &'r Robot, name: Option<&'r str>) -> Result<&'r str, ToolError> {
    let names: Vec<&str> = robot.buses.iter().map(|b| b.name.as_ref()).collect();
    match name {
        None => names
            .first()
            .copied()
            .ok_or_else(|| ToolError::Usage(format!("{} has no bus to simulate", robot.name))),
        Some(name) if names.contains(&name) => Ok(name),
        Some(name) => {
            let hint =
                robot_core::validate::suggest::did_you_mean_before(name, names.iter().copied());
            Err(ToolError::Usage(format!(
                "{} has no bus `{name}`; {hint}its buses are: {}",
                robot.name,
                names.join(", ")
            )))
        }
    }
}

pub(crate) fn scan(args: &ScanArgs, find_robot: FindRobot<'_>) -> Result<(), ToolError> {
    if args.from > args.to {
        return Err(ToolError::Usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let mut bus = Bus::open(&args.bus, find_robot)?;
    let found = bus.tool().scan(args.from..=args.to).map_err(failed)?;
    let mut out = std::io::stdout().lock();
    for motor in &found {
        writeln!(out, "{}", found_line(motor)).map_err(io)?;
    }
    let noun = if found.len() == 1 { "motor" } else { "motors" };
    writeln!(
        out,
        "{} {noun} answered on `{}` (ids {} to {})",
        found.len(),
        bus.interface,
        args.from,
        args.to
    )
    .map_err(io)
}

/// `motor  31  uid 5253031F00000001  run_mode 0 (operation control)  mechPos 0.000 rad  VBUS 48.0 V`
fn found_line(found: &Found) -> String {
    let mut line = format!("motor {:>3}  uid {}", found.motor, inspect::hex(&found.uid));
    if let Some(mode) = found.run_mode {
        line += &format!("  run_mode {mode} ({})", run_mode_name(mode));
    }
    if let Some(position) = found.position {
        line += &format!("  mechPos {position:.3} rad");
    }
    if let Some(vbus) = found.vbus {
        line += &format!("  VBUS {vbus:.1} V");
    }
    line
}

/// The run modes of parameter 0x7005 (docs/robstride-protocol.md §8).
fn run_mode_name(mode: u8) -> &'static str {
    match mode {
        0 => "operation control",
        1 => "PP position",
        2 => "velocity",
        3 => "current",
        5 => "CSP position",
        _ => "not a documented mode",
    }
}

pub(crate) fn set_id(args: &SetIdArgs, find_robot: FindRobot<'_>) -> Result<(), ToolError> {
    let MotorArgs { bus, motor } = &args.target;
    let mut bus = Bus::open(bus, find_robot)?;
    let uid = bus.tool().set_id(*motor, args.new).map_err(failed)?;
    outln!(
        "motor {motor} now answers as {} (uid {})",
        args.new,
        inspect::hex(&uid)
    );
    Ok(())
}

pub(crate) fn set_zero(args: &MotorArgs, find_robot: FindRobot<'_>) -> Result<(), ToolError> {
    let mut bus = Bus::open(&args.bus, find_robot)?;
    let position = bus.tool().set_zero(args.motor).map_err(failed)?;
    match position {
        Some(p) => outln!(
            "motor {} stopped and zeroed; mechPos now reads {p:.4} rad",
            args.motor
        ),
        None => outln!(
            "motor {} stopped and zeroed; it did not answer the read of mechPos",
            args.motor
        ),
    }
    Ok(())
}

pub(crate) fn param(command: &ParamCommand, find_robot: FindRobot<'_>) -> Result<(), ToolError> {
    match command {
        ParamCommand::Read { target, param } => {
            let mut bus = Bus::open(&target.bus, find_robot)?;
            let outcome = bus
                .tool()
                .read_param(target.motor, *param)
                .map_err(failed)?;
            let value = match outcome {
                ParamOutcome::Value(value) => value.to_string(),
                ParamOutcome::Unlisted(bytes) => {
                    format!("bytes {bytes:02X?} (not in the table, so of unknown type)")
                }
                ParamOutcome::Failed => "refused".to_owned(),
            };
            outln!("motor {} {} = {value}", target.motor, param_name(*param));
        }
        ParamCommand::Write {
            target,
            param,
            value,
        } => {
            let write = inspect::parse_param_write(param, value).map_err(ToolError::Usage)?;
            let mut bus = Bus::open(&target.bus, find_robot)?;
            bus.tool()
                .write_param(target.motor, write)
                .map_err(failed)?;
            outln!(
                "motor {} {} = {} (read back; in RAM until `robot can param save`)",
                target.motor,
                param_name(write.param().index()),
                write.value()
            );
        }
        ParamCommand::Save(target) => {
            let mut bus = Bus::open(&target.bus, find_robot)?;
            bus.tool().save(target.motor).map_err(failed)?;
            outln!("motor {} saved its parameters to flash", target.motor);
        }
    }
    Ok(())
}

/// `loc_kp (0x701E)`, or the index alone when the table does not list it.
fn param_name(index: u16) -> String {
    match Param::from_index(index) {
        Some(param) => format!("{} (0x{index:04X})", param.name()),
        None => format!("0x{index:04X}"),
    }
}

fn failed(error: robstride_tools::commission::CommissionError) -> ToolError {
    ToolError::Failed(error.to_string())
}

fn io(error: std::io::Error) -> ToolError {
    ToolError::Failed(format!("cannot write the output: {error}"))
}
