//! `robot run --backend mujoco`, as a user runs it (feature `mujoco`): the squat on the emitted
//! scenes in simulated time (on the floor by default, on the stand with `--model stand` or the
//! sample configuration's `mujoco.model`), and a bad `--model`.
#![cfg(feature = "mujoco")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::{Command, Output};

use robots::checked_in::workspace_root;

fn robot(args: &[&str]) -> Output {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("mujoco-cli");
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .args(["--out", out.to_str().unwrap()])
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The final position the tool prints for `joint`.
fn final_position(stdout: &str, joint: &str) -> f64 {
    let tail = stdout
        .split("final positions:")
        .nth(1)
        .expect("final positions");
    let after = tail.split(joint).nth(1).expect("the joint");
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn the_squat_runs_on_the_stand_in_simulated_time_and_reports_the_real_time_factor() {
    // 3 s: the 1 s ramp to standing, then half a 4 s squat: the knees at the bottom, 0.9 rad.
    let output = robot(&[
        "run",
        "--backend",
        "mujoco",
        "--model",
        "stand",
        "--seconds",
        "3",
        "--fast",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(
        stdout.contains(
            "on lite_biped on mujoco at 200 Hz for 3 s of simulated time, as fast as it steps"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("simulating lite_biped.stand.scene.xml: on the test stand"),
        "{stdout}"
    );
    assert!(stdout.contains("601 cycles at 200 Hz"), "{stdout}");
    assert!(stdout.contains("  simulated 3.000 s in "), "{stdout}");
    // Within 0.08 rad: on the test stand gravity bends the knee about 0.05 rad past its target
    // at the squat's 40 N·m/rad (measured 0.051).
    let knee = final_position(&stdout, "left_knee_pitch");
    assert!(
        (knee - 0.9).abs() < 0.08,
        "the knee tracks the squat's bottom: {knee}"
    );
    let hip = final_position(&stdout, "right_hip_pitch");
    assert!((hip + 0.45).abs() < 0.08, "{hip}");
}

/// By default the robot is on the floor. The squat has no balance feedback and lite_biped tips
/// over in its first squat there (`backends/mujoco/tests/floor.rs`); nothing in the loop treats
/// a fall as a fault, so the run ends as asked.
#[test]
fn by_default_the_robot_is_on_the_floor() {
    let output = robot(&["run", "--backend", "mujoco", "--seconds", "3", "--fast"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(
        stdout.contains("simulating lite_biped.scene.xml: on the floor"),
        "{stdout}"
    );
    assert!(stdout.contains("601 cycles at 200 Hz"), "{stdout}");
}

#[test]
fn a_bad_model_is_refused_by_the_command_line() {
    let output = robot(&["run", "--backend", "mujoco", "--model", "stnad", "--fast"]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "expected `scene`, `stand` or the path of an MJCF file ending in `.xml`, found \"stnad\"; did you mean `stand`?"
        ),
        "{stderr}"
    );
    let output = robot(&["run", "--backend", "mock", "--model", "stand", "--fast"]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("--model stand chooses what MuJoCo simulates, but the backend is mock"),
        "{stderr}"
    );
    let output = robot(&[
        "run",
        "--backend",
        "mujoco",
        "--model",
        "no/such.xml",
        "--fast",
    ]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(stderr.contains("`no/such.xml`: no such file"), "{stderr}");
}

#[test]
fn the_sample_configuration_selects_mujoco_paced_to_the_wall_clock() {
    let output = robot(&[
        "run",
        "--config",
        "robots/configs/lite_biped.mujoco.yaml",
        "--seconds",
        "0.5",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(
        stdout.contains("for 0.5 s of simulated time, paced to the wall clock"),
        "{stdout}"
    );
    assert!(
        stdout.contains("simulating lite_biped.stand.scene.xml: on the test stand"),
        "the file's `mujoco.model`: {stdout}"
    );
    let check = robot_check();
    assert!(check.status.success());
    assert!(
        !text(&check.stderr).contains("cannot use it"),
        "{}",
        text(&check.stderr)
    );
}

fn robot_check() -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(["check", "robots/configs/lite_biped.mujoco.yaml"])
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

/// Width and height from a PNG's header (its IHDR chunk), after checking the signature.
#[cfg(feature = "mujoco-render")]
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let number = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

#[test]
#[cfg(feature = "mujoco-render")]
fn run_writes_a_rendered_frame_mid_run() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.png");
    let output = robot(&[
        "run",
        "--backend",
        "mujoco",
        "--seconds",
        "1",
        "--fast",
        "--frame",
        frame.to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    // By default in the middle of the run.
    assert!(
        stdout.contains(&format!(
            "rendered the robot at 0.500 s of simulated time into {} (",
            frame.display()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("LiteBipedHardware: frames rendered 1, "),
        "{stdout}"
    );
    assert_eq!(png_size(&std::fs::read(&frame).unwrap()), (640, 480));

    // A time after the run's end is refused before it starts.
    let output = robot(&[
        "run",
        "--backend",
        "mujoco",
        "--seconds",
        "1",
        "--frame",
        "x.png",
        "--frame-at",
        "2",
    ]);
    assert!(!output.status.success());
    assert_eq!(
        text(&output.stderr),
        "error: --frame-at 2 is after the run's end (--seconds 1)\n"
    );
}
