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
//! (docs/robstride-protocol.md §4: type 0 answers types 0, 7, 23 and 25; type 17 is the read and its reply; type
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
//! | `fault_frame` (reply) | `faults` (array of names of [`robstride_protocol::Fault`], snake case), `unknown_fault_bits`, `warnings` (array: `overtemperature`), `unknown_warning_bits` |
//!
//! Setpoints and feedback are scaled with the `--model` given; numbers are the shortest decimal
//! that reads back as the same `f32`.
//!
//! A line that does not parse or decode gives `{"line": "<the line>", "error": "<why>"}`.

mod args;
#[cfg(test)]
mod tests;
mod to_json;

pub use args::*;
pub use to_json::*;

use robstride_protocol::Frame;

/// The `cansend`/`candump -L` text of `frame`: `0300FD01#0000000000000000`.
pub fn frame_line(frame: &Frame) -> String {
    let mut line = match frame.id() {
        embedded_can::Id::Extended(id) => format!("{:08X}#", id.as_raw()),
        embedded_can::Id::Standard(id) => format!("{:03X}#", id.as_raw()),
    };
    if frame.is_remote() {
        line.push('R');
        return line;
    }
    line.push_str(&hex(frame.data()));
    line
}

/// Bytes as uppercase hex digits, two per byte, no separator: `5253061F00000001`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        let _ = write!(text, "{byte:02X}");
    }
    text
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
