//! The `robot` binary as a user runs it: `run` on the mock (with and without a config),
//! `describe` and `emit`, its flags and their ranges, checking exit codes and output (`check`:
//! check.rs; the real backend: real_backend.rs).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod tool;

use std::path::Path;
use std::process::Command;

use robots::checked_in::workspace_root;
use tool::{final_position, robot, robot_in, scratch, text};

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
