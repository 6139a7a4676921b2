//! The text forms, round trip and by example.
#![allow(clippy::unwrap_used)]

use super::*;
use robstride_protocol::{Command, RobstrideModel};
use serde_json::{Value, json};

fn decode(line: &str) -> Value {
    decode_line(line, RobstrideModel::RS03)
}

#[test]
fn a_frame_line_is_cansend_form_and_parses_back() {
    let frame = Command::Enable.encode(RobstrideModel::RS03, 0xFD, 1);
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
    let v = decode(&frame_line(&cmd.encode(RobstrideModel::RS03, 0xFD, 1)));
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
    let typo = parse_param_index("run_mod").unwrap_err();
    assert!(
        typo.starts_with("`run_mod` is not a parameter name or index; did you mean `run_mode`?"),
        "{typo}"
    );
    assert!(
        typo.contains("canTimeout") && typo.contains("loc_kp"),
        "{typo}"
    );
    let unknown = parse_param_index("frobnicate").unwrap_err();
    assert!(
        unknown.starts_with(
            "`frobnicate` is neither a parameter name nor an index (such as 0x701E); the names: "
        ),
        "{unknown}"
    );
}
