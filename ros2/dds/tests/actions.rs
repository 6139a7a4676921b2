//! An action server as rcl_action serves one, against rclpy's ActionClient (ROS 2 Jazzy over
//! Fast DDS, control_msgs built from ros2/interfaces/) in a network namespace: a goal accepted,
//! fed back on and succeeded; a goal refused; a goal cancelled while it executes.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ros2_dds::{ActionServer, Participant};
use ros2_msg::action::goal_status;
use ros2_msg::control::{
    FollowJointTrajectory, FollowJointTrajectoryFeedback, FollowJointTrajectoryResult, error_code,
};
use ros2_peer::{Implementation, isolated_on};
use serde_json::json;

/// Executes each goal for 0.6 s, with feedback every 0.1 s, unless cancelled.
fn execute(server: &ActionServer<FollowJointTrajectory>, stop: &AtomicBool) {
    while !stop.load(Ordering::Acquire) {
        let Some((id, goal)) = server.take_goal() else {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        };
        server.executing(&id);
        let mut cancelled = false;
        for _ in 0..6 {
            if server.cancel_requested(&id) {
                cancelled = true;
                break;
            }
            server.feedback(
                &id,
                FollowJointTrajectoryFeedback {
                    joint_names: goal.trajectory.joint_names.clone(),
                    ..Default::default()
                },
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let (status, code) = match cancelled {
            true => (goal_status::CANCELED, error_code::SUCCESSFUL),
            false => (goal_status::SUCCEEDED, error_code::SUCCESSFUL),
        };
        server.finish(
            &id,
            status,
            FollowJointTrajectoryResult {
                error_code: code,
                error_string: String::new(),
            },
        );
    }
}

#[test]
fn rclpys_action_client_sends_goals_gets_feedback_results_and_cancels() {
    isolated_on(Implementation::Rclpy, |python| {
        let participant = Participant::join(0).unwrap();
        let node = participant.node("", "arm_controller").unwrap();
        // A goal naming no joint is refused, as joint_trajectory_controller refuses it.
        let server = Arc::new(
            node.action_server::<FollowJointTrajectory>(
                "/arm_controller/follow_joint_trajectory",
                |_, goal| !goal.trajectory.joint_names.is_empty(),
            )
            .unwrap(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let executor = {
            let (server, stop) = (server.clone(), stop.clone());
            std::thread::spawn(move || execute(&server, &stop))
        };
        let goals = json!([
            { "joints": ["elbow"], "positions": [0.5], "time": 0.5 },
            { "joints": [], "positions": [], "time": 0.5 },
            { "joints": ["elbow"], "positions": [0.1], "time": 0.5, "cancel_after": 0.25 },
        ]);
        let mut peer = python
            .start_with_input(
                "action",
                &["--action", "/arm_controller/follow_joint_trajectory"],
                Some(&goals.to_string()),
            )
            .unwrap();
        peer.wait_for("summary", Duration::from_secs(30)).unwrap();
        let seen = peer.seen().to_vec();
        stop.store(true, Ordering::Release);
        executor.join().unwrap();
        let goals: Vec<&serde_json::Value> = seen.iter().filter(|e| e["event"] == "goal").collect();
        assert_eq!(goals.len(), 3, "{seen:?}");
        assert_eq!(goals[0]["accepted"], true, "{seen:?}");
        assert_eq!(
            goals[0]["status"],
            i64::from(goal_status::SUCCEEDED),
            "{seen:?}"
        );
        assert_eq!(goals[0]["error_code"], 0);
        assert!(goals[0]["feedback"].as_u64().unwrap() >= 3, "{seen:?}");
        assert_eq!(goals[1]["accepted"], false, "{seen:?}");
        let cancel = seen
            .iter()
            .find(|e| e["event"] == "cancel")
            .expect("a cancel");
        assert_eq!(cancel["return_code"], 0, "{cancel}");
        assert_eq!(cancel["canceling"], 1, "{cancel}");
        assert_eq!(
            goals[2]["status"],
            i64::from(goal_status::CANCELED),
            "{seen:?}"
        );
    });
}
