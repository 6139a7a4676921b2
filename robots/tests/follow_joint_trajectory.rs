//! The FollowJointTrajectory action as MoveIt executes through it: ROS 2 Jazzy's own rclpy
//! `ActionClient` (over Fast DDS, control_msgs built from ros2/interfaces/) against `robot run
//! --robot six_axis_arm --controller trajectory --ros`, in a network namespace of its own, on
//! the mock and on MuJoCo: a two-point goal reached within its goal tolerance with feedback; a
//! goal beyond a joint's limits rejected; a goal preempted by the next (ABORTED, as
//! joint_trajectory_controller reports it); a cancelled goal ends CANCELED and the arm holds;
//! on MuJoCo, a goal faster than the arm's servo can follow ends PATH_TOLERANCE_VIOLATED, and a
//! goal held under gravity stays on its command (the arm's group feeds gravity forward).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use ros2_peer::{Implementation, isolated_on};
use serde_json::{Value, json};

const ACTION: &str = "/arm_trajectory_controller/follow_joint_trajectory";
const ARM: [&str; 6] = [
    "shoulder_yaw",
    "shoulder_pitch",
    "elbow",
    "wrist_pitch",
    "wrist_yaw",
    "wrist_roll",
];
/// `action_msgs/GoalStatus`.
const SUCCEEDED: i64 = 4;
const CANCELED: i64 = 5;
const ABORTED: i64 = 6;

/// `robot run` of six_axis_arm's trajectory controller on `backend` with `--ros`: (success,
/// output).
fn robot_run(backend: &str, seconds: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    robot_run_in(dir.path(), backend, seconds, &[])
}

/// [`robot_run`] in folder `dir`, with `more` arguments.
fn robot_run_in(dir: &Path, backend: &str, seconds: &str, more: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir)
        .args([
            "run",
            "--robot",
            "six_axis_arm",
            "--controller",
            "trajectory",
        ])
        .args(["--backend", backend, "--ros", "--seconds", seconds])
        .args(more)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// The arm's six positions with `joint` at `at`, the others at `rest`.
fn arm(rest: f64, joint: &str, at: f64) -> Vec<f64> {
    ARM.iter()
        .map(|j| if *j == joint { at } else { rest })
        .collect()
}

/// Every joint's goal tolerance `tolerance`.
fn everywhere(tolerance: f64) -> Value {
    ARM.iter()
        .map(|j| (j.to_string(), json!(tolerance)))
        .collect()
}

/// Runs `goals` against the arm on `backend`; the peer's `goal` events by index, and all it
/// said (its summary last).
fn execute(backend: &str, seconds: &str, goals: &Value) -> (Vec<Value>, Vec<Value>, String) {
    let (tx, rx) = std::sync::mpsc::channel();
    let goals = goals.to_string();
    let (run_backend, seconds) = (backend.to_string(), seconds.to_string());
    isolated_on(Implementation::Rclpy, move |python| {
        let peer = python
            .start_with_input("action", &["--action", ACTION], Some(&goals))
            .unwrap();
        let (ok, text) = robot_run(&run_backend, &seconds);
        assert!(ok, "{text}");
        let (summary, mut seen) = peer.finish_seen(Duration::from_secs(40)).unwrap();
        seen.push(summary);
        let _ = tx.send((seen, text));
    });
    // Skipped (no peer Python off CI): nothing to check.
    let Ok((seen, text)) = rx.try_recv() else {
        return (Vec::new(), Vec::new(), String::new());
    };
    let mut goals: Vec<Value> = (seen.iter())
        .filter(|e| e["event"] == "goal")
        .cloned()
        .collect();
    goals.sort_by_key(|g| g["index"].as_u64());
    println!(
        "{backend}: {}",
        serde_json::to_string_pretty(&goals).unwrap_or_default()
    );
    (goals, seen, text)
}

