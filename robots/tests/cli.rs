//! The `robot` binary as a user runs it: `check` on good and bad configurations, `run` on the
//! mock (with and without a config), `describe` and `emit`, checking exit codes and output.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use robots::checked_in::workspace_root;

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in this test binary's scratch folder.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
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

/// Runs `robot` in a fresh, empty scratch folder of its own.
fn robot_in(dir: &str, args: &[&str]) -> (Output, PathBuf) {
    let cwd = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(&cwd)
        .output()
        .expect("run robot");
    (output, cwd)
}

/// cargo's target directory: the folder above the `robot` binary that holds what cargo keeps at
/// a target directory's root.
fn target_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_BIN_EXE_robot"))
        .ancestors()
        .find(|dir| {
            ["CACHEDIR.TAG", ".rustc_info.json"]
                .iter()
                .any(|marker| dir.join(marker).is_file())
        })
        .expect("the robot binary is in a cargo target directory")
        .to_path_buf()
}

#[test]
fn emit_without_out_writes_into_the_stable_folder_not_the_builds() {
    let (output, _cwd) = robot_in("emit-stable", &["emit", "--robot", "six_axis_arm"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    let stable = target_dir().join("descriptions").join("six_axis_arm");
    assert!(
        stdout.contains(&format!(
            "wrote {}",
            stable.join("six_axis_arm.urdf.xacro").display()
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains("/build/"),
        "not the build script's OUT_DIR: {stdout}"
    );
}

#[test]
fn run_emits_the_descriptions_then_squats_on_the_mock_and_prints_the_statistics() {
    // From any folder, the files land in the stable `<target>/descriptions/<robot>/`, never
    // relative to it, and never in a folder whose name changes with the features.
    let (output, cwd) = robot_in("run-mock", &["run", "--seconds", "0.3"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    let stable = target_dir().join("descriptions").join("lite_biped");
    assert!(
        stdout.contains(&format!("emitted 10 files into {}", stable.display())),
        "{stdout}"
    );
    assert!(stable.join("lite_biped.urdf.xacro").is_file());
    assert!(
        stdout.contains("running squat (a slow squat) on lite_biped on mock at 200 Hz"),
        "{stdout}"
    );
    assert!(stdout.contains(" cycles at 200 Hz, "), "{stdout}");
    for series in ["work", "interval", "lateness"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.trim_start().starts_with(series) && l.contains("p99")),
            "{series}: {stdout}"
        );
    }
    assert!(stdout.contains("final lifecycle: inactive"), "{stdout}");
    assert!(
        stdout.contains("drives `base_imu`: its state reads NaN"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(an overrun: a cycle that ended after the next cycle's deadline"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_dir(&stable).unwrap().count(), 10);
    assert!(
        !cwd.join("target").exists(),
        "nothing written into the working folder"
    );
}

/// The final position of `joint` as `run` prints it.
fn final_position(stdout: &str, joint: &str) -> f64 {
    let block = stdout
        .split_once("final positions:")
        .expect("final positions")
        .1;
    let mut words = block.split_whitespace();
    words.find(|w| *w == joint).expect("joint in the block");
    words.next().expect("its value").parse().expect("a number")
}

#[test]
fn run_leaves_a_joint_the_config_disables_at_rest() {
    let config = scratch(
        "disabled.yaml",
        "robot: lite_biped\nbackend: mock\njoints:\n  right_knee_pitch: { enabled: false }\n",
    );
    let config = config.to_string_lossy().to_string();
    // 1 s ramp to standing, then 1 s into the 4 s squat: the knees are a quarter of the way.
    let (output, _) = robot_in(
        "run-disabled",
        &["run", "--config", &config, "--seconds", "2"],
    );
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert_eq!(final_position(&stdout, "right_knee_pitch"), 0.0, "{stdout}");
    assert!(final_position(&stdout, "left_knee_pitch") > 0.1, "{stdout}");
    assert!(
        stderr.contains("disables right_knee_pitch: squat commands to it are not sent"),
        "{stderr}"
    );
}

/// Built without the `mujoco` feature, the tool says how to get the backend.
#[cfg(not(feature = "mujoco"))]
#[test]
fn without_the_mujoco_feature_the_mujoco_backend_refuses_to_run_with_a_clear_error() {
    let (output, _) = robot_in(
        "run-refused",
        &["run", "--backend", "mujoco", "--seconds", "0.1"],
    );
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "backend `mujoco`: not in this build: it is robot-runner's cargo feature `mujoco`"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("scripts/install-mujoco.sh"), "{stderr}");
}

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
fn describe_shows_joints_buses_and_their_load() {
    let output = robot(&["describe"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success());
    assert!(
        stdout.starts_with(
            "LiteBiped (lite_biped): 16 links, 15 joints, 14 actuated, update rate 200 Hz"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("left_ankle_pitch"), "{stdout}");
    assert!(stdout.contains("(four-bar)"), "{stdout}");
    // Which component drives the IMU on the real path, and in which body's axes it reports.
    assert!(
        stdout.contains("imu on link `imu` (reported for body `pelvis`, the link turned 0.000 0.000 0.000 rad in it)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("robot run on real: LiteBipedIMU, a WitMotion-protocol IMU on the port the configuration gives (`imus.base_imu`)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "left_leg     1000000 bit/s, 7 actuators, 448000 bit/s at 200 Hz = 44.8% load, \
             fits up to 357 Hz within its 80% ceiling"
        ),
        "{stdout}"
    );
    let arm = text(&robot(&["describe", "--robot", "six_axis_arm"]).stdout);
    assert!(arm.contains("(mimics gripper ×-1 +0)"), "{arm}");
    // Which trajectory controller feeds gravity forward, through how many joints' effort.
    assert!(
        arm.contains(
            "arm_trajectory_controller     shoulder_yaw, shoulder_pitch, elbow, wrist_pitch, \
             wrist_yaw, wrist_roll: gravity fed forward (effort on 6 of 6 joints)"
        ),
        "{arm}"
    );
    assert!(
        arm.contains("gripper_trajectory_controller gripper: servo alone"),
        "{arm}"
    );
    // A prismatic joint in its own units; the wrist roll's motor turns counted.
    assert!(
        arm.contains("+0.000 .. +0.040 m  0.100 m/s     5.0 N"),
        "{arm}"
    );
    assert!(
        arm.contains(
            "position,velocity,effort | position,velocity  (continuous: motor turns counted)"
        ),
        "{arm}"
    );
}

#[test]
fn emit_writes_every_file_of_every_robot() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("emit-all");
    let output = robot(&["emit", "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // The floating-base biped also gets its test-stand scene.
    for (robot, files) in [("lite_biped", 10), ("six_axis_arm", 9)] {
        assert_eq!(
            std::fs::read_dir(out.join(robot)).unwrap().count(),
            files,
            "{robot}"
        );
    }
    let unknown = robot(&["emit", "--robot", "lite_bipd"]);
    assert!(!unknown.status.success());
    assert!(
        text(&unknown.stderr).contains(
            "unknown robot `lite_bipd`; did you mean `lite_biped`? robot knows: lite_biped, six_axis_arm"
        ),
        "{}",
        text(&unknown.stderr)
    );
    let unwritable = robot(&["emit", "--out", "/dev/null/x"]);
    assert_eq!(unwritable.status.code(), Some(1));
    assert!(
        text(&unwritable.stderr).starts_with("error: creating folder /dev/null/x/lite_biped: "),
        "{}",
        text(&unwritable.stderr)
    );
}

#[test]
fn every_numeric_flag_is_refused_outside_its_range_with_the_range() {
    for (flag, value, says) in [
        ("--rate", "0", "0 is not in 1..=10000"),
        ("--rate", "4294967295", "is not in 1..=10000"),
        ("--rate", "abc", "`abc` is not a whole number in 1..=10000"),
        ("--cpu", "1.5", "`1.5` is not a whole number in 0..=1023"),
        ("--fifo-priority", "0", "0 is not in 1..=99"),
        ("--fifo-priority", "100", "100 is not in 1..=99"),
        (
            "--seconds",
            "0",
            "give more than 0 and at most 86400 seconds",
        ),
        ("--cpu", "5000", "5000 is not in 0..=1023"),
        ("--spin-us", "2000000", "is not in 0..=1000000"),
        // A negative value reaches the range check, never clap's `unexpected argument '-1'`.
        (
            "--seconds",
            "-1",
            "`-1` is not a run length: give more than 0 and at most 86400 seconds",
        ),
        ("--rate", "-5", "-5 is not in 1..=10000"),
        ("--cpu", "-1", "-1 is not in 0..=1023"),
    ] {
        let output = robot(&["run", flag, value]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains(says),
            "{flag} {value}: {stderr}"
        );
    }
    // In range for clap, but not less than the period at the rate.
    let output = robot(&["run", "--spin-us", "5000", "--seconds", "0.1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("--spin-us 5000 is not less than the period at 200 Hz (5000 µs)"),
        "{}",
        text(&output.stderr)
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
fn an_unknown_controller_names_the_robots_own() {
    let output = robot(&["run", "--controller", "sqat", "--seconds", "0.1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains(
            "lite_biped has no controller `sqat`; did you mean `squat`? its controllers: squat, left_knee_swing, trajectory, manager"
        ),
        "{}",
        text(&output.stderr)
    );
    let wrong_robot = robot(&["run", "--robot", "six_axis_arm", "--controller", "squat"]);
    assert!(
        text(&wrong_robot.stderr).contains("six_axis_arm has no controller `squat`"),
        "{}",
        text(&wrong_robot.stderr)
    );
}

#[test]
fn a_run_length_that_is_not_one_is_a_usage_error_not_a_panic() {
    for bad in ["inf", "-1", "1e20", "soon"] {
        let output = robot(&["run", &format!("--seconds={bad}")]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{bad}: {}",
            text(&output.stderr)
        );
        assert!(
            text(&output.stderr).contains("--seconds"),
            "{bad}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn run_with_a_config_for_an_unknown_robot_names_the_file_and_field_as_check_does() {
    let config = scratch("unknown-robot.yaml", "robot: lite_bipd\nbackend: mock\n");
    let config = config.to_string_lossy().to_string();
    let run = robot(&["run", "--config", &config]);
    let check = robot(&["check", &config]);
    for output in [&run, &check] {
        assert_eq!(output.status.code(), Some(1));
        let stderr = text(&output.stderr);
        assert!(
            stderr.starts_with(&format!("{config}: robot: unknown robot \"lite_bipd\";"))
                && stderr.contains("did you mean `lite_biped`?"),
            "{stderr}"
        );
    }
    assert_eq!(text(&run.stderr), text(&check.stderr));
}

#[cfg(not(feature = "mujoco"))]
#[test]
fn describe_lists_the_controllers_and_run_refuses_an_unbuilt_backend_before_emitting() {
    let output = robot(&["describe", "--robot", "six_axis_arm"]);
    assert!(
        text(&output.stdout)
            .contains("controllers (run --controller NAME; the first is the default)\n  wave"),
        "{}",
        text(&output.stdout)
    );
    let (output, _) = robot_in(
        "run-unbuilt",
        &["run", "--backend", "mujoco", "--out", "out"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        !text(&output.stdout).contains("emitted"),
        "{}",
        text(&output.stdout)
    );
    let check = robot(&["check", "robots/configs/lite_biped.mujoco.yaml"]);
    assert!(check.status.success());
    assert!(
        text(&check.stderr).contains(
            "note: `run` cannot use it in this build: backend `mujoco`: not in this build"
        ),
        "{}",
        text(&check.stderr)
    );
}

#[test]
fn a_frame_is_refused_off_mujoco_and_outside_a_png() {
    let output = robot(&["run", "--seconds", "0.1", "--frame", "frame.png"]);
    assert!(!output.status.success());
    assert_eq!(
        text(&output.stderr),
        "error: --frame: backend `mock`: only the MuJoCo simulation can be rendered: `--frame` \
         needs `--backend mujoco`\n"
    );
    assert!(!workspace_root().join("frame.png").exists());
    let output = robot(&["run", "--backend", "mujoco", "--frame", "frame.svg"]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("`frame.svg` is not a `.png` file"),
        "{}",
        text(&output.stderr)
    );
    let output = robot(&["run", "--frame-at", "1"]);
    assert!(
        text(&output.stderr).contains("--frame <FILE>"),
        "--frame-at needs --frame: {}",
        text(&output.stderr)
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
fn a_plot_into_a_missing_folder_is_refused_before_anything_runs() {
    let (output, _) = robot_in(
        "run-plot-typo",
        &["run", "--seconds", "5", "--plot", "/nonexistent/dir/x.png"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "error: --plot /nonexistent/dir/x.png: the folder `/nonexistent/dir` does not exist (the \
         file is written at the end of the run; check it now, not after it)\n"
    );
    assert!(text(&output.stdout).is_empty(), "{}", text(&output.stdout));
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

#[test]
fn a_backend_is_named_in_any_case() {
    let output = robot(&["run", "--backend", "MOCK", "--seconds", "0.05"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains(" on mock at "),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn output_into_a_closed_pipe_ends_quietly_not_in_a_panic() {
    // `robot describe | head -1`: the reader is gone before the table is written.
    for args in [&["describe"][..], &["run", "--seconds", "0.2"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.status.success(), "{args:?}: {stderr}");
    }
}

#[test]
fn emit_with_a_config_bakes_its_interfaces_and_ports_into_the_launch_defaults() {
    let config = scratch(
        "emit-config.yaml",
        "robot: lite_biped\nbackend: real\nbuses:\n  left_leg: can5\n  right_leg: vcan1\n\
         imus:\n  base_imu:\n    port: /dev/ttyACM3\n    baud: 460800\n",
    );
    let out = tempfile::tempdir().unwrap();
    let output = robot(&[
        "emit",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let dir = out.path().join("lite_biped");
    let xacro = std::fs::read_to_string(dir.join("lite_biped.urdf.xacro")).unwrap();
    for declared in [
        r#"<xacro:arg name="can_interface_left_leg" default="can5"/>"#,
        r#"<xacro:arg name="can_interface_right_leg" default="vcan1"/>"#,
        r#"<xacro:arg name="imu_port" default="/dev/ttyACM3"/>"#,
    ] {
        assert!(xacro.contains(declared), "{declared} not in\n{xacro}");
    }
    let real = std::fs::read_to_string(dir.join("lite_biped.real.urdf")).unwrap();
    assert!(
        real.contains(r#"<param name="can_interface">vcan1</param>"#),
        "{real}"
    );
    assert!(
        !dir.join("..").join("six_axis_arm").exists(),
        "its robot only"
    );

    // A configuration of another robot than `--robot` names.
    let output = robot(&[
        "emit",
        "--robot",
        "six_axis_arm",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("robot: expected six_axis_arm, found \"lite_biped\""),
        "{stderr}"
    );
}

#[test]
fn emit_with_a_prefix_prefixes_the_xacro_default_and_the_controllers_and_refuses_a_bad_one() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let output = robot(&[
        "emit",
        "--robot",
        "lite_biped",
        "--prefix",
        "left_",
        "--out",
        dir,
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let folder = out.path().join("lite_biped");
    let xacro = std::fs::read_to_string(folder.join("lite_biped.urdf.xacro")).unwrap();
    assert!(
        xacro.contains(r#"<xacro:arg name="prefix" default="left_"/>"#),
        "{xacro}"
    );
    let real = std::fs::read_to_string(folder.join("lite_biped.real.urdf")).unwrap();
    assert!(real.contains(r#"<joint name="left_left_knee_pitch" type="revolute">"#));
    let controllers = std::fs::read_to_string(folder.join("lite_biped.controllers.yaml")).unwrap();
    assert!(
        controllers.contains("- left_left_knee_pitch"),
        "{controllers}"
    );
    assert!(
        controllers.contains("sensor_name: left_base_imu"),
        "{controllers}"
    );

    let output = robot(&[
        "emit",
        "--robot",
        "lite_biped",
        "--prefix",
        "2nd-",
        "--out",
        dir,
    ]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("prefix `2nd-`: expected ASCII letters"),
        "{stderr}"
    );
}
