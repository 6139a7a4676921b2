//! A decoded frame as JSON: the field names the module docs list, one reading per direction.

use robstride_protocol::{
    BaudRate, Command, DecodeError, Fault, FaultFrame, FeedbackFault, Frame, Mode, Param,
    ParamOutcome, ParamValue, Protocol, RawFeedback, Reply, Request, RobstrideModel, id::CommType,
};
use serde_json::{Map, Value, json};

use super::{frame_line, parse_line};

/// One line of `robot can decode`'s output for input `line` (see the module docs).
pub fn decode_line(line: &str, model: RobstrideModel) -> Value {
    let error = |e: String| json!({ "line": line.trim(), "error": e });
    let frame = match parse_line(line) {
        Ok(frame) => frame,
        Err(e) => return error(e),
    };
    match decode_frame(&frame, model) {
        Ok(value) => value,
        Err(e) => error(e.to_string()),
    }
}

/// The JSON of `frame`, in both directions (see the module docs); the reply's error when
/// neither decodes.
pub fn decode_frame(frame: &Frame, model: RobstrideModel) -> Result<Value, DecodeError> {
    let request = Request::decode(frame, model);
    let reply = Reply::decode(frame);
    let comm_type = frame.extended_id().map_or(0, |id| (id >> 24) as u8);
    let mut out = Map::new();
    out.insert("frame".into(), frame_line(frame).into());
    out.insert("type".into(), comm_type.into());
    let name = CommType::from_u8(comm_type).map_or("unknown", type_name);
    out.insert("type_name".into(), name.into());
    match (request, reply) {
        (Ok(request), Ok(reply)) => {
            out.insert("direction".into(), "ambiguous".into());
            out.insert("request".into(), Value::Object(request_fields(&request)));
            out.insert("reply".into(), Value::Object(reply_fields(&reply, model)));
        }
        (Ok(request), Err(_)) => {
            out.insert("direction".into(), "request".into());
            out.extend(request_fields(&request));
        }
        (Err(_), Ok(reply)) => {
            out.insert("direction".into(), "reply".into());
            out.extend(reply_fields(&reply, model));
        }
        (Err(request), Err(reply)) => {
            // The more telling error: a reply-only type fails as a request with `NotARequest`.
            return Err(match reply {
                DecodeError::NotAReply { .. } => request,
                _ => reply,
            });
        }
    }
    Ok(Value::Object(out))
}

/// The snake-case name of a communication type.
pub const fn type_name(ty: CommType) -> &'static str {
    match ty {
        CommType::GetId => "get_id",
        CommType::Control => "control",
        CommType::Feedback => "feedback",
        CommType::Enable => "enable",
        CommType::Stop => "stop",
        CommType::SetZero => "set_zero",
        CommType::SetCanId => "set_can_id",
        CommType::ReadParam => "read_param",
        CommType::WriteParam => "write_param",
        CommType::Fault => "fault",
        CommType::Save => "save",
        CommType::BaudRate => "baud_rate",
        CommType::ActiveReport => "active_report",
        CommType::ProtocolSwitch => "protocol_switch",
    }
}

