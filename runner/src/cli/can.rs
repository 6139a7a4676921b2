//! `robot can`: `encode` and `decode`, the plumbing around `robstride_tools::inspect`, where the
//! formats are defined and documented; the commissioning commands are in `commission.rs`.

use std::io::{BufRead, Write};

use robstride_protocol::Command;
use robstride_tools::inspect;

use super::args::{CanCommand, OnOff, RequestArg};
use super::commission::{self, FindRobot};
use super::tool_error::ToolError;

pub(crate) fn run(command: CanCommand, find_robot: FindRobot<'_>) -> Result<(), ToolError> {
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| ToolError::Failed(format!("cannot write the output: {e}"));
    match command {
        CanCommand::Scan(args) => commission::scan(&args, find_robot),
        CanCommand::SetId(args) => commission::set_id(&args, find_robot),
        CanCommand::SetZero(args) => commission::set_zero(&args, find_robot),
        CanCommand::Param(command) => commission::param(&command, find_robot),
        CanCommand::Encode(args) => {
            let frame = request(&args.request)
                .map_err(ToolError::Usage)?
                .encode(args.model, args.host, args.motor);
            writeln!(out, "{}", inspect::frame_line(&frame)).map_err(io)
        }
        CanCommand::Decode(args) => {
            let mut decode = |line: &str| -> Result<(), ToolError> {
                if line.trim().is_empty() {
                    return Ok(());
                }
                writeln!(out, "{}", inspect::decode_line(line, args.model)).map_err(io)
            };
            if args.lines.is_empty() {
                for line in std::io::stdin().lock().lines() {
                    let line =
                        line.map_err(|e| ToolError::Failed(format!("cannot read stdin: {e}")))?;
                    decode(&line)?;
                }
            } else {
                for line in &args.lines {
                    decode(line)?;
                }
            }
            Ok(())
        }
    }
}

fn request(arg: &RequestArg) -> Result<Command, String> {
    Ok(match *arg {
        RequestArg::Mit {
            position,
            velocity,
            kp,
            kd,
            torque,
        } => inspect::mit(position, velocity, kp, kd, torque)?,
        RequestArg::Enable => Command::Enable,
        RequestArg::Stop { clear_fault: false } => Command::Stop,
        RequestArg::Stop { clear_fault: true } => Command::StopClearFault,
        RequestArg::SetZero => Command::SetZero,
        RequestArg::GetId => Command::GetId,
        RequestArg::SetId { new } => Command::SetCanId { new_id: new },
        RequestArg::ParamRead { param } => Command::ReadParam { index: param },
        RequestArg::ParamWrite {
            ref param,
            ref value,
        } => Command::WriteParam(inspect::parse_param_write(param, value)?),
        RequestArg::Save => Command::Save,
        RequestArg::Baud { rate } => Command::BaudRate(rate),
        RequestArg::ActiveReport { state } => Command::ActiveReport {
            on: state == OnOff::On,
        },
        RequestArg::Protocol { protocol } => Command::ProtocolSwitch(protocol),
    })
}
