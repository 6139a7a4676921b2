//! The two peers as the DDS tests use them: `isolated` runs a body once against each, each run
//! in a namespace of its own, and a failure against one still runs the other and fails the
//! test; the peers talk to each other; rclpy's `nodes` mode reports nodes and endpoints as
//! `ros2 node list` and `ros2 topic info -v` would.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ros2_peer::{Implementation, PeerPython, isolated, isolated_on, skip};

/// Whether this thread's network namespace has the route a run before it added, then adds it:
/// a fresh namespace has not. (Kernel namespace ids are no proof: a freed one's is reused.)
fn marked_before() -> bool {
    let ip = |args: &[&str]| {
        let output = std::process::Command::new("ip")
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "ip {args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let marked = !ip(&["route", "show", "198.51.100.0/24"]).trim().is_empty();
    ip(&["route", "add", "198.51.100.0/24", "dev", "lo"]);
    marked
}

/// Whether both peers are installed; if not, says so (failing under CI).
fn both_installed() -> bool {
    for implementation in Implementation::ALL {
        if let Err(why) = PeerPython::find(implementation) {
            skip(&why);
            return false;
        }
    }
    true
}

#[test]
fn isolated_runs_the_body_against_each_peer_in_a_namespace_of_its_own() {
    if !both_installed() {
        return;
    }
    let runs = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&runs);
    isolated(move |python| {
        seen.lock()
            .unwrap()
            .push((python.implementation(), marked_before()));
    });
    assert_eq!(
        *runs.lock().unwrap(),
        [
            (Implementation::Cyclone, false),
            (Implementation::Rclpy, false)
        ],
        "each run in a fresh namespace"
    );
}

#[test]
fn a_failure_against_one_peer_still_runs_the_other_and_fails_the_test() {
    if !both_installed() {
        return;
    }
    let runs = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&runs);
    let outcome = std::panic::catch_unwind(move || {
        isolated(move |python| {
            seen.lock().unwrap().push(python.implementation());
            assert_ne!(
                python.implementation(),
                Implementation::Cyclone,
                "on purpose"
            );
        });
    });
    assert!(
        outcome.is_err(),
        "a failure against Cyclone DDS fails the test"
    );
    assert_eq!(*runs.lock().unwrap(), Implementation::ALL);
}

#[test]
fn the_peers_talk_to_each_other_both_ways() {
    isolated_on(Implementation::Rclpy, |rclpy| {
        // rclpy answers each command (Cyclone to rclpy) with a state (rclpy to Cyclone).
        let _echo = rclpy.start("echo", &[]).unwrap();
        let cyclone = PeerPython::find(Implementation::Cyclone).unwrap();
        let ping = cyclone
            .start("ping", &["--rate", "100", "--seconds", "1"])
            .unwrap();
        let summary = ping.summary(Duration::from_secs(20)).unwrap();
        assert_eq!(summary["sent"], 100, "{summary}");
        assert_eq!(summary["answered"], 100, "{summary}");
    });
}

#[test]
fn rclpy_lists_the_nodes_and_a_topic_s_endpoints_as_ros2_topic_info_would() {
    isolated_on(Implementation::Rclpy, |rclpy| {
        let _sim = rclpy
            .start("sim", &["--joints", "j", "--rate", "100"])
            .unwrap();
        let _bare = PeerPython::find(Implementation::Cyclone)
            .unwrap()
            .start("sim", &["--joints", "j", "--rate", "100"])
            .unwrap();
        let nodes = rclpy
            .start(
                "nodes",
                // Long enough for two Fast DDS participants to discover each other on a loaded
                // machine (2 s once was not, with the whole suite running beside it).
                &[
                    "--seconds",
                    "5",
                    "--topics",
                    "/robot_joint_states,/robot_joint_commands",
                ],
            )
            .unwrap();
        let summary = nodes.summary(Duration::from_secs(20)).unwrap();
        // The rclpy simulator's node, not the `nodes` peer's own; Cyclone's peer is no node.
        let names: Vec<&str> = summary["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), 1, "{summary}");
        assert!(names[0].starts_with("rclpy_peer_sim_"), "{summary}");
        let states = &summary["topics"]["/robot_joint_states"];
        let publishers = states["publishers"].as_array().unwrap();
        assert_eq!(publishers.len(), 2, "{summary}");
        let of = |node: &str| {
            publishers
                .iter()
                .find(|p| p["node_name"].as_str().unwrap().starts_with(node))
                .unwrap_or_else(|| panic!("no publisher of {node}: {summary}"))
        };
        let ros = of("rclpy_peer_sim_");
        assert_eq!(ros["node_namespace"], "/");
        assert_eq!(ros["topic_type"], "sensor_msgs/msg/JointState");
        assert!(
            ros["topic_type_hash"]
                .as_str()
                .unwrap()
                .starts_with("RIHS01_"),
            "{ros}"
        );
        assert_eq!(ros["reliability"], "BestEffort");
        assert_eq!(ros["durability"], "Volatile");
        // Cyclone's peer announces no node and no type hash.
        let bare = of("_CREATED_BY_BARE_DDS_APP_");
        assert_eq!(bare["topic_type"], "sensor_msgs/msg/JointState");
        assert_eq!(bare["topic_type_hash"], "INVALID");
        let commands = &summary["topics"]["/robot_joint_commands"];
        let readers = commands["subscriptions"].as_array().unwrap();
        assert_eq!(readers.len(), 2, "{summary}");
        assert!(
            readers.iter().all(|r| r["reliability"] == "Reliable"),
            "{summary}"
        );
    });
}
