//! `robot can encode` and `robot can decode` as a user runs them: every request type encoded
//! then decoded back, stdin with a `candump -L` line, garbage as an error object, bad arguments
//! as exit 2.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn encode(args: &[&str]) -> String {
    let mut all = vec!["can", "encode", "--model", "RS03", "--motor", "1"];
    all.extend_from_slice(args);
    let output = robot(&all);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    let line = text(&output.stdout).trim_end().to_string();
    assert_eq!(line.len(), 8 + 1 + 16, "{line}");
    assert_eq!(&line[8..9], "#", "{line}");
    line
}

fn decode(lines: &[&str]) -> Vec<Value> {
    let mut all = vec!["can", "decode", "--model", "RS03"];
    all.extend_from_slice(lines);
    let output = robot(&all);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The host→motor reading of a decoded frame: the top level, or `request` when ambiguous.
fn request(value: &Value) -> &Value {
    match value["direction"].as_str() {
        Some("request") => value,
        Some("ambiguous") => &value["request"],
        _ => panic!("not a request: {value}"),
    }
}

/// Arguments after `--motor 1`, the type number, the request's `kind`, and fields it must have.
type Case<'a> = (&'a [&'a str], u64, &'a str, &'a [(&'a str, Value)]);

#[test]
fn every_request_type_round_trips() {
    let cases: &[Case] = &[
        (&["enable"], 3, "enable", &[]),
        (&["stop"], 4, "stop", &[("clear_fault", Value::Bool(false))]),
        (
            &["stop", "--clear-fault"],
            4,
            "stop",
            &[("clear_fault", Value::Bool(true))],
        ),
        (&["set-zero"], 6, "set_zero", &[]),
        (&["get-id"], 0, "get_id", &[]),
        (&["set-id", "9"], 7, "set_can_id", &[("new_id", 9.into())]),
        (
            &["param-read", "loc_kp"],
            17,
            "read_param",
            &[("param_name", "loc_kp".into())],
        ),
        (
            &["param-read", "0x7005"],
            17,
            "read_param",
            &[("param_index", 0x7005.into())],
        ),
        (
            &["param-write", "loc_kp", "2.5"],
            18,
            "write_param",
            &[("param_name", "loc_kp".into()), ("value", 2.5.into())],
        ),
        (
            &["param-write", "0x7005", "1"],
            18,
            "write_param",
            &[("param_name", "run_mode".into()), ("value", 1.into())],
        ),
        (&["save"], 22, "save", &[]),
        (
            &["baud", "500000"],
            23,
            "baud_rate",
            &[("baud_bps", 500_000.into())],
        ),
        (
            &["active-report", "on"],
            24,
            "active_report",
            &[("on", Value::Bool(true))],
        ),
        (
            &["active-report", "off"],
            24,
            "active_report",
            &[("on", Value::Bool(false))],
        ),
        (
            &["protocol", "canopen"],
            25,
            "protocol_switch",
            &[("protocol", "canopen".into())],
        ),
        (
            &["protocol", "mit"],
            25,
            "protocol_switch",
            &[("protocol", "mit".into())],
        ),
    ];
    for (args, ty, kind, expected) in cases {
        let line = encode(args);
        let decoded = decode(&[&line]);
        let v = &decoded[0];
        assert_eq!(v["frame"], line.as_str(), "{v}");
        assert_eq!(v["type"], *ty, "{args:?}: {v}");
        let r = request(v);
        assert_eq!(r["kind"], *kind, "{args:?}: {v}");
        assert_eq!(r["motor"], 1, "{v}");
        assert_eq!(r["host"], 253, "{v}");
        for (key, value) in *expected {
            assert_eq!(&r[*key], value, "{args:?} `{key}`: {v}");
        }
    }
}

#[test]
fn a_mit_setpoint_round_trips_within_its_truncation() {
    let line = encode(&[
        "mit",
        "--position",
        "0.5",
        "--velocity",
        "-1",
        "--kp",
        "20",
        "--kd",
        "1",
        "--torque",
        "-2",
    ]);
    assert!(line.starts_with("01"), "{line}");
    let v = &decode(&[&line])[0];
    assert_eq!(v["direction"], "request", "{v}");
    assert_eq!(v["kind"], "mit");
    assert!(v.get("host").is_none(), "{v}");
    for (key, want) in [
        ("position_rad", 0.5),
        ("velocity_rad_s", -1.0),
        ("kp", 20.0),
        ("kd", 1.0),
        ("torque_nm", -2.0),
    ] {
        let got = v[key].as_f64().unwrap();
        // Encoding truncates to a 16-bit code: Kp's code on an RS03 is 0.076 wide.
        assert!(
            (got - want).abs() < 0.02 * f64::max(1.0, want.abs()),
            "{key}: {got} vs {want}"
        );
    }
}

