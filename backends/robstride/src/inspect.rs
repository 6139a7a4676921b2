//! CAN traffic as text, for `robot can encode` and `robot can decode`: pure functions between
//! protocol values and the lines of can-utils (`cansend`, `candump -L`) and JSON.
//!
//! # Frame lines
//!
//! A frame is written as `cansend` takes it and `candump -L` prints it: the id as 8 uppercase hex
//! digits (an extended id), `#`, then the data as uppercase hex, two digits a byte, no
//! separators: `0300FD01#0000000000000000` ([`frame_line`]). [`parse_line`] reads that form (any
//! case, optional `.` between bytes as `cansend` allows, a 3-digit id as a standard frame and
//! `#R` as a remote frame, which the decoder then rejects), with or without the `candump -L`
//! prefix `(timestamp) interface `.
//!
//! # JSON of a decoded frame ([`decode_line`])
//!
//! One object per frame. Always present:
//!
//! * `"frame"`: the frame line as [`frame_line`] writes it;
//! * `"type"`: the communication type, bits 28–24 (a number);
//! * `"type_name"`: its name: `get_id`, `control`, `feedback`, `enable`, `stop`, `set_zero`,
//!   `set_can_id`, `read_param`, `write_param`, `fault`, `save`, `baud_rate`, `active_report`,
//!   `protocol_switch`;
//! * `"direction"`: `"request"` (host→motor), `"reply"` (motor→host) or `"ambiguous"`.
//!
//! Which direction a frame goes is not in the frame. Types 0, 17 and 24 are used both ways
//! (PROTOCOL.md §4: type 0 answers types 0, 7, 23 and 25; type 17 is the read and its reply; type
//! 24 switches active reports and is the report). The frame is decoded both ways, with
//! `Request::decode` and `Reply::decode`: if one succeeds that is the direction and its fields are
//! at the top level of the object; if both do (a type-0 or type-17 frame whose bytes fit both
//! layouts, or a type-24 switch whose id also reads as a report), `"direction"` is `"ambiguous"` and the two readings are objects under `"request"` and
//! `"reply"`; if neither does, the object is an error (below). Keys are in alphabetical order.
//!
//! Fields of one reading: `"motor"` and `"host"` (the ids; `host` is absent for a type-1
//! request, which carries the torque there), `"kind"`, then by kind:
//!
//! | kind | fields |
//! |---|---|
//! | `get_id`, `enable`, `set_zero`, `save` | none |
//! | `mit` | `position_rad`, `velocity_rad_s`, `kp`, `kd`, `torque_nm` |
//! | `stop` | `clear_fault` (bool) |
//! | `set_can_id` | `new_id` |
//! | `read_param` | `param_index` (number), `param_name` (string or null) |
//! | `write_param` | `param_index`, `param_name`, `value` (number) |
//! | `baud_rate` | `baud_bps` (1000000, 500000, 250000 or 125000) |
//! | `active_report` | `on` (bool) |
//! | `protocol_switch` | `protocol` (`private`, `canopen` or `mit`) |
//! | `device_id` (reply) | `uid` (16 hex digits as sent) |
//! | `feedback`, `active_report_frame` (reply) | `mode` (`reset`, `calibration`, `run`), `faults` (array of names: `undervoltage`, `overcurrent`, `overtemperature`, `magnetic_encoder`, `stall_overload`, `uncalibrated`), `position_rad`, `velocity_rad_s`, `torque_nm`, `temperature_c` |
//! | `param_value` (reply) | `param_index`, `param_name`, `status` (`ok` or `failed`), `value` (number; null when failed), and `raw_value` (8 hex digits of bytes 4–7) for an index the table does not list |
//! | `fault_frame` (reply) | `faults` (array of names of [`Fault`], snake case), `unknown_fault_bits`, `warnings` (array: `overtemperature`), `unknown_warning_bits` |
//!
//! Setpoints and feedback are scaled with the `--model` given; numbers are the shortest decimal
//! that reads back as the same `f32`.
//!
//! A line that does not parse or decode gives `{"line": "<the line>", "error": "<why>"}`.

