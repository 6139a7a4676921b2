//! A hex byte stream as JSON, for `robot imu decode` (`xxd -p /dev/ttyUSB0 | robot imu decode`):
//! one object per frame found, per rejected candidate, and per run of bytes that start no frame.
//!
//! # Input
//!
//! Hex digits, two a byte, in any case; whitespace and line breaks anywhere (between bytes or
//! not: `xxd -p` breaks its lines every 30 bytes, through frames), an optional `0x` before a
//! byte, and `,` or `:` between bytes are ignored. The bytes are one stream: a frame may span
//! lines. A token that is not hex is reported as `{"error": ..., "input": "<the token>"}` and
//! skipped.
//!
//! # JSON, one object a line, keys in alphabetical order
//!
//! A frame whose checksum holds:
//!
//! * `"frame"`: its 11 bytes, uppercase hex, no separators;
//! * `"type"`: the type byte (a number, 81 for `0x51`), `"type_name"`: its name (`time`,
//!   `acceleration`, `angular_velocity`, `angle`, `magnetic_field`, `port_status`, `pressure`,
//!   `gps_position`, `gps_speed`, `quaternion`, `gps_accuracy`, `register_values`);
//! * the decoded fields, each name ending in its unit:
//!
//! | type_name | fields |
//! |---|---|
//! | `acceleration` | `x_m_s2`, `y_m_s2`, `z_m_s2` (m/s², g = 9.80665), `temperature_c` (°C) |
//! | `angular_velocity` | `x_rad_s`, `y_rad_s`, `z_rad_s` (rad/s), `temperature_c` |
//! | `angle` | `roll_rad`, `pitch_rad`, `yaw_rad` (rad, Z-Y-X), `version` (the firmware word) |
//! | `magnetic_field` | `x_counts`, `y_counts`, `z_counts` (raw counts: no scale is documented), `temperature_c` |
//! | `quaternion` | `w`, `x`, `y`, `z` (unitless, normalised) |
//! | `time` | `year` (full, 20YY), `month`, `day`, `hour`, `minute`, `second`, `millisecond` |
//! | `register_values` | `registers` (the four 16-bit values, the first the register read) |
//! | `port_status`, `pressure`, `gps_*` | `words` (the four raw signed words: not decoded) |
//!
//! A frame whose checksum holds but which does not decode (a quaternion whose norm is off 1)
//! has `"error"` instead of the fields.
//!
//! A candidate rejected: `{"bytes": "<hex>", "error": "<why>", "type_name": ...}`: a checksum
//! that fails (its `0x55` is dropped and the search goes on from the next byte, as the
//! component's parser does, so its other bytes may be reported again), or a frame cut short at
//! the end of the input. Bytes between frames: `{"error": "...", "skipped_bytes": N}`.
//! Numbers are the shortest decimal that reads back as the same `f32`.

use serde_json::{Map, Value, json};
use witmotion_protocol::{FRAME_LEN, Frame, FrameError, FrameKind, HEADER, Reading};

use crate::bringup::kind_name;

/// The bytes of hex `text`, and a JSON error per token that is not hex.
pub fn parse_hex(text: &str) -> (Vec<u8>, Vec<Value>) {
    let mut bytes = Vec::new();
    let mut errors = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',' || c == ':') {
        let digits = token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"))
            .unwrap_or(token);
        if digits.is_empty() {
            continue;
        }
        let pairs: Option<Vec<u8>> = (digits.len() % 2 == 0)
            .then(|| {
                digits
                    .as_bytes()
                    .chunks(2)
                    .map(|pair| {
                        std::str::from_utf8(pair)
                            .ok()
                            .and_then(|p| u8::from_str_radix(p, 16).ok())
                    })
                    .collect()
            })
            .flatten();
        match pairs {
            Some(pairs) => bytes.extend(pairs),
            None => errors.push(json!({
                "error": "not hex bytes (two hex digits a byte)",
                "input": token,
            })),
        }
    }
    (bytes, errors)
}

/// One JSON object per frame, rejected candidate and run of skipped bytes in `bytes`.
pub fn decode(bytes: &[u8]) -> Vec<Value> {
    let mut out = Vec::new();
    let mut skipped = 0usize;
    let mut i = 0;
    let flush = |skipped: &mut usize, out: &mut Vec<Value>| {
        if *skipped > 0 {
            out.push(json!({
                "error": "bytes that start no frame",
                "skipped_bytes": *skipped,
            }));
            *skipped = 0;
        }
    };
    while i < bytes.len() {
        let kind = bytes.get(i + 1).and_then(|&b| FrameKind::from_byte(b));
        if bytes[i] != HEADER || (i + 1 < bytes.len() && kind.is_none()) {
            skipped += 1;
            i += 1;
            continue;
        }
        let Some(candidate) = bytes.get(i..i + FRAME_LEN) else {
            flush(&mut skipped, &mut out);
            let rest = &bytes[i..];
            let mut object = json!({
                "bytes": hex(rest),
                "error": format!("a frame cut short: {} of its {FRAME_LEN} bytes before the end of the input", rest.len()),
            });
            if let (Some(kind), Some(map)) = (kind, object.as_object_mut()) {
                map.insert("type_name".into(), kind_name(kind).into());
            }
            out.push(object);
            break;
        };
        let mut eleven = [0u8; FRAME_LEN];
        eleven.copy_from_slice(candidate);
        match Frame::from_bytes(&eleven) {
            Ok(frame) => {
                flush(&mut skipped, &mut out);
                out.push(frame_json(&frame));
                i += FRAME_LEN;
            }
            Err(error) => {
                flush(&mut skipped, &mut out);
                let mut object = Map::new();
                object.insert("bytes".into(), hex(candidate).into());
                object.insert("error".into(), reject(error).into());
                if let Some(kind) = kind {
                    object.insert("type_name".into(), kind_name(kind).into());
                }
                out.push(Value::Object(object));
                i += 1;
            }
        }
    }
    flush(&mut skipped, &mut out);
    out
}

