//! `robot imu` as a user runs it, on `sim`: the book's "Bringing up the IMU" transcript, run
//! line by line, and the exit statuses of its failures.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every `$ robot ...` line of the book's "Bringing up the IMU" block (its WitMotion chapter),
/// run, prints the lines below it.
#[test]
fn the_book_imu_transcript_is_what_the_tools_print() {
    let chapter = std::fs::read_to_string(
        robots::checked_in::workspace_root().join("docs/book/src/witmotion-backend.md"),
    )
    .unwrap();
    let section = chapter
        .split("\n## Bringing up the IMU\n")
        .nth(1)
        .expect("the WitMotion chapter has a Bringing up the IMU section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has a text block");
    let mut commands = 0;
    for run in block.split("$ robot ").skip(1) {
        let (command, expected) = run.split_once('\n').unwrap();
        let args: Vec<&str> = command.split_whitespace().collect();
        let output = robot(&args);
        assert!(
            output.status.success(),
            "{command}: {}",
            text(&output.stderr)
        );
        assert_eq!(text(&output.stdout), expected, "`robot {command}`");
        commands += 1;
    }
    assert_eq!(commands, 8, "{block}");
}

#[test]
fn decode_reads_stdin_as_one_stream_across_lines() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(["imu", "decode"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // As `xxd -p` cuts a stream: through a frame.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"5551000000000008\nc4097b\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["z_m_s2"], 9.80665);
}

#[test]
fn a_missing_port_fails_naming_it_and_bad_values_are_usage_errors() {
    let output = robot(&["imu", "read", "--port", "/dev/ttyUSB_not_here"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains(
            "error: no serial port `/dev/ttyUSB_not_here`: is the IMU plugged in? `ls /dev/serial/by-id`"
        ),
        "{}",
        text(&output.stderr)
    );
    for (args, message) in [
        (
            &["imu", "set-rate", "--port", "sim", "300"][..],
            "give 0.2, 0.5",
        ),
        (&["imu", "set-baud", "--port", "sim", "1200"][..], "460800"),
        (
            &["imu", "set-content", "--port", "sim", "acceleration,gyro"][..],
            "`gyro` is no frame kind",
        ),
    ] {
        let output = robot(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains(message),
            "{}",
            text(&output.stderr)
        );
    }
}
