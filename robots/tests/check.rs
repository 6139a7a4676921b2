//! `robot check` refuses what `robot run` would refuse before anything runs.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap()
}

fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

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
