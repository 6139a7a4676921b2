//! `robot check` as a user runs it: it accepts a good configuration and summarizes it, prints
//! every error of a bad one and exits 1, takes the robot from the flag over the file, reports a
//! missing file, and refuses what `robot run` would refuse before anything runs.
#![allow(clippy::unwrap_used)]

mod tool;

use tool::{robot, scratch, text};

#[test]
fn check_refuses_an_imu_without_a_port_as_run_does() {
    let file = scratch(
        "no-imu-port.yaml",
        "robot: lite_biped\nbackend: real\nbuses: { left_leg: sim, right_leg: sim }\n",
    );
    let check = robot(&["check", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`run` would refuse it: backend `real`: IMU `base_imu` has no serial port"),
        "{stderr}"
    );
    let run = robot(&[
        "run",
        "--config",
        file.to_str().unwrap(),
        "--seconds",
        "0.1",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("IMU `base_imu` has no serial port"));
    // With the simulated device (no baud needed), both take it.
    let file = scratch(
        "sim-imu.yaml",
        "robot: lite_biped\nbackend: real\nbuses: { left_leg: sim, right_leg: sim }\nimus: { base_imu: { port: sim } }\n",
    );
    let check = robot(&["check", file.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn check_accepts_a_good_config_and_summarizes_it() {
    let output = robot(&["check", "robots/configs/lite_biped.mock.yaml"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "robots/configs/lite_biped.mock.yaml: ok (lite_biped on mock; 2 buses; 0 joints disabled)\n"
    );
    let output = robot(&["check", "robots/configs/six_axis_arm.mock.yaml"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).ends_with(": ok (six_axis_arm on mock; 1 bus; 0 joints disabled)\n"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn check_counts_disabled_joints() {
    let file = scratch(
        "disabled.yaml",
        "robot: lite_biped\nbackend: real\nbuses: { left_leg: can0, right_leg: can1 }\nimus: { base_imu: { port: /dev/ttyUSB0, baud: 460800 } }\njoints:\n  right_ankle_roll: { enabled: false }\n",
    );
    let output = robot(&["check", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).ends_with(": ok (lite_biped on real; 2 buses; 1 joint disabled)\n"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn check_prints_every_error_and_exits_1() {
    let file = scratch(
        "bad.yaml",
        "robot: lite_biped\nbackend: real\nbuses:\n  left_lge: can0\n  right_leg: can1\n",
    );
    let name = file.display().to_string();
    let output = robot(&["check", &name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "{name}: buses.left_lge: unknown bus; did you mean `left_leg`? lite_biped has left_leg, right_leg\n\
             {name}: buses.left_leg: missing; backend real needs the OS interface of every bus, e.g. `left_leg: can0`\n\
             error: {name}: 2 errors\n"
        )
    );

    let file = scratch(
        "wrong-type.yaml",
        "robot: lite_biped\nbackend: mock\njoints:\n  left_knee_pitch:\n    enabled: \"yes\"\n",
    );
    let name = file.display().to_string();
    let output = robot(&["check", &name]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).starts_with(&format!(
            "{name}: joints.left_knee_pitch.enabled: expected a boolean, found \"yes\"\n"
        )),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn check_takes_the_robot_from_the_flag_over_the_file() {
    let output = robot(&[
        "check",
        "robots/configs/lite_biped.mock.yaml",
        "--robot",
        "six_axis_arm",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains(
            "robots/configs/lite_biped.mock.yaml: robot: expected six_axis_arm, found \"lite_biped\""
        ),
        "{}",
        text(&output.stderr)
    );
    let output = robot(&[
        "check",
        "robots/configs/lite_biped.mock.yaml",
        "--robot",
        "nope",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("unknown robot `nope`"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn check_reports_a_missing_file() {
    let output = robot(&["check", "no/such/config.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).starts_with("no/such/config.yaml: cannot read the file: "),
        "{}",
        text(&output.stderr)
    );
}