use robstride_protocol::{
    BaudRate, Command, DecodeError, Fault, FaultFrame, FeedbackFault, Frame, MitCommand, Mode,
    Model, Param, ParamOutcome, ParamValue, ParamWrite, Protocol, RawFeedback, Reply, Request,
    id::CommType,
};
use serde_json::{Map, Value, json};

/// The `cansend`/`candump -L` text of `frame`: `0300FD01#0000000000000000`.
pub fn frame_line(frame: &Frame) -> String {
    use std::fmt::Write;
    let mut line = match frame.id() {
        embedded_can::Id::Extended(id) => format!("{:08X}#", id.as_raw()),
        embedded_can::Id::Standard(id) => format!("{:03X}#", id.as_raw()),
    };
    if frame.is_remote() {
        line.push('R');
        return line;
    }
    for byte in frame.data() {
        let _ = write!(line, "{byte:02X}");
    }
    line
}

/// The frame of one line: `ID#DATA`, or a `candump -L` line `(ts) iface ID#DATA`.
pub fn parse_line(line: &str) -> Result<Frame, String> {
    use embedded_can::Frame as _;
    let text = line.trim();
    let word = text
        .split_whitespace()
        .find(|w| w.contains('#'))
        .ok_or_else(|| "no `ID#DATA` in the line".to_string())?;
    let (id, data) = word.split_once('#').unwrap_or((word, ""));
    if data.starts_with('#') {
        return Err("CAN FD frames (`##`) are not RobStride frames".into());
    }
    let raw = u32::from_str_radix(id, 16).map_err(|_| format!("`{id}` is not a hex CAN id"))?;
    let id: embedded_can::Id = match id.len() {
        3 => embedded_can::StandardId::new(raw as u16)
            .ok_or_else(|| format!("`{id}` is more than 11 bits"))?
            .into(),
        8 => embedded_can::ExtendedId::new(raw)
            .ok_or_else(|| format!("`{id}` is more than 29 bits"))?
            .into(),
        _ => {
            return Err(format!(
                "`{id}`: a CAN id is 3 hex digits (standard) or 8 (extended)"
            ));
        }
    };
    if let Some(dlc) = data.strip_prefix(['R', 'r']) {
        let dlc = if dlc.is_empty() {
            0
        } else {
            dlc.parse()
                .map_err(|_| format!("`{dlc}` is not a length"))?
        };
        return Frame::new_remote(id, dlc)
            .ok_or_else(|| "a remote frame has at most 8 bytes".into());
    }
    let hex: String = data.chars().filter(|c| *c != '.').collect();
    if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("`{data}` is not hex bytes"));
    }
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect();
    Frame::new(id, &bytes)
        .ok_or_else(|| format!("{} data bytes: a CAN frame has at most 8", bytes.len()))
}

/// One line of `robot can decode`'s output for input `line` (see the module docs).
pub fn decode_line(line: &str, model: Model) -> Value {
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
pub fn decode_frame(frame: &Frame, model: Model) -> Result<Value, DecodeError> {
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
                ("position_rad", number(mit.position())),
                ("velocity_rad_s", number(mit.velocity())),
                ("kp", number(mit.kp())),
                ("kd", number(mit.kd())),
                ("torque_nm", number(mit.torque())),
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

fn reply_fields(reply: &Reply, model: Model) -> Map<String, Value> {
    match reply {
        Reply::DeviceId { motor, host, uid } => fields([
            ("motor", (*motor).into()),
            ("host", (*host).into()),
            ("kind", "device_id".into()),
            (
                "uid",
                uid.iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<String>()
                    .into(),
            ),
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
                    (
                        "raw_value",
                        bytes
                            .iter()
                            .map(|b| format!("{b:02X}"))
                            .collect::<String>()
                            .into(),
                    ),
                ],
                ParamOutcome::Failed => vec![("status", "failed".into()), ("value", Value::Null)],
            };
            out.extend(fields(rest));
            out
        }
        Reply::Fault(fault) => fault_fields(fault),
    }
}

fn feedback_fields(kind: &'static str, raw: &RawFeedback, model: Model) -> Map<String, Value> {
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

/// The model named `text` (`RS03`, any case).
pub fn parse_model(text: &str) -> Result<Model, String> {
    Model::ALL
        .into_iter()
        .find(|m| m.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            let names: Vec<&str> = Model::ALL.iter().map(|m| m.name()).collect();
            format!(
                "unknown model `{text}`; the models are {}",
                names.join(", ")
            )
        })
}

/// A finite number; NaN and ±∞ are refused.
pub fn parse_finite(text: &str) -> Result<f32, String> {
    let x: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("`{text}` is not finite: give a finite number"))
    }
}

