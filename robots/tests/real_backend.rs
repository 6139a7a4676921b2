//! The `robot` binary on the real backend as a user runs it, on simulated RobStride buses and a
//! simulated IMU (the kernel has no SocketCAN here): the squat runs; `--fast`, a rate the buses
//! cannot carry, an IMU without a port, a bus without an interface are refused before anything
//! runs; a CAN interface the kernel cannot open, and an IMU port that is not there, fail
//! configure naming them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod tool;

use robots::checked_in::workspace_root;
use tool::{final_position, robot, robot_in, scratch, text};

/// `--fast` is simulated time: the real robot refuses it before anything runs.
#[test]
fn the_real_backend_refuses_fast() {
    let (output, _) = robot_in(
        "run-real-fast",
        &["run", "--backend", "real", "--fast", "--seconds", "0.1"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("real hardware runs on wall-clock time only"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn the_real_backend_runs_the_squat_on_simulated_robstride_buses_and_a_simulated_imu() {
    let (output, _) = robot_in(
        "run-sim",
        &[
            "run",
            "--config",
            workspace_root()
                .join("robots/configs/lite_biped.sim.yaml")
                .to_str()
                .unwrap(),
            "--seconds",
            "1.5",
        ],
    );
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(
        stdout.contains(
            "running squat (a slow squat) on lite_biped on real path, simulated buses and IMU at 200 Hz"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("final lifecycle: inactive"), "{stdout}");
    // The IMU is driven on the real path too: a simulated device on a pseudo-terminal, read
    // through the serial port, every frame intact.
    assert!(
        stdout.contains("`base_imu` is driven by LiteBipedIMU\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("reads NaN"), "{stdout}");
    assert!(
        stdout.contains("  LiteBipedIMU: frames ")
            && stdout.contains(", checksum failures 0, bytes skipped 0\n"),
        "{stdout}"
    );
    // 1.5 s: one progress line, under its header.
    assert!(
        stdout.contains("     time   cycles  overruns  lifecycle\n    1.0 s  "),
        "{stdout}"
    );
    // What each bus counted: the squat stays within every limit, and no reply went missing.
    for bus in ["LiteBipedLeftLeg", "LiteBipedRightLeg"] {
        assert!(
            stdout.contains(&format!("  {bus}: commands clamped 0, replies missed 0\n")),
            "{stdout}"
        );
    }
    // Half a second into the squat after the 1 s ramp: the knees are bending.
    assert!(
        final_position(&stdout, "left_knee_pitch") > 0.02,
        "{stdout}"
    );
}

#[test]
fn the_real_backend_without_can_in_the_kernel_says_so_naming_the_interface() {
    // This kernel has no SocketCAN (`AF_CAN` unsupported): the run fails at configure, clearly.
    let (output, _) = robot_in(
        "run-can0",
        &[
            "run",
            "--config",
            workspace_root()
                .join("robots/configs/lite_biped.real.yaml")
                .to_str()
                .unwrap(),
            "--seconds",
            "0.1",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("cannot open CAN interface `can0`")
            && stderr.contains("ip link set can0 up"),
        "{stderr}"
    );
}

#[test]
fn a_rate_the_buses_cannot_carry_is_refused_on_the_real_robot_and_noted_elsewhere() {
    let real = robot(&[
        "run",
        "--backend",
        "real",
        "--rate",
        "1000",
        "--seconds",
        "0.1",
    ]);
    assert_eq!(real.status.code(), Some(1));
    let stderr = text(&real.stderr);
    assert!(
        stderr.contains("error: at 1000 Hz the buses would be overloaded:")
            && stderr.contains("bus `left_leg` is overloaded at 1000 Hz")
            && stderr.contains("run at 357 Hz or less"),
        "{stderr}"
    );
    let mock = robot(&["run", "--rate", "1000", "--seconds", "0.1"]);
    assert!(mock.status.success(), "{}", text(&mock.stderr));
    assert!(
        text(&mock.stderr).contains("note: the real robot would refuse 1000 Hz:"),
        "{}",
        text(&mock.stderr)
    );
    assert!(
        text(&mock.stdout).contains(" cycles at 1000 Hz"),
        "{}",
        text(&mock.stdout)
    );
}

#[test]
fn the_real_backend_refuses_to_run_an_imu_without_a_port() {
    let file = scratch(
        "no_imu.yaml",
        "robot: lite_biped\nbackend: real\nbuses: { left_leg: sim, right_leg: sim }\n",
    );
    let output = robot(&[
        "run",
        "--config",
        file.to_str().unwrap(),
        "--seconds",
        "0.1",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains(
            "IMU `base_imu` has no serial port: give one in the runtime configuration (`imus: { base_imu: { port: /dev/ttyUSB0, baud: 460800 } }`, or `imus: { base_imu: { port: sim } }` for a simulated device)"
        ),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn the_real_backend_without_interfaces_is_refused_before_emitting_or_running() {
    let (output, _) = robot_in(
        "run-real-bare",
        &["run", "--backend", "real", "--seconds", "0.1"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stdout).is_empty(), "{}", text(&output.stdout));
    assert_eq!(
        text(&output.stderr),
        "error: backend `real`: bus `left_leg` has no interface: give one in the runtime \
         configuration (`buses: { left_leg: can0 }`, or `sim` for simulated actuators)\n"
    );
}

#[test]
fn a_real_imu_port_that_is_missing_fails_configure_naming_it() {
    let file = scratch(
        "missing_imu.yaml",
        "robot: lite_biped\nbackend: real\nbuses: { left_leg: sim, right_leg: sim }\nimus:\n  base_imu: { port: /dev/ttyUSB_not_here, baud: 460800 }\n",
    );
    let output = robot(&[
        "run",
        "--config",
        file.to_str().unwrap(),
        "--seconds",
        "0.1",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains(
            "LiteBipedIMU: `base_imu`: no serial port `/dev/ttyUSB_not_here`: is the IMU plugged in? `ls /dev/serial/by-id`"
        ),
        "{}",
        text(&output.stderr)
    );
}
