//! Ctrl-C (SIGINT) and SIGTERM during `robot run`: the loop stops, the hardware is switched off,
//! the statistics are printed and the exit status says the run did not finish.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

fn interrupt_with(signal: &str, run: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir.path())
        .arg("run")
        .args(run)
        .args(["--seconds", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first progress line: the loop is running and the hardware active.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert_ne!(
            stdout.read_line(&mut line).unwrap(),
            0,
            "ended early: {seen}"
        );
        seen.push_str(&line);
        // A progress row (`  1.0 s  202  0  active`), after the column header.
        if line.trim_end().ends_with(" active") {
            break;
        }
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(exit.code(), Some(1), "SIG{signal}: {seen}{rest}\n{stderr}");
    assert!(
        stderr.contains("interrupted by a signal: the loop stopped and the hardware is inactive"),
        "SIG{signal}: {stderr}"
    );
    assert!(stderr.contains("cycles at 200 Hz"), "statistics: {stderr}");
    assert!(stderr.contains("final lifecycle: inactive"), "{stderr}");
    stderr
}

#[test]
fn sigint_stops_deactivates_and_prints_the_statistics() {
    interrupt_with("INT", &["--robot", "lite_biped"]);
}

#[test]
fn sigterm_stops_deactivates_and_prints_the_statistics() {
    interrupt_with("TERM", &["--robot", "lite_biped"]);
}

/// On the real path (14 simulated RobStride actuators): inactive means both buses stopped every
/// motor and each one answered.
#[test]
fn sigint_on_robstride_buses_stops_every_motor() {
    let config = robots::checked_in::workspace_root().join("robots/configs/lite_biped.sim.yaml");
    let stderr = interrupt_with("INT", &["--config", config.to_str().unwrap()]);
    for bus in ["LiteBipedLeftLeg", "LiteBipedRightLeg"] {
        assert!(
            stderr.contains(&format!("  {bus}: commands clamped 0, replies missed 0\n")),
            "{stderr}"
        );
    }
}
