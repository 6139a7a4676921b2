//! The values `robot can encode` takes, parsed with a reason when they are not values.

use robstride_protocol::{
    BaudRate, Command, Mit, MitCommand, Param, ParamValue, ParamWrite, Protocol, RobstrideModel,
};

/// The model named `text` (`RS03`, any case).
pub fn parse_model(text: &str) -> Result<RobstrideModel, String> {
    RobstrideModel::ALL
        .into_iter()
        .find(|m| m.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            let names: Vec<&str> = RobstrideModel::ALL.iter().map(|m| m.name()).collect();
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
    parsed.map_err(|_| unknown_param(text))
}

/// Why `text` names no parameter: the closest name where one is close (a typo), and every name.
fn unknown_param(text: &str) -> String {
    let wanted = text.trim().to_ascii_lowercase();
    let closest = Param::ALL
        .iter()
        .map(|p| {
            (
                strsim::levenshtein(&wanted, &p.name().to_ascii_lowercase()),
                p.name(),
            )
        })
        .min()
        .filter(|(distance, name)| *distance <= 2.max(name.len() / 3));
    let names: Vec<&str> = Param::ALL.iter().map(|p| p.name()).collect();
    let names = names.join(", ");
    match closest {
        Some((_, name)) => format!(
            "`{text}` is not a parameter name or index; did you mean `{name}`? (the names: {names})"
        ),
        None => format!(
            "`{text}` is neither a parameter name nor an index (such as 0x701E); the names: {names}"
        ),
    }
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
    MitCommand::new(Mit {
        position: f64::from(position),
        velocity: f64::from(velocity),
        stiffness: f64::from(kp),
        damping: f64::from(kd),
        effort: f64::from(torque),
    })
    .map(Command::Mit)
    .map_err(|e| e.to_string())
}
