//! `robot run --backend topic` against the Cyclone DDS peer simulating lite_biped, in a network
//! namespace of the test's own: with the defaults it runs the squat and ends switched off; when
//! the peer stops publishing, the run ends with the stale-state error, everything off, the
//! statistics printed, exit status 1. And `robot run` in the ROS 2 graph (`--ros`, or a
//! configuration's `ros:` section), seen by the peer as RViz would see it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::Command;

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
    topic_peer::isolated(|python| {
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
    topic_peer::isolated(|python| {
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
fn first(peer: &mut topic_peer::Peer, event: &str) -> serde_json::Value {
    if let Some(seen) = peer.seen().iter().find(|v| v["event"] == event) {
        return seen.clone();
    }
    peer.wait_for(event, std::time::Duration::from_secs(10))
        .unwrap()
}

#[test]
fn a_ros_section_puts_the_mock_run_into_the_graph_in_its_namespace() {
    topic_peer::isolated(|python| {
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
        let tf = first(&mut peer, "tf");
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
        assert!(
            tf["transforms"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["parent"] == "world" && t["child"] == "pelvis"),
            "the floating base: {tf}"
        );
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
    topic_peer::isolated(|python| {
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