fn reject(error: FrameError) -> String {
    match error {
        FrameError::Checksum { .. } => format!("{error}: corrupted, or not a frame"),
        other => other.to_string(),
    }
}

/// Uppercase hex, no separators.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// An `f32` as the shortest decimal that reads back as it; null when not finite.
fn number(x: f32) -> Value {
    format!("{x}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The JSON of one valid frame.
pub fn frame_json(frame: &Frame) -> Value {
    let kind = frame.kind();
    let mut object = Map::new();
    object.insert("frame".into(), hex(&frame.encode()).into());
    object.insert("type".into(), (kind as u8).into());
    object.insert("type_name".into(), kind_name(kind).into());
    let mut put = |name: &str, value: Value| {
        object.insert(name.into(), value);
    };
    match Reading::decode(frame) {
        Ok(Reading::Acceleration(a)) => {
            put("x_m_s2", number(a.x));
            put("y_m_s2", number(a.y));
            put("z_m_s2", number(a.z));
            put("temperature_c", number(a.temperature));
        }
        Ok(Reading::AngularVelocity(w)) => {
            put("x_rad_s", number(w.x));
            put("y_rad_s", number(w.y));
            put("z_rad_s", number(w.z));
            put("temperature_c", number(w.temperature));
        }
        Ok(Reading::Angle(a)) => {
            put("roll_rad", number(a.roll));
            put("pitch_rad", number(a.pitch));
            put("yaw_rad", number(a.yaw));
            put("version", a.version.into());
        }
        Ok(Reading::MagneticField(m)) => {
            put("x_counts", m.x.into());
            put("y_counts", m.y.into());
            put("z_counts", m.z.into());
            put("temperature_c", number(m.temperature));
        }
        Ok(Reading::Quaternion(q)) => {
            put("w", number(q.w));
            put("x", number(q.x));
            put("y", number(q.y));
            put("z", number(q.z));
        }
        Ok(Reading::Time(t)) => {
            put("year", (2000 + u16::from(t.year)).into());
            put("month", t.month.into());
            put("day", t.day.into());
            put("hour", t.hour.into());
            put("minute", t.minute.into());
            put("second", t.second.into());
            put("millisecond", t.millisecond.into());
        }
        Ok(Reading::RegisterValues(values)) => put("registers", json!(values)),
        Err(witmotion_protocol::DecodeError::NotDecoded { .. }) => {
            put("words", json!(frame.words()));
        }
        Err(error) => put("error", error.to_string().into()),
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_cut_across_lines_decodes_to_one_object_per_frame() {
        // The WTGAHRS2's acceleration frame (protocol tests/captures.rs), cut as xxd -p might.
        let (bytes, errors) = parse_hex("e7555132006900010810\n0c66\n");
        assert!(errors.is_empty());
        let out = decode(&bytes);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(
            out[0],
            json!({"error": "bytes that start no frame", "skipped_bytes": 1})
        );
        assert_eq!(out[1]["type_name"], "acceleration");
        assert_eq!(out[1]["type"], 81);
        assert_eq!(out[1]["temperature_c"], 30.88);
        assert_eq!(out[1]["frame"], "5551320069000108100C66");
    }

    #[test]
    fn a_bad_checksum_and_a_cut_frame_say_why() {
        let (bytes, _) = parse_hex("55 51 00 00 00 00 00 08 c4 09 7c 55 53 01");
        let out = decode(&bytes);
        assert_eq!(
            out[0]["error"],
            "checksum `0x7c`, the bytes sum to `0x7b`: corrupted, or not a frame"
        );
        assert_eq!(out[0]["type_name"], "acceleration");
        let last = out.last().unwrap();
        assert_eq!(last["type_name"], "angle");
        assert!(
            last["error"]
                .as_str()
                .unwrap()
                .starts_with("a frame cut short: 3 of its 11")
        );
    }

    #[test]
    fn a_token_that_is_not_hex_is_named() {
        let (bytes, errors) = parse_hex("55 zz 0x51 5");
        assert_eq!(bytes, [0x55, 0x51]);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0]["input"], "zz");
    }
}
