//! `robot run --backend topic` against a peer simulating lite_biped, in a network namespace of
//! the test's own: with the defaults it runs the squat and ends switched off; when the peer
//! stops publishing, the run ends with the stale-state error, everything off, the statistics
//! printed, exit status 1. And `robot run` in the ROS 2 graph (`--ros`, or a configuration's
//! `ros:` section), seen by the peer as RViz would see it. Each test runs against both peers of
//! `ros2-peer` (Cyclone DDS's `peer.py`, ROS 2's rclpy over Fast DDS), but for what only Cyclone
//! DDS can see (DDS participants).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::Command;

use ros2_peer::Implementation;

fn joints() -> String {
    robots::LiteBiped::DESCRIPTION
        .joints
        .iter()
        .filter(|j| j.is_controlled() && j.mimic.is_none())
        .map(|j| j.name.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn robot_run(args: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir.path())
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn robot_run_backend_topic_squats_on_the_peer_with_the_defaults() {
    ros2_peer::isolated(|python| {
        let _peer = python
            .start("sim", &["--joints", &joints(), "--imu", "/imu/data"])
            .unwrap();
        let (ok, text) = robot_run(&["--backend", "topic", "--seconds", "2"]);
        assert!(ok, "{text}");
        assert!(text.contains("final lifecycle: inactive"), "{text}");
        assert!(
            text.contains("LiteBipedHardware: states received"),
            "{text}"
        );
    });
}

#[test]
fn the_peer_stopping_ends_robot_run_with_the_stale_state_error_and_the_statistics() {
    ros2_peer::isolated(|python| {
        let _peer = python
            .start(
                "sim",
                &[
                    "--joints",
                    &joints(),
                    "--imu",
                    "/imu/data",
                    "--stop-after",
                    "1.5",
                ],
            )
            .unwrap();
        let (ok, text) = robot_run(&["--backend", "topic", "--seconds", "30"]);
        assert!(!ok, "{text}");
        assert!(
            text.contains("stale state: nothing valid on `/robot_joint_states`"),
            "{text}"
        );
        assert!(text.contains("final lifecycle: "), "{text}");
        assert!(!text.contains("STILL ACTIVE"), "{text}");
        // The statistics: the timing table is printed however the run ends.
        assert!(text.contains("overruns"), "{text}");
    });
}

#[test]
fn a_bad_topic_name_in_the_configuration_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(
        &file,
        "robot: lite_biped\nbackend: topic\ntopic:\n  joint_commands_topic: \"/robot joint commands\"\n",
    )
    .unwrap();
    let (ok, text) = robot_run(&["--config", file.to_str().unwrap(), "--seconds", "1"]);
    assert!(!ok, "{text}");
    assert!(text.contains("topic.joint_commands_topic: "), "{text}");
}

/// The first `event` the peer printed.
fn first(peer: &mut ros2_peer::Peer, event: &str) -> serde_json::Value {
    if let Some(seen) = peer.seen().iter().find(|v| v["event"] == event) {
        return seen.clone();
    }
    peer.wait_for(event, std::time::Duration::from_secs(10))
        .unwrap()
}

#[test]
fn a_ros_section_puts_the_mock_run_into_the_graph_in_its_namespace() {
    ros2_peer::isolated(|python| {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ros.yaml");
        std::fs::write(
            &file,
            "robot: lite_biped\nbackend: mock\nros:\n  namespace: /lite\n  rate_hz: 50\n  \
             diagnostics_hz: 4\n",
        )
        .unwrap();
        let mut peer = python
            .start("graph", &["--max", "1", "--namespace", "/lite"])
            .unwrap();
        let (ok, text) = robot_run(&["--config", file.to_str().unwrap(), "--seconds", "3"]);
        assert!(ok, "{text}");
        assert!(text.contains("ROS 2 graph: "), "{text}");
        let joint_states = first(&mut peer, "joint_states");
        let description = first(&mut peer, "robot_description");
        // rclpy here has no TFMessage type (no tf2_msgs wheel): /tf is Cyclone's to check.
        let tf =
            (python.implementation() == Implementation::Cyclone).then(|| first(&mut peer, "tf"));
        let diagnostics = first(&mut peer, "diagnostics");
        let summary = peer.finish(std::time::Duration::from_secs(10)).unwrap();
        let names: Vec<&str> = joint_states["name"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names.len(), 14, "{joint_states}");
        assert_eq!(names[0], "left_hip_pitch");
        assert!(
            description["data"]
                .as_str()
                .unwrap()
                .contains("<robot name=\"lite_biped\""),
        );
        if let Some(tf) = tf {
            assert!(
                tf["transforms"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| t["parent"] == "world" && t["child"] == "pelvis"),
                "the floating base: {tf}"
            );
        }
        let status = diagnostics["status"].as_array().unwrap();
        assert_eq!(
            status[0]["name"], "lite_biped: control loop",
            "{diagnostics}"
        );
        assert!(status.len() >= 2, "a status per component: {diagnostics}");
        // lite_biped's IMU has no driver on the mock: no /imu/data is fine, NaN if any.
        println!("peer: {summary}");
    });
}

#[test]
fn on_the_topic_backend_the_graph_does_not_echo_the_imu_it_reads() {
    ros2_peer::isolated(|python| {
        let _peer = python
            .start("sim", &["--joints", &joints(), "--imu", "/imu/data"])
            .unwrap();
        let (ok, text) = robot_run(&["--backend", "topic", "--ros", "--seconds", "2"]);
        assert!(ok, "{text}");
        assert!(
            text.contains(
                "reads the IMU from /imu/data: the ROS 2 graph does not publish it again"
            ),
            "{text}"
        );
        assert!(text.contains("imu messages received"), "{text}");
    });
}

#[test]
fn a_ros_rate_without_the_graph_is_refused() {
    let (ok, text) = robot_run(&["--ros-rate", "100", "--seconds", "1"]);
    assert!(!ok, "{text}");
    assert!(text.contains("give --ros too"), "{text}");
}

/// Left leg's joints, as joint_trajectory_controller takes them: by name.
const LEFT: [&str; 7] = [
    "left_hip_pitch",
    "left_hip_roll",
    "left_hip_yaw",
    "left_knee_pitch",
    "left_ankle_yaw",
    "left_ankle_pitch",
    "left_ankle_roll",
];

/// Where `joint` was near `at_ns` by the /joint_states the peer read: the sample nearest in
/// time, and how far from `at_ns` it was, s.
fn position_at(states: &[serde_json::Value], joint: &str, at_ns: i64) -> (f64, f64) {
    let stamp = |s: &serde_json::Value| s["stamp"].as_i64().unwrap();
    let nearest = states
        .iter()
        .min_by_key(|s| (stamp(s) - at_ns).abs())
        .unwrap();
    let column = nearest["name"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n == joint)
        .unwrap();
    let off = (stamp(nearest) - at_ns) as f64 * 1e-9;
    (nearest["position"][column].as_f64().unwrap(), off)
}

/// A goal for the peer's `trajectory` mode: `points` as (seconds, positions by joint name).
fn goal(
    topic: &str,
    after: f64,
    points: &[(f64, &[(&str, f64)])],
    velocities: bool,
) -> serde_json::Value {
    // Named in reverse order: the controller takes joints in any order.
    let names: Vec<String> = points[0]
        .1
        .iter()
        .rev()
        .map(|(n, _)| n.to_string())
        .collect();
    let points: Vec<serde_json::Value> = points
        .iter()
        .map(|(t, values)| {
            let positions: Vec<f64> = values.iter().rev().map(|(_, p)| *p).collect();
            let mut point = serde_json::json!({ "time_from_start": t, "positions": positions });
            if velocities {
                point["velocities"] = serde_json::json!(vec![0.0; positions.len()]);
            }
            point
        })
        .collect();
    serde_json::json!({ "topic": topic, "after": after, "joint_names": names, "points": points })
}

/// Runs lite_biped with the trajectory controller and `--ros` on `backend` (extra arguments of
/// `robot run`) while the peer sends goals, and checks each point is reached at its time within
/// `bound` rad, plus the fastest segment's speed (0.8 rad/s) times how far the nearest
/// /joint_states sample is from that time (a loaded machine skips deadlines). On a simulator
/// (`sim_time`) the run's stamps are on /clock, and the peer stamps its goals on it as a
/// `use_sim_time` node does.
fn follow_goals(backend: &'static [&'static str], bound: f64, sim_time: bool) {
    ros2_peer::isolated(move |python| {
        let left = "/left_leg_trajectory_controller/joint_trajectory";
        let right = "/right_leg_trajectory_controller/joint_trajectory";
        let with = |knee: f64| -> Vec<(&'static str, f64)> {
            LEFT.iter()
                .map(|&j| match j {
                    "left_knee_pitch" => (j, knee),
                    "left_hip_pitch" | "left_ankle_pitch" => (j, -knee / 2.0),
                    _ => (j, 0.0),
                })
                .collect()
        };
        let right_with = |knee: f64| -> Vec<(String, f64)> {
            with(knee)
                .into_iter()
                .map(|(j, p)| (j.replace("left", "right"), p))
                .collect()
        };
        let (a1, a2, beyond) = (with(0.8), with(0.4), with(3.0));
        let b: Vec<(String, f64)> = right_with(0.6);
        let b: Vec<(&str, f64)> = b.iter().map(|(j, p)| (j.as_str(), *p)).collect();
        let goals = serde_json::json!([
            // Linear (no velocities): the left leg down to 0.8 rad of knee at 1 s, back up at 2 s.
            goal(left, 2.0, &[(1.0, &a1), (2.0, &a2)], false),
            // Cubic (velocities): the right leg to 0.6 rad of knee at 1.5 s.
            goal(right, 2.0, &[(1.5, &b)], true),
            // Beyond the knee's limits: refused, the left leg keeps holding.
            goal(left, 4.5, &[(1.0, &beyond)], false),
        ]);
        let peer = python
            .start_with_input(
                "trajectory",
                if sim_time { &["--sim-time"] } else { &[] },
                Some(&goals.to_string()),
            )
            .unwrap();
        let mut args = vec!["--controller", "trajectory", "--ros", "--seconds", "6"];
        args.extend(backend);
        let (ok, text) = robot_run(&args);
        assert!(ok, "{text}");
        let (summary, seen) = peer
            .finish_seen(std::time::Duration::from_secs(10))
            .unwrap();
        assert!(
            text.contains("trajectories: 3 received, 2 accepted, 1 refused"),
            "{text}"
        );
        assert!(
            text.contains(
                "trajectory refused: point 0 puts `left_ankle_pitch` at -1.5, beyond its limits"
            ),
            "{text}"
        );
        let states: Vec<serde_json::Value> = seen
            .iter()
            .filter(|e| e["event"] == "joint_states")
            .cloned()
            .collect();
        let published: Vec<i64> = seen
            .iter()
            .filter(|e| e["event"] == "published")
            .map(|e| e["stamp"].as_i64().unwrap())
            .collect();
        assert_eq!(published.len(), 3, "{summary}");
        assert!(
            states.len() > 500,
            "/joint_states at the loop's 200 Hz: {summary}"
        );
        let s = |seconds: f64| (seconds * 1e9) as i64;
        let check = |joint: &str, at: i64, want: f64| {
            let (got, off) = position_at(&states, joint, at);
            let bound = bound + 0.8 * off.abs();
            println!(
                "{joint}: {got:+.4} rad, want {want:+.4} ({:+.4}), sample {off:+.4} s off",
                got - want
            );
            assert!(
                (got - want).abs() < bound,
                "{joint} at {at}: {got}, want {want} within {bound}"
            );
        };
        // Holding where it stood (zero) before the goals.
        check("left_knee_pitch", published[0] - s(0.5), 0.0);
        // The left leg's points at their times, and half-way along the linear first segment.
        check("left_knee_pitch", published[0] + s(0.5), 0.4);
        check("left_knee_pitch", published[0] + s(1.0), 0.8);
        check("left_hip_pitch", published[0] + s(1.0), -0.4);
        check("left_knee_pitch", published[0] + s(2.0), 0.4);
        check("left_ankle_pitch", published[0] + s(2.0), -0.2);
        // The right leg's cubic with zero end velocities: half-way at half time, then there.
        check("right_knee_pitch", published[1] + s(0.75), 0.3);
        let early: f64 = 0.2 / 1.5;
        let smooth = 3.0 * early.powi(2) - 2.0 * early.powi(3);
        check("right_knee_pitch", published[1] + s(0.2), 0.6 * smooth);
        check("right_knee_pitch", published[1] + s(1.5), 0.6);
        // After the refused goal: still holding the last accepted point.
        check("left_knee_pitch", published[2] + s(1.0), 0.4);
        let end = states.last().unwrap()["stamp"].as_i64().unwrap();
        check("right_knee_pitch", end, 0.6);
    });
}

