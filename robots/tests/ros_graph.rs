//! `robot run --ros` as ROS 2's own tools see it, asked through rclpy (ROS 2 Jazzy over Fast
//! DDS) in a network namespace of its own: the nodes a ros2_control bringup makes and the node
//! each endpoint belongs to (`ros2 node list`, `ros2 topic info -v`), their parameters
//! (`ros2 param get/list/describe/set`), simulated time (/clock, use_sim_time), discovery with
//! no multicast route, and the discovery variables.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::Command;
use std::time::Duration;

use ros2_peer::link::{FAR, NEAR, across_a_link_without_multicast};
use ros2_peer::{Implementation, Network, isolated_in, isolated_on};
use serde_json::{Value, json};

/// `robot run` with `args` and the environment `env`, in a fresh folder: (success, output).
fn robot_run(args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir.path())
        .arg("run")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// The peer's event `event` about `node`, or a panic showing all it said.
fn answer<'a>(seen: &'a [Value], event: &str, node: &str, nth: usize) -> &'a Value {
    seen.iter()
        .filter(|e| e["event"] == event && e["node"] == node)
        .nth(nth)
        .unwrap_or_else(|| {
            let said: Vec<String> = seen
                .iter()
                .map(|e| format!("{} {}", e["event"], e["node"]))
                .collect();
            panic!("no {event} #{nth} of {node} in what the peer said: {said:?}")
        })
}