/// The goals every backend is put through, and what each must end as.
fn the_arms_goals_end_as_moveit_expects(backend: &str) {
    let goals = json!([
        // Two points, reached within the goal tolerance.
        { "joints": ARM, "points": [
            { "positions": arm(0.0, "elbow", 0.4), "time": 0.6 },
            { "positions": arm(0.0, "elbow", 0.8), "time": 1.2 },
          ],
          "goal_tolerance": everywhere(0.02), "goal_time_tolerance": 1.0 },
        // The elbow beyond its 150° limit: rejected.
        { "joints": ARM, "positions": arm(0.0, "elbow", 3.0), "time": 1.0 },
        // A slow one, preempted half a second in by the next.
        { "joints": ARM, "positions": arm(0.0, "elbow", 0.0), "time": 3.0, "next_after": 0.5 },
        { "joints": ARM, "positions": arm(0.0, "shoulder_yaw", 0.3), "time": 0.8,
          "goal_time_tolerance": 1.0, "goal_tolerance": everywhere(0.02) },
        // Cancelled mid-way round the vertical axis: the arm holds where it is.
        { "joints": ARM, "positions": arm(0.0, "shoulder_yaw", -0.4), "time": 2.0,
          "cancel_after": 0.8, "hold_check": 1.0 },
    ]);
    let (goals, seen, text) = execute(backend, "14", &goals);
    if goals.is_empty() && seen.is_empty() {
        return;
    }
    assert_eq!(goals.len(), 5, "{seen:?}\n{text}");
    let reached = &goals[0];
    assert_eq!(reached["accepted"], true, "{reached}\n{text}");
    assert_eq!(reached["status"], SUCCEEDED, "{reached}\n{text}");
    assert_eq!(reached["error_code"], 0, "{reached}");
    assert_eq!(reached["error_string"], "Goal successfully reached!");
    // 1.2 s at action_monitor_rate's 20 Hz.
    assert!(reached["feedback"].as_u64().unwrap() >= 10, "{reached}");
    assert_eq!(reached["feedback_joints"], json!(ARM), "{reached}");

    assert_eq!(goals[1]["accepted"], false, "{}", goals[1]);
    assert!(
        text.contains("goal rejected: point 0 puts `elbow` at 3, beyond its limits"),
        "{text}"
    );

    let preempted = &goals[2];
    assert_eq!(preempted["status"], ABORTED, "{preempted}");
    assert_eq!(preempted["error_code"], -1, "{preempted}"); // INVALID_GOAL
    assert_eq!(
        preempted["error_string"],
        "Current goal preempted by new incoming action."
    );
    assert_eq!(goals[3]["status"], SUCCEEDED, "{}\n{text}", goals[3]);

    let cancelled = &goals[4];
    let cancel = (seen.iter())
        .find(|e| e["event"] == "cancel")
        .expect("a cancel");
    assert_eq!(cancel["return_code"], 0, "{cancel}");
    assert_eq!(cancelled["status"], CANCELED, "{cancelled}");
    // ~/controller_state at 100 Hz over the goals' ten-odd seconds.
    let summary = (seen.iter())
        .find(|e| e["event"] == "summary")
        .expect("a summary");
    assert!(
        summary["controller_state"].as_u64().unwrap() > 200,
        "{summary}"
    );
    assert_eq!(summary["controller_state_joints"], json!(ARM), "{summary}");
    let moved = cancelled["moved"].as_object().unwrap();
    assert_eq!(moved.len(), ARM.len(), "{cancelled}");
    for (joint, by) in moved {
        assert!(
            by.as_f64().unwrap() < 0.01,
            "{joint} moved {by} rad after the cancel: {cancelled}"
        );
    }
}

#[test]
fn moveits_goals_on_the_mock() {
    the_arms_goals_end_as_moveit_expects("mock");
}

#[test]
#[cfg(feature = "mujoco")]
fn moveits_goals_on_mujoco() {
    the_arms_goals_end_as_moveit_expects("mujoco");
}

#[test]
#[cfg(feature = "mujoco")]
fn a_path_the_simulated_arm_cannot_keep_ends_path_tolerance_violated() {
    // The elbow (RS02: 17 N·m) asked through 1.5 rad in 0.15 s, to stay within 0.05 rad.
    let goals = json!([
        { "joints": ARM, "positions": arm(0.0, "elbow", 1.5), "time": 0.15,
          "path_tolerance": { "elbow": 0.05 }, "hold_check": 0.5 },
    ]);
    let (goals, seen, text) = execute("mujoco", "6", &goals);
    if goals.is_empty() && seen.is_empty() {
        return;
    }
    let violated = &goals[0];
    assert_eq!(violated["status"], ABORTED, "{violated}\n{text}");
    assert_eq!(violated["error_code"], -4, "{violated}"); // PATH_TOLERANCE_VIOLATED
    let said = violated["error_string"].as_str().unwrap();
    assert!(
        said.starts_with("Aborted due to path tolerance violation: `elbow` was"),
        "{said}"
    );
}

#[test]
#[cfg(feature = "mujoco")]
fn a_path_tolerance_set_as_a_parameter_holds_for_the_next_goal() {
    // `ros2 param set /arm_trajectory_controller constraints.elbow.trajectory 0.05`, then the
    // goal above without a tolerance of its own. A negative tolerance is refused.
    let params = json!([
        { "op": "set", "node": "/arm_trajectory_controller",
          "name": "constraints.elbow.trajectory", "value": -0.5 },
        { "op": "set", "node": "/arm_trajectory_controller",
          "name": "constraints.elbow.trajectory", "value": 0.05 },
    ]);
    let goals = json!([
        { "joints": ARM, "positions": arm(0.0, "elbow", 1.5), "time": 0.15, "wait_before": 2.0 },
    ]);
    let (tx, rx) = std::sync::mpsc::channel();
    isolated_on(Implementation::Rclpy, move |python| {
        let setter = python
            .start_with_input("params", &[], Some(&params.to_string()))
            .unwrap();
        let mover = python
            .start_with_input("action", &["--action", ACTION], Some(&goals.to_string()))
            .unwrap();
        let (ok, text) = robot_run("mujoco", "7");
        assert!(ok, "{text}");
        let (_, set) = setter.finish_seen(Duration::from_secs(40)).unwrap();
        let (_, moved) = mover.finish_seen(Duration::from_secs(40)).unwrap();
        let _ = tx.send((set, moved, text));
    });
    let Ok((set, moved, text)) = rx.try_recv() else {
        return;
    };
    let sets: Vec<&Value> = set.iter().filter(|e| e["event"] == "set").collect();
    assert_eq!(sets.len(), 2, "{set:?}");
    assert_eq!(sets[0]["successful"], false, "{set:?}");
    assert_eq!(sets[1]["successful"], true, "{set:?}");
    let goal = (moved.iter())
        .find(|e| e["event"] == "goal")
        .expect("a goal");
    assert_eq!(goal["status"], ABORTED, "{goal}\n{text}");
    assert_eq!(goal["error_code"], -4, "{goal}");
}