/// An `f32` as the shortest decimal that reads back as it (0.1, not 0.10000000149011612); null
/// when not finite.
fn number(x: f32) -> Value {
    format!("{x}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

fn param_value(value: ParamValue) -> Value {
    match value {
        ParamValue::U8(v) => v.into(),
        ParamValue::U16(v) => v.into(),
        ParamValue::I16(v) => v.into(),
        ParamValue::U32(v) => v.into(),
        ParamValue::F32(v) => number(v),
    }
}

fn fields(pairs: impl IntoIterator<Item = (&'static str, Value)>) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn param_fields(index: u16) -> [(&'static str, Value); 2] {
    [
        ("param_index", index.into()),
        (
            "param_name",
            Param::from_index(index).map_or(Value::Null, |p| p.name().into()),
        ),
    ]
}

fn request_fields(request: &Request) -> Map<String, Value> {
    let mut out = fields([("motor", request.motor.into())]);
    if !matches!(request.command, Command::Mit(_)) {
        out.insert("host".into(), request.host.into());
    }
    let (kind, rest): (&str, Vec<(&'static str, Value)>) = match request.command {
        Command::GetId => ("get_id", vec![]),
        Command::Mit(mit) => (
            "mit",
            vec![
                // Decoded from 16-bit codes in f32, so each value is an f32 widened: printed
                // as that f32. The keys are the manual's names (Kp, Kd).
                ("position_rad", number(mit.mit().position as f32)),
                ("velocity_rad_s", number(mit.mit().velocity as f32)),
                ("kp", number(mit.mit().stiffness as f32)),
                ("kd", number(mit.mit().damping as f32)),
                ("torque_nm", number(mit.mit().effort as f32)),
            ],
        ),
        Command::Enable => ("enable", vec![]),
        Command::Stop => ("stop", vec![("clear_fault", false.into())]),
        Command::StopClearFault => ("stop", vec![("clear_fault", true.into())]),
        Command::SetZero => ("set_zero", vec![]),
        Command::SetCanId { new_id } => ("set_can_id", vec![("new_id", new_id.into())]),
        Command::ReadParam { index } => ("read_param", param_fields(index).into()),
        Command::WriteParam(write) => {
            let mut v: Vec<_> = param_fields(write.param().index()).into();
            v.push(("value", param_value(write.value())));
            ("write_param", v)
        }
        Command::Save => ("save", vec![]),
        Command::BaudRate(rate) => ("baud_rate", vec![("baud_bps", baud_bps(rate).into())]),
        Command::ActiveReport { on } => ("active_report", vec![("on", on.into())]),
        Command::ProtocolSwitch(p) => (
            "protocol_switch",
            vec![("protocol", protocol_name(p).into())],
        ),
    };
    out.insert("kind".into(), kind.into());
    out.extend(fields(rest));
    out
}

fn reply_fields(reply: &Reply, model: RobstrideModel) -> Map<String, Value> {
    match reply {
        Reply::DeviceId { motor, host, uid } => fields([
            ("motor", (*motor).into()),
            ("host", (*host).into()),
            ("kind", "device_id".into()),
            ("uid", super::hex(uid).into()),
        ]),
        Reply::Feedback(raw) => feedback_fields("feedback", raw, model),
        Reply::ActiveReport(raw) => feedback_fields("active_report_frame", raw, model),
        Reply::Param(p) => {
            let mut out = fields([
                ("motor", p.motor.into()),
                ("host", p.host.into()),
                ("kind", "param_value".into()),
            ]);
            out.extend(fields(param_fields(p.index)));
            let rest: Vec<(&'static str, Value)> = match p.outcome {
                ParamOutcome::Value(v) => vec![("status", "ok".into()), ("value", param_value(v))],
                ParamOutcome::Unlisted(bytes) => vec![
                    ("status", "ok".into()),
                    ("value", u32::from_le_bytes(bytes).into()),
                    ("raw_value", super::hex(&bytes[..]).into()),
                ],
                ParamOutcome::Failed => vec![("status", "failed".into()), ("value", Value::Null)],
            };
            out.extend(fields(rest));
            out
        }
        Reply::Fault(fault) => fault_fields(fault),
    }
}

fn feedback_fields(
    kind: &'static str,
    raw: &RawFeedback,
    model: RobstrideModel,
) -> Map<String, Value> {
    let f = raw.to_physical(model);
    let mode = match f.mode {
        Mode::Reset => "reset",
        Mode::Calibration => "calibration",
        Mode::Run => "run",
    };
    let faults: Vec<Value> = f
        .faults
        .iter()
        .map(|x| feedback_fault_name(x).into())
        .collect();
    fields([
        ("motor", f.motor.into()),
        ("host", f.host.into()),
        ("kind", kind.into()),
        ("mode", mode.into()),
        ("faults", faults.into()),
        ("position_rad", number(f.position)),
        ("velocity_rad_s", number(f.velocity)),
        ("torque_nm", number(f.torque)),
        ("temperature_c", number(f.temperature)),
    ])
}

fn fault_fields(fault: &FaultFrame) -> Map<String, Value> {
    let faults: Vec<Value> = fault.faults.iter().map(|x| fault_name(x).into()).collect();
    let warnings: Vec<Value> = if fault.warnings.overtemperature() {
        vec!["overtemperature".into()]
    } else {
        vec![]
    };
    fields([
        ("motor", fault.motor.into()),
        ("host", fault.host.into()),
        ("kind", "fault_frame".into()),
        ("faults", faults.into()),
        ("unknown_fault_bits", fault.faults.unknown_bits().into()),
        ("warnings", warnings.into()),
        ("unknown_warning_bits", fault.warnings.unknown_bits().into()),
    ])
}

const fn feedback_fault_name(fault: FeedbackFault) -> &'static str {
    match fault {
        FeedbackFault::Undervoltage => "undervoltage",
        FeedbackFault::Overcurrent => "overcurrent",
        FeedbackFault::Overtemperature => "overtemperature",
        FeedbackFault::MagneticEncoder => "magnetic_encoder",
        FeedbackFault::StallOverload => "stall_overload",
        FeedbackFault::Uncalibrated => "uncalibrated",
    }
}

const fn fault_name(fault: Fault) -> &'static str {
    match fault {
        Fault::MotorOvertemperature => "motor_overtemperature",
        Fault::DriverChip => "driver_chip",
        Fault::Undervoltage => "undervoltage",
        Fault::Overvoltage => "overvoltage",
        Fault::PhaseBOvercurrent => "phase_b_overcurrent",
        Fault::PhaseCOvercurrent => "phase_c_overcurrent",
        Fault::EncoderUncalibrated => "encoder_uncalibrated",
        Fault::HardwareIdentification => "hardware_identification",
        Fault::PositionInitialisation => "position_initialisation",
        Fault::StallOverload => "stall_overload",
        Fault::PhaseAOvercurrent => "phase_a_overcurrent",
    }
}

/// The bus rate in bit/s.
pub const fn baud_bps(rate: BaudRate) -> u32 {
    match rate {
        BaudRate::M1 => 1_000_000,
        BaudRate::K500 => 500_000,
        BaudRate::K250 => 250_000,
        BaudRate::K125 => 125_000,
    }
}

/// The name `robot can` uses for a protocol: `private`, `canopen`, `mit`.
pub const fn protocol_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Private => "private",
        Protocol::CanOpen => "canopen",
        Protocol::Mit => "mit",
    }
}