#[test]
fn the_nodes_are_a_ros2_control_bringups_and_each_endpoint_names_its_node() {
    isolated_on(Implementation::Rclpy, |python| {
        let topics = "/joint_states,/robot_description,/diagnostics,\
                      /left_leg_trajectory_controller/joint_trajectory";
        let peer = python
            .start("nodes", &["--seconds", "6", "--topics", topics])
            .unwrap();
        // The robot runs past the peer's 6 s: a peer that looked while the run was ending could
        // see an endpoint still known after its node was no longer announced
        // (`_NODE_NAME_UNKNOWN_`, one run in four when the two ended together).
        let (ok, text) = robot_run(
            &["--controller", "trajectory", "--ros", "--seconds", "8"],
            &[],
        );
        assert!(ok, "{text}");
        let summary = peer.summary(Duration::from_secs(20)).unwrap();
        let nodes: Vec<(String, String)> = summary["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["namespace"].to_string(), n["name"].to_string()))
            .collect();
        for node in [
            "controller_manager",
            "robot_state_publisher",
            "joint_state_broadcaster",
            "imu_sensor_broadcaster",
            "left_leg_trajectory_controller",
            "right_leg_trajectory_controller",
        ] {
            assert!(
                nodes.contains(&("\"/\"".into(), format!("\"{node}\""))),
                "{node}: {summary}"
            );
        }
        let owner = |topic: &str, kind: &str| -> Vec<String> {
            summary["topics"][topic][kind]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["node_name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            owner("/joint_states", "publishers"),
            ["joint_state_broadcaster"]
        );
        assert_eq!(
            owner("/robot_description", "publishers"),
            ["robot_state_publisher"]
        );
        assert_eq!(owner("/diagnostics", "publishers"), ["controller_manager"]);
        assert_eq!(
            owner(
                "/left_leg_trajectory_controller/joint_trajectory",
                "subscriptions"
            ),
            ["left_leg_trajectory_controller"]
        );
    });
}

#[test]
fn ros2_param_gets_lists_describes_and_sets_the_controllers_parameters() {
    isolated_on(Implementation::Rclpy, |python| {
        let cm = "/controller_manager";
        let left = "/left_leg_trajectory_controller";
        let requests = json!([
            { "op": "get", "node": cm, "names": ["update_rate", "use_sim_time", "nothing"] },
            { "op": "list", "node": left, "prefixes": [], "depth": 0 },
            { "op": "describe", "node": left,
              "names": ["allow_partial_joints_goal", "joints"] },
            { "op": "set", "node": left, "name": "allow_partial_joints_goal", "value": true },
            { "op": "get", "node": left, "names": ["allow_partial_joints_goal"] },
            { "op": "set", "node": cm, "name": "update_rate", "value": 100 },
            { "op": "set", "node": left, "name": "allow_partial_joints_goal", "value": "yes" },
            { "op": "set_atomically", "node": left,
              "values": { "allow_partial_joints_goal": false, "joints": ["left_hip_pitch"] } },
            { "op": "get", "node": left, "names": ["allow_partial_joints_goal"] },
            { "op": "get", "node": "/robot_state_publisher", "names": ["robot_description"] },
            { "op": "wait", "seconds": 0.5 },
        ]);
        let peer = python
            .start_with_input("params", &[], Some(&requests.to_string()))
            .unwrap();
        let (ok, text) = robot_run(
            &["--controller", "trajectory", "--ros", "--seconds", "8"],
            &[],
        );
        assert!(ok, "{text}");
        let (summary, seen) = peer.finish_seen(Duration::from_secs(30)).unwrap();
        // controllers.yaml's update_rate, on the wall clock; a parameter no one declared: null.
        assert_eq!(
            answer(&seen, "get", cm, 0)["values"],
            json!([200, false, null])
        );
        let names = answer(&seen, "list", left, 0)["names"].clone();
        for name in ["joints", "allow_partial_joints_goal", "use_sim_time"] {
            assert!(
                names.as_array().unwrap().contains(&json!(name)),
                "{name}: {names}"
            );
        }
        let descriptors = &answer(&seen, "describe", left, 0)["descriptors"];
        assert_eq!(descriptors[0]["read_only"], false, "{descriptors}");
        assert_eq!(descriptors[0]["type"], 1, "bool: {descriptors}");
        assert_eq!(descriptors[1]["read_only"], true, "{descriptors}");
        assert_eq!(descriptors[1]["type"], 9, "string array: {descriptors}");
        // The live one is set, read back, and announced on /parameter_events.
        assert_eq!(answer(&seen, "set", left, 0)["successful"], true);
        assert_eq!(answer(&seen, "get", left, 0)["values"], json!([true]));
        let events = summary["parameter_events"].as_array().unwrap();
        assert!(
            events
                .iter()
                .any(|e| e["node"] == left && e["changed"] == json!(["allow_partial_joints_goal"])),
            "{summary}"
        );
        // A read-only one, a wrong type, and an atomic set with a read-only one in it: refused,
        // each saying why, and nothing changed.
        let refused = answer(&seen, "set", cm, 0);
        assert_eq!(refused["successful"], false);
        assert!(
            refused["reason"].as_str().unwrap().contains("read-only"),
            "{refused}"
        );
        let wrong = answer(&seen, "set", left, 1);
        assert_eq!(wrong["successful"], false, "{wrong}");
        assert!(
            wrong["reason"].as_str().unwrap().contains("of type bool"),
            "{wrong}"
        );
        let atomic = answer(&seen, "set_atomically", left, 0);
        assert_eq!(atomic["successful"], false, "{atomic}");
        assert!(
            atomic["reason"]
                .as_str()
                .unwrap()
                .contains("parameter 'joints' cannot be set because it is read-only"),
            "{atomic}"
        );
        assert_eq!(answer(&seen, "get", left, 1)["values"], json!([true]));
        let description = &answer(&seen, "get", "/robot_state_publisher", 0)["values"][0];
        assert!(
            description
                .as_str()
                .unwrap()
                .contains("<robot name=\"lite_biped\""),
            "{description}"
        );
        // On the wall clock there is no /clock.
        assert_eq!(summary["clock_count"], 0, "{summary}");
    });
}

#[test]
#[cfg(feature = "mujoco")]
fn on_mujoco_the_graph_runs_on_clock_and_its_nodes_use_sim_time() {
    isolated_on(Implementation::Rclpy, |python| {
        let requests = json!([
            { "op": "get", "node": "/controller_manager", "names": ["use_sim_time"] },
            { "op": "get", "node": "/joint_state_broadcaster", "names": ["use_sim_time"] },
            { "op": "wait", "seconds": 1.0 },
        ]);
        let peer = python
            .start_with_input("params", &[], Some(&requests.to_string()))
            .unwrap();
        let (ok, text) = robot_run(
            &[
                "--backend",
                "mujoco",
                "--model",
                "stand",
                "--ros",
                "--seconds",
                "5",
            ],
            &[],
        );
        assert!(ok, "{text}");
        let (summary, seen) = peer.finish_seen(Duration::from_secs(30)).unwrap();
        assert_eq!(
            answer(&seen, "get", "/controller_manager", 0)["values"],
            json!([true])
        );
        assert_eq!(
            answer(&seen, "get", "/joint_state_broadcaster", 0)["values"],
            json!([true])
        );
        // /clock from the simulation's start (zero), not the epoch, and moving on.
        let (first, last) = (
            summary["clock_first"].as_i64().unwrap(),
            summary["clock_last"].as_i64().unwrap(),
        );
        assert!(summary["clock_count"].as_i64().unwrap() > 10, "{summary}");
        assert!(0 <= first && first < last, "{summary}");
        assert!(last <= 5_000_000_000, "{summary}");
    });
}

#[test]
fn with_fast_the_mock_runs_on_clock_too() {
    isolated_on(Implementation::Rclpy, |python| {
        let requests = json!([{ "op": "wait", "seconds": 8.0 }]);
        let peer = python
            .start_with_input("params", &[], Some(&requests.to_string()))
            .unwrap();
        // 2400 simulated seconds: 2.5 wall seconds here, enough to be discovered in.
        let (ok, text) = robot_run(&["--ros", "--fast", "--seconds", "2400"], &[]);
        assert!(ok, "{text}");
        let summary = peer.summary(Duration::from_secs(30)).unwrap();
        let (first, last) = (
            summary["clock_first"].as_i64().unwrap(),
            summary["clock_last"].as_i64().unwrap(),
        );
        assert!(summary["clock_count"].as_i64().unwrap() > 10, "{summary}");
        assert!(
            0 <= first && first < last && last <= 2_400_000_000_000,
            "{summary}"
        );
    });
}

#[test]
fn with_the_loopback_alone_and_no_multicast_route_rclpy_still_hears_the_robot() {
    // A laptop offline, a container with only `lo`: discovery by unicast to 127.0.0.1's
    // well-known ports, as Fast DDS's default initial peers are.
    isolated_in(Implementation::Rclpy, Network::Loopback, |python| {
        let peer = python.start("graph", &["--max", "1"]).unwrap();
        let (ok, text) = robot_run(&["--ros", "--seconds", "3"], &[]);
        assert!(ok, "{text}");
        let summary = peer.finish(Duration::from_secs(20)).unwrap();
        assert!(summary["joint_states"].as_i64().unwrap() > 100, "{summary}");
        assert_eq!(summary["robot_description"], 1, "{summary}");
    });
}

#[test]
fn the_discovery_variables_are_read_as_jazzy_reads_them() {
    isolated_on(Implementation::Rclpy, |python| {
        // OFF: the run goes on, and no one hears it.
        let peer = python.start("graph", &["--max", "1"]).unwrap();
        let (ok, text) = robot_run(
            &["--ros", "--seconds", "2"],
            &[("ROS_AUTOMATIC_DISCOVERY_RANGE", "OFF")],
        );
        assert!(ok, "{text}");
        let summary = peer.finish(Duration::from_secs(20)).unwrap();
        assert_eq!(summary["joint_states"], 0, "{summary}");
        // A range Jazzy does not know: refused, naming the variable and what it may be.
        let (ok, text) = robot_run(
            &["--ros", "--seconds", "2"],
            &[("ROS_AUTOMATIC_DISCOVERY_RANGE", "LAN")],
        );
        assert!(!ok, "{text}");
        assert!(
            text.contains(
                "ROS_AUTOMATIC_DISCOVERY_RANGE is `LAN`, not one of SUBNET, LOCALHOST, OFF or \
                 SYSTEM_DEFAULT"
            ),
            "{text}"
        );
        // A static peer that does not resolve, and static peers alone (OFF): refused, saying
        // why, before anything runs.
        let (ok, text) = robot_run(
            &["--ros", "--seconds", "1"],
            &[("ROS_STATIC_PEERS", "192.0.2.7;no-such-host.invalid")],
        );
        assert!(!ok, "{text}");
        assert!(
            text.contains("ROS_STATIC_PEERS names `no-such-host.invalid`, which does not resolve"),
            "{text}"
        );
        let (ok, text) = robot_run(
            &["--ros", "--seconds", "1"],
            &[
                ("ROS_STATIC_PEERS", "192.0.2.7"),
                ("ROS_AUTOMATIC_DISCOVERY_RANGE", "OFF"),
            ],
        );
        assert!(!ok, "{text}");
        assert!(text.contains("asks for the static peers alone"), "{text}");
    });
}

#[test]
fn across_a_link_without_multicast_ros_static_peers_finds_the_far_host() {
    for implementation in Implementation::ALL {
        across_a_link_without_multicast(implementation, |python| {
            // Without static peers no one hears the robot: the link carries no multicast.
            let peer = python.start("graph", &["--max", "1"]).unwrap();
            let (ok, text) = robot_run(&["--ros", "--seconds", "2"], &[]);
            assert!(ok, "{text}");
            let summary = peer.finish(Duration::from_secs(20)).unwrap();
            assert_eq!(summary["joint_states"], 0, "{summary}");
            // With the far host as a static peer, it does; the far side names no one.
            let peer = python.start("graph", &["--max", "1"]).unwrap();
            let (ok, text) = robot_run(&["--ros", "--seconds", "3"], &[("ROS_STATIC_PEERS", FAR)]);
            assert!(ok, "{text}");
            let summary = peer.finish(Duration::from_secs(20)).unwrap();
            assert!(
                summary["joint_states"].as_i64().unwrap() > 100,
                "{NEAR} to {FAR}: {summary}"
            );
            assert_eq!(summary["robot_description"], 1, "{summary}");
        });
    }
}
