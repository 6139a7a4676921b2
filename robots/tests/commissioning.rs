//! `robot can scan`, `set-id`, `set-zero` and `param` as a user runs them, on `sim`: what they
//! print, their exit statuses, and the book's "Commissioning" transcript, run line by line.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::{Command, Output};

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .output()
        .expect("run robot")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `robot can ARGS` and returns its stdout, requiring success.
fn can(args: &[&str]) -> String {
    let mut all = vec!["can"];
    all.extend_from_slice(args);
    let output = robot(&all);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

#[test]
fn scan_lists_every_motor_of_the_bus_and_nothing_else() {
    let out = can(&["scan", "--interface", "sim"]);
    let ids: Vec<u8> = out
        .lines()
        .filter_map(|l| l.strip_prefix("motor"))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, [31, 32, 33, 34, 35, 36, 37], "{out}");
    assert!(
        out.ends_with("7 motors answered on `sim` (ids 1 to 127)\n"),
        "{out}"
    );
    // The right leg, by name; a range that holds none of its motors.
    let right = can(&["scan", "--interface", "sim", "--bus", "right_leg"]);
    assert!(right.contains("motor  41  uid 5253062900000001"), "{right}");
    let none = can(&["scan", "--interface", "sim", "--from", "1", "--to", "30"]);
    assert_eq!(none, "0 motors answered on `sim` (ids 1 to 30)\n");
}

#[test]
fn the_sim_bus_says_it_keeps_nothing() {
    let output = robot(&["can", "scan", "--interface", "sim", "--to", "31"]);
    assert!(
        stderr(&output).contains("lives for this one command; nothing written to them is kept"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn set_zero_and_parameters_on_one_motor() {
    assert_eq!(
        can(&["set-zero", "--interface", "sim", "--motor", "36"]),
        "motor 36 stopped and zeroed; mechPos now reads 0.0000 rad\n"
    );
    assert_eq!(
        can(&[
            "param",
            "write",
            "--interface",
            "sim",
            "--motor",
            "36",
            "0x700B",
            "12.5"
        ]),
        "motor 36 limit_torque (0x700B) = 12.5 (read back; in RAM until `robot can param save`)\n"
    );
    assert_eq!(
        can(&[
            "param",
            "read",
            "--interface",
            "sim",
            "--motor",
            "36",
            "vbus"
        ]),
        "motor 36 VBUS (0x701C) = 48\n"
    );
}

#[test]
fn a_silent_motor_fails_naming_it_and_the_way_to_find_it() {
    let output = robot(&["can", "set-zero", "--interface", "sim", "--motor", "5"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains(
            "error: motor 5 on `sim` did not answer stop within 20 ms: is it powered, on this bus, and at this id? (`robot can scan --interface sim` lists the ids that answer)"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    for (args, message) in [
        (
            &["set-id", "--interface", "sim", "--motor", "31", "128"][..],
            "128",
        ),
        (&["set-zero", "--interface", "sim", "--motor", "0"], "0"),
        (
            &["scan", "--interface", "sim", "--from", "40", "--to", "30"],
            "--from 40 is above --to 30",
        ),
        (
            &["scan", "--interface", "sim", "--bus", "lef_leg"],
            "did you mean `left_leg`?",
        ),
        (
            &["scan", "--interface", "sim", "--robot", "lite_bipd"],
            "did you mean `lite_biped`?",
        ),
        (
            &["scan", "--interface", "can0", "--bus", "left_leg"],
            "`can0` is a real one",
        ),
        (
            &[
                "param",
                "write",
                "--interface",
                "sim",
                "--motor",
                "31",
                "run_mode",
                "fast",
            ],
            "fast",
        ),
    ] {
        let mut all = vec!["can"];
        all.extend_from_slice(args);
        let output = robot(&all);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_missing_interface_fails_naming_it() {
    let output = robot(&["can", "scan", "--interface", "can7"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot open CAN interface `can7`"),
        "{}",
        stderr(&output)
    );
}

/// Every `$ robot ...` line of the book's "Commissioning" block (its RobStride chapter), run,
/// prints the lines below it.
#[test]
fn the_book_transcript_is_what_the_tools_print() {
    let chapter = std::fs::read_to_string(
        robots::checked_in::workspace_root().join("docs/book/src/robstride-backend.md"),
    )
    .unwrap();
    let section = chapter
        .split("\n## Commissioning\n")
        .nth(1)
        .expect("the RobStride chapter has a Commissioning section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Commissioning section has a text block");
    let mut commands = 0;
    for run in block.split("$ robot ").skip(1) {
        let (command, expected) = run.split_once('\n').unwrap();
        let args: Vec<&str> = command.split_whitespace().collect();
        let output = robot(&args);
        assert!(output.status.success(), "{command}: {}", stderr(&output));
        assert_eq!(stdout(&output), expected, "`robot {command}`");
        commands += 1;
    }
    assert_eq!(commands, 6, "{block}");
}