#[test]
#[cfg(feature = "mujoco")]
fn the_arm_holds_its_goal_with_gravity_fed_forward_on_mujoco() {
    // six_axis_arm's arm group feeds gravity forward (`feedforward: gravity`): the shoulder
    // leaning 0.6 rad forward and the elbow folded to 1.2 rad, where the servo alone sags
    // 0.0245 rad at the elbow (backends/mujoco/tests/gravity_feedforward.rs), then held.
    let goals = json!([
        { "joints": ARM,
          "positions": [0.0, 0.6, 1.2, 0.0, 0.0, 0.0], "time": 2.0,
          "goal_tolerance": everywhere(0.002), "goal_time_tolerance": 1.0, "hold_check": 1.0 },
    ]);
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("arm.mcap");
    let (tx, rx) = std::sync::mpsc::channel();
    let folder = dir.path().to_path_buf();
    isolated_on(Implementation::Rclpy, move |python| {
        let peer = python
            .start_with_input("action", &["--action", ACTION], Some(&goals.to_string()))
            .unwrap();
        let (ok, text) = robot_run_in(&folder, "mujoco", "6", &["--record", "arm.mcap"]);
        assert!(ok, "{text}");
        let (summary, mut seen) = peer.finish_seen(Duration::from_secs(40)).unwrap();
        seen.push(summary);
        let _ = tx.send((seen, text));
    });
    let Ok((seen, text)) = rx.try_recv() else {
        return;
    };
    let goal = (seen.iter())
        .find(|e| e["event"] == "goal")
        .expect("a goal");
    assert_eq!(goal["status"], SUCCEEDED, "{goal}\n{text}");

    // From the recording: once held (from 1 s after the goal's end), the elbow within 2 mrad of
    // its command, and every cycle's elbow effort the gravity torque of the commanded arm.
    use robots::SixAxisArm;
    let arm = SixAxisArm::DESCRIPTION;
    let mut dynamics = robot_core::dynamics::Dynamics::new(arm).unwrap();
    let mut torques = vec![0.0; arm.joints.len()];
    let elbow = arm.joints.iter().position(|j| j.name == "elbow").unwrap();
    let (mut worst_held, mut worst_effort, mut fed, mut held, mut start, mut end) =
        (0.0_f64, 0.0_f64, 0, 0, None, None);
    ros2_record::read::cycles(&recording, |_, cycle| {
        let value = |joint: &str, interface: &str| -> Option<f64> {
            let j = cycle.commands.joint_names.iter().position(|n| n == joint)?;
            let i = &cycle.commands.interface_values[j];
            let k = i.interface_names.iter().position(|n| n == interface)?;
            Some(i.values[k])
        };
        let measured = |joint: &str| -> f64 {
            let j = cycle.states.name.iter().position(|n| n == joint).unwrap();
            cycle.states.position[j]
        };
        // The goal has started once the elbow is commanded away from 0.
        let commanded_elbow = value("elbow", "position").unwrap();
        if start.is_none() && commanded_elbow > 1e-6 {
            start = Some(cycle.stamp_ns);
        }
        let Some(started) = start else { return };
        let since = (cycle.stamp_ns - started) as f64 * 1e-9;
        if (commanded_elbow - 1.2).abs() < 1e-12 && end.is_none() {
            end = Some(since);
        }
        if end.is_some_and(|e| since > e + 1.0) {
            worst_held = worst_held.max((measured("elbow") - commanded_elbow).abs());
            held += 1;
        }
        let positions: Vec<f64> = (arm.joints.iter())
            .map(|j| value(&j.name, "position").unwrap_or_else(|| measured(&j.name)))
            .collect();
        dynamics.gravity(&positions, &mut torques).unwrap();
        worst_effort = worst_effort.max((value("elbow", "effort").unwrap() - torques[elbow]).abs());
        fed += 1;
    })
    .unwrap();
    println!(
        "elbow held within {worst_held:.2e} rad over {held} cycles; effort off gravity by \
         {worst_effort:.2e} over {fed}"
    );
    assert!(fed > 500 && held > 100, "{fed} cycles, {held} held");
    assert!(end.is_some(), "the elbow was never commanded to its goal");
    assert!(worst_held < 0.002, "held {worst_held} rad off its command");
    assert!(
        worst_effort < 1e-9,
        "the elbow's effort is {worst_effort} N·m off gravity's"
    );
}