/// A bus rate in bit/s: 1000000, 500000, 250000 or 125000.
pub fn parse_baud(text: &str) -> Result<BaudRate, String> {
    match text.trim() {
        "1000000" => Ok(BaudRate::M1),
        "500000" => Ok(BaudRate::K500),
        "250000" => Ok(BaudRate::K250),
        "125000" => Ok(BaudRate::K125),
        _ => Err(format!(
            "`{text}` is not a bus rate: give 1000000, 500000, 250000 or 125000"
        )),
    }
}

/// A protocol: `private`, `canopen` or `mit`.
pub fn parse_protocol(text: &str) -> Result<Protocol, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "private" => Ok(Protocol::Private),
        "canopen" => Ok(Protocol::CanOpen),
        "mit" => Ok(Protocol::Mit),
        _ => Err(format!(
            "`{text}` is not a protocol: give private, canopen or mit"
        )),
    }
}

/// A parameter index: a table name (`loc_kp`, any case), or an index in hex (`0x701E`) or
/// decimal.
pub fn parse_param_index(text: &str) -> Result<u16, String> {
    let t = text.trim();
    if let Some(p) = Param::ALL.iter().find(|p| p.name().eq_ignore_ascii_case(t)) {
        return Ok(p.index());
    }
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => t.parse(),
    };
    parsed.map_err(|_| {
        format!(
            "`{text}` is neither a parameter name (such as `loc_kp`) nor an index (such as 0x701E)"
        )
    })
}

fn parse_integer<T: TryFrom<i64>>(text: &str) -> Option<T> {
    let t = text.trim();
    let value = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => t.parse().ok()?,
    };
    T::try_from(value).ok()
}

/// A checked parameter write: `param` (name or index) of the table, `value` of its type.
pub fn parse_param_write(param: &str, value: &str) -> Result<ParamWrite, String> {
    let index = parse_param_index(param)?;
    let param = Param::from_index(index).ok_or_else(|| {
        format!("parameter 0x{index:04X} is not in the table: it cannot be written")
    })?;
    let name = param.name();
    let bad = |ty: &str| format!("`{value}` is not a value of `{name}`: give {ty}");
    let value = match param.ty() {
        robstride_protocol::ParamType::U8 => {
            ParamValue::U8(parse_integer(value).ok_or_else(|| bad("an integer 0..=255"))?)
        }
        robstride_protocol::ParamType::U16 => {
            ParamValue::U16(parse_integer(value).ok_or_else(|| bad("an integer 0..=65535"))?)
        }
        robstride_protocol::ParamType::I16 => {
            ParamValue::I16(parse_integer(value).ok_or_else(|| bad("an integer -32768..=32767"))?)
        }
        robstride_protocol::ParamType::U32 => {
            ParamValue::U32(parse_integer(value).ok_or_else(|| bad("an integer 0..=4294967295"))?)
        }
        robstride_protocol::ParamType::F32 => {
            ParamValue::F32(parse_finite(value).map_err(|_| bad("a finite number"))?)
        }
    };
    ParamWrite::new(param, value).map_err(|e| format!("`{name}`: {e}"))
}