#[test]
fn the_host_id_is_an_option() {
    let line = encode(&["--host", "0", "enable"]);
    assert_eq!(line, "03000001#0000000000000000");
    assert_eq!(encode(&["enable"]), "0300FD01#0000000000000000");
}

#[test]
fn stdin_takes_candump_lines_and_garbage_is_an_error_object() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(["can", "decode", "--model", "RS03"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"(1700000000.000000) can0 02807FFD#7FFF7FFF7FFF012C\nnot a frame\n\n150001FD#0500000001000000\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let values: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values.len(), 3, "{values:?}");
    let feedback = &values[0];
    assert_eq!(feedback["direction"], "reply");
    assert_eq!(feedback["type"], 2);
    assert_eq!(feedback["type_name"], "feedback");
    assert_eq!(feedback["motor"], 0x7F);
    assert_eq!(feedback["host"], 0xFD);
    assert_eq!(feedback["mode"], "run");
    assert_eq!(feedback["temperature_c"], 30.0);
    assert!(feedback["position_rad"].as_f64().unwrap().abs() < 1e-3);
    assert_eq!(values[1]["line"], "not a frame");
    assert!(values[1]["error"].is_string());
    assert_eq!(values[2]["kind"], "fault_frame");
    assert_eq!(
        values[2]["faults"],
        serde_json::json!(["motor_overtemperature", "undervoltage"])
    );
}

#[test]
fn ambiguous_types_give_both_readings() {
    let v = &decode(&["0000FD01#0000000000000000"])[0];
    assert_eq!(v["direction"], "ambiguous");
    assert_eq!(v["request"]["kind"], "get_id");
    assert_eq!(v["reply"]["kind"], "device_id");
}

#[test]
fn bad_arguments_are_usage_errors() {
    let mit = |position: &str| {
        robot(&[
            "can",
            "encode",
            "--model",
            "RS03",
            "--motor",
            "1",
            "mit",
            "--position",
            position,
            "--velocity",
            "0",
            "--kp",
            "0",
            "--kd",
            "0",
            "--torque",
            "0",
        ])
    };
    for (output, needle) in [
        (mit("nan"), "not finite"),
        (mit("inf"), "not finite"),
        (mit("abc"), "not a number"),
        (
            robot(&["can", "encode", "--model", "RS09", "--motor", "1", "enable"]),
            "RS03",
        ),
        (
            robot(&[
                "can", "encode", "--model", "RS03", "--motor", "256", "enable",
            ]),
            "256",
        ),
        (
            robot(&[
                "can", "encode", "--model", "RS03", "--motor", "1", "baud", "9600",
            ]),
            "125000",
        ),
        (
            robot(&[
                "can",
                "encode",
                "--model",
                "RS03",
                "--motor",
                "1",
                "param-write",
                "VBUS",
                "1",
            ]),
            "read-only",
        ),
        (
            robot(&[
                "can",
                "encode",
                "--model",
                "RS03",
                "--motor",
                "1",
                "param-write",
                "loc_kp",
                "nan",
            ]),
            "finite",
        ),
        (
            robot(&[
                "can",
                "encode",
                "--model",
                "RS03",
                "--motor",
                "1",
                "param-read",
                "nope",
            ]),
            "parameter",
        ),
        (
            robot(&[
                "can", "encode", "--model", "RS03", "--motor", "1", "protocol", "x",
            ]),
            "canopen",
        ),
    ] {
        assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
        assert!(
            text(&output.stderr).contains(needle),
            "{}",
            text(&output.stderr)
        );
    }
}

#[test]
fn the_book_transcript_is_what_the_tools_print() {
    // "Looking at the traffic", in the book's RobStride chapter.
    let chapter = std::fs::read_to_string(
        robots::checked_in::workspace_root().join("docs/book/src/robstride-backend.md"),
    )
    .unwrap();
    for (args, line) in [
        (
            &["can", "encode", "--model", "RS03", "--motor", "1", "enable"][..],
            "0300FD01#0000000000000000",
        ),
        (
            &[
                "can",
                "decode",
                "--model",
                "RS03",
                "02807F01#80007FFF7FFF012C",
            ][..],
            "",
        ),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_robot"))
            .args(args)
            .output()
            .unwrap();
        let printed = String::from_utf8(output.stdout).unwrap();
        let printed = printed.trim_end();
        assert!(line.is_empty() || printed == line, "{printed}");
        assert!(
            chapter.contains(&format!("\n{printed}\n")),
            "the book's RobStride chapter lacks `{printed}`"
        );
    }
}