#[test]
fn the_trajectory_controller_follows_goals_from_the_peer_on_the_mock() {
    // The mock is where it was commanded a cycle before: a 5 ms cycle of the fastest segment
    // (0.8 rad/s) is 0.004 rad.
    follow_goals(&["--backend", "mock"], 0.01, false);
}

#[test]
#[cfg(feature = "mujoco")]
fn the_trajectory_controller_follows_goals_from_the_peer_on_mujoco() {
    // Hanging on the test stand, the legs driven by the stand-in servo (ServoGains' default:
    // saturating at 0.1 rad of error) with the trajectory's velocity as the MIT velocity target:
    // 7 mrad at most measured.
    follow_goals(&["--backend", "mujoco", "--model", "stand"], 0.02, true);
}

/// A ROS 2 process is one DDS participant, whatever speaks ROS 2 in it: the topic backend, the
/// graph and the trajectory controller of one `robot run` are one participant on the wire.
#[test]
fn the_topic_backend_the_graph_and_the_trajectory_controller_are_one_participant() {
    // Cyclone DDS only: DDS participants are below what rclpy sees (nodes).
    ros2_peer::isolated_on(Implementation::Cyclone, |python| {
        let _sim = python
            .start("sim", &["--joints", &joints(), "--imu", "/imu/data"])
            .unwrap();
        let watcher = python.start("participants", &["--seconds", "6"]).unwrap();
        let (ok, text) = robot_run(&[
            "--backend",
            "topic",
            "--controller",
            "trajectory",
            "--ros",
            "--seconds",
            "3",
        ]);
        assert!(ok, "{text}");
        let summary = watcher.summary(std::time::Duration::from_secs(15)).unwrap();
        let participants = summary["participants"].as_array().unwrap();
        let topics = |p: &serde_json::Value, kind: &str| -> Vec<String> {
            p[kind]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect()
        };
        // The robot's: the one that publishes /joint_states (the simulator publishes
        // /robot_joint_states).
        let robot: Vec<&serde_json::Value> = participants
            .iter()
            .filter(|p| topics(p, "writers").contains(&"rt/joint_states".to_string()))
            .collect();
        assert_eq!(robot.len(), 1, "{summary}");
        let (writers, readers) = (topics(robot[0], "writers"), topics(robot[0], "readers"));
        // The topic backend's commands and states, the graph's, the trajectory controller's.
        for writer in [
            "rt/robot_joint_commands",
            "rt/joint_states",
            "rt/tf",
            "rt/diagnostics",
        ] {
            assert!(writers.contains(&writer.to_string()), "{writer}: {summary}");
        }
        for reader in [
            "rt/robot_joint_states",
            "rt/left_leg_trajectory_controller/joint_trajectory",
            "rt/right_leg_trajectory_controller/joint_trajectory",
        ] {
            assert!(readers.contains(&reader.to_string()), "{reader}: {summary}");
        }
        // Besides it, only the simulator.
        assert_eq!(participants.len(), 2, "{summary}");
    });
}

/// The bar as issue 29 words it: on the mock, Cyclone DDS sees exactly one participant while
/// `robot run --ros --controller trajectory` runs (the graph's and the controller's endpoints
/// on it).
#[test]
fn robot_run_ros_with_the_trajectory_controller_is_one_participant() {
    // Cyclone DDS only: DDS participants are below what rclpy sees (nodes).
    ros2_peer::isolated_on(Implementation::Cyclone, |python| {
        let watcher = python.start("participants", &["--seconds", "5"]).unwrap();
        let (ok, text) = robot_run(&["--controller", "trajectory", "--ros", "--seconds", "3"]);
        assert!(ok, "{text}");
        let summary = watcher.summary(std::time::Duration::from_secs(15)).unwrap();
        let participants = summary["participants"].as_array().unwrap();
        assert_eq!(participants.len(), 1, "{summary}");
        let writers = participants[0]["writers"].to_string();
        let readers = participants[0]["readers"].to_string();
        assert!(writers.contains("rt/joint_states"), "{summary}");
        assert!(
            readers.contains("rt/left_leg_trajectory_controller/joint_trajectory"),
            "{summary}"
        );
    });
}