/// An operation-control setpoint from finite values.
pub fn mit(position: f32, velocity: f32, kp: f32, kd: f32, torque: f32) -> Result<Command, String> {
    MitCommand::new(position, velocity, kp, kd, torque)
        .map(Command::Mit)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn decode(line: &str) -> Value {
        decode_line(line, Model::RS03)
    }

    #[test]
    fn a_frame_line_is_cansend_form_and_parses_back() {
        let frame = Command::Enable.encode(Model::RS03, 0xFD, 1);
        assert_eq!(frame_line(&frame), "0300FD01#0000000000000000");
        assert_eq!(
            parse_line("0300fd01#00.00.00.00.00.00.00.00").unwrap(),
            frame
        );
        assert_eq!(
            parse_line("(1700000000.000000) can0 0300FD01#0000000000000000").unwrap(),
            frame
        );
    }

    #[test]
    fn enable_is_a_request() {
        let v = decode("0300FD01#0000000000000000");
        assert_eq!(v["direction"], "request");
        assert_eq!(v["type"], 3);
        assert_eq!(v["type_name"], "enable");
        assert_eq!(v["motor"], 1);
        assert_eq!(v["host"], 253);
    }

    #[test]
    fn feedback_is_a_reply_in_units() {
        let v = decode("02807FFD#7FFF7FFF7FFF012C");
        assert_eq!(v["direction"], "reply");
        assert_eq!(v["kind"], "feedback");
        assert_eq!(v["motor"], 0x7F);
        assert_eq!(v["host"], 0xFD);
        assert_eq!(v["mode"], "run");
        assert_eq!(v["temperature_c"], 30.0);
        assert_eq!(v["faults"], json!([]));
    }

    #[test]
    fn get_id_is_ambiguous_with_both_readings() {
        let v = decode("0000FD01#0000000000000000");
        assert_eq!(v["direction"], "ambiguous");
        assert_eq!(v["request"]["kind"], "get_id");
        assert_eq!(v["reply"]["kind"], "device_id");
    }

    #[test]
    fn a_fault_frame_names_its_faults() {
        let v = decode("150001FD#0500000001000000");
        assert_eq!(v["direction"], "reply");
        assert_eq!(
            v["faults"],
            json!(["motor_overtemperature", "undervoltage"])
        );
        assert_eq!(v["warnings"], json!(["overtemperature"]));
    }

    #[test]
    fn a_mit_request_reads_back_its_setpoint() {
        let cmd = mit(0.0, 0.0, 0.0, 0.0, 0.0).unwrap();
        let v = decode(&frame_line(&cmd.encode(Model::RS03, 0xFD, 1)));
        assert_eq!(v["kind"], "mit");
        assert!(v.get("host").is_none());
        assert!(v["position_rad"].as_f64().unwrap().abs() < 1e-3);
    }

    #[test]
    fn garbage_is_an_error_object() {
        for line in [
            "hello",
            "0300FD01#0G",
            "12345#00",
            "0300FD01#0000",
            "05000001#0000000000000000",
        ] {
            let v = decode(line);
            assert_eq!(v["line"], line, "{v}");
            assert!(v["error"].is_string(), "{v}");
        }
    }

    #[test]
    fn bad_values_are_refused_with_a_reason() {
        assert!(parse_finite("NaN").unwrap_err().contains("not finite"));
        assert!(parse_finite("inf").is_err());
        assert!(parse_baud("9600").is_err());
        assert!(parse_model("RS09").unwrap_err().contains("RS03"));
        assert!(parse_param_write("VBUS", "1").unwrap_err().contains("read"));
        assert!(parse_param_write("run_mode", "300").is_err());
        assert!(parse_param_write("loc_kp", "nan").is_err());
        assert_eq!(parse_param_index("0x701E").unwrap(), 0x701E);
        assert_eq!(parse_param_index("loc_kp").unwrap(), 0x701E);
    }
}
