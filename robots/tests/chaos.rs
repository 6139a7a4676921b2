//! `robot chaos` from the command line: the acceptance runs in small, a digest that replays, a
//! planted defect found with its schedule shrunk and a replay line, and the exit codes.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The line starting `digest `.
fn digest(output: &Output) -> String {
    stdout(output)
        .lines()
        .find(|l| l.starts_with("digest "))
        .unwrap()
        .to_string()
}

#[test]
fn schedules_run_clean_and_a_seed_prints_the_same_digest_twice() {
    let output = robot(&[
        "chaos",
        "--robot",
        "lite_biped",
        "--schedules",
        "60",
        "--seed",
        "1",
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("60 schedules, 0 violations"), "{text}");

    let args = [
        "chaos",
        "--robot",
        "lite_biped",
        "--schedules",
        "1",
        "--seed",
        "4242",
    ];
    let (first, second) = (robot(&args), robot(&args));
    assert!(first.status.success());
    let line = digest(&first);
    assert_eq!(line.len(), "digest ".len() + 16, "{line}");
    assert_eq!(line, digest(&second));
    // One schedule's own digest is printed too, with the seed that replays it alone.
    let text = stdout(&first);
    let schedule = text
        .lines()
        .find(|l| l.starts_with("schedule 0: seed "))
        .unwrap();
    let seed = schedule.split_whitespace().nth(3).unwrap();
    let replay = robot(&["chaos", "--robot", "lite_biped", "--replay", seed]);
    assert!(
        schedule.ends_with(digest(&replay).trim_start_matches("digest ")),
        "{schedule}\n{}",
        stdout(&replay)
    );
}

#[test]
fn a_planted_defect_is_found_shrunk_and_exits_1() {
    let output = robot(&[
        "chaos",
        "--robot",
        "lite_biped",
        "--schedules",
        "40",
        "--seed",
        "7",
        "--plant",
        "torque-left-on",
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("VIOLATION in schedule seed 0x"), "{text}");
    assert!(
        text.contains("broke every actuator off at the end, or named"),
        "{text}"
    );
    assert!(text.contains("shrunk to seed 0x"), "{text}");
    assert!(
        text.contains("replay: chaos --robot lite_biped --replay 0x"),
        "{text}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("schedules broke an invariant"), "{stderr}");
    // The injected panics are expected: none reaches stderr.
    assert!(!stderr.contains("panicked at"), "{stderr}");
}

#[test]
fn a_bad_seed_is_a_usage_error() {
    let output = robot(&["chaos", "--replay", "0xZZ"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a seed"));
}

#[cfg(feature = "mujoco")]
#[test]
fn schedules_run_on_mujoco_too() {
    let output = robot(&[
        "chaos",
        "--robot",
        "lite_biped",
        "--backend",
        "mujoco",
        "--schedules",
        "40",
        "--seed",
        "1",
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("lite_biped on MuJoCo"), "{text}");
    assert!(text.contains("40 schedules, 0 violations"), "{text}");
    let refused = robot(&[
        "chaos",
        "--backend",
        "mujoco",
        "--plant",
        "no-retry",
        "--schedules",
        "1",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("bus components"));
}

#[cfg(not(feature = "mujoco"))]
#[test]
fn without_mujoco_the_backend_is_refused_saying_why() {
    let output = robot(&["chaos", "--backend", "mujoco", "--schedules", "1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("feature `mujoco`"));
}

#[test]
fn schedules_run_on_the_topic_backend_against_a_peer_in_process() {
    let output = robot(&[
        "chaos",
        "--robot",
        "lite_biped",
        "--backend",
        "topic",
        "--schedules",
        "60",
        "--seed",
        "1",
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("lite_biped on the topic backend, against a peer in process"),
        "{text}"
    );
    assert!(text.contains("60 schedules, 0 violations"), "{text}");
}
