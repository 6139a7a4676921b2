//! The robot in the ROS 2 graph, seen by Eclipse Cyclone DDS (`peer.py graph`), in a network
//! namespace of the test's own: `/joint_states` as the run's state, `/tf` and `/tf_static` as
//! the kinematics give them, and `/robot_description` to a subscriber that joins late.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_mock::MockSystem;
use robot_core::control_loop::{
    ControlLoop, Controller, ControllerError, LoopOptions, Pacing, StopAfter,
};
use robot_core::hardware::{Clock, Component, System};
use robot_core::kinematics::{self, Transform};
use robot_core::typed::RobotTypes;
use ros2_dds::Participant;
use ros2_graph::{GraphOptions, RosGraph};
use serde_json::Value;

robot_macros::robot! {
    robot Arm { update_rate: 200 Hz }
    bus b {}
    link base {}
    link upper {}
    link slider {}
    link tool {}
    joint shoulder: revolute {
        parent: base, child: upper, origin { xyz: [0, 0, 0.1], rpy: [0, 0, 0.5] }, axis: [0, 1, 0],
        limits { lower: -2, upper: 2, velocity: 1, effort: 1 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position, velocity],
    }
    joint reach: prismatic {
        parent: upper, child: slider, origin { xyz: [0.2, 0, 0] }, axis: [1, 0, 0],
        limits { lower: 0, upper: 0.5, velocity: 0.3, effort: 1 },
        actuator { bus: b, can_id: 2, model: RS02, lead: 50 mm },
        command: [position], state: [position, velocity, effort],
    }
    joint tool_mount: fixed {
        parent: slider, child: tool, origin { xyz: [0.05, 0, 0.02], rpy: [0.1, 0, 0] },
    }
}

const SHOULDER: f64 = 0.7;
const REACH: f64 = 0.25;

/// Holds the arm at (SHOULDER, REACH).
struct Hold;

impl Controller<Arm> for Hold {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &<Arm as RobotTypes>::State,
        command: &mut <Arm as RobotTypes>::Command,
    ) -> Result<(), ControllerError> {
        command.shoulder.position = SHOULDER;
        command.reach.position = REACH;
        Ok(())
    }
}

/// The first `event` the peer printed, whether or not it came while waiting for another.
fn first(peer: &mut ros2_peer::Peer, event: &str) -> Value {
    if let Some(seen) = peer.seen().iter().find(|v| v["event"] == event) {
        return seen.clone();
    }
    peer.wait_for(event, Duration::from_secs(10)).unwrap()
}

fn transform_of(parent: &str, child: &str, message: &Value) -> Option<Value> {
    message["transforms"]
        .as_array()?
        .iter()
        .find(|t| t["parent"] == parent && t["child"] == child)
        .cloned()
}

fn assert_transform(seen: &Value, expected: &Transform) {
    let ros = ros2_state::ros_transform(expected);
    let got = |key: &str, i: usize| seen[key][i].as_f64().unwrap();
    let want_t = [ros.translation.x, ros.translation.y, ros.translation.z];
    let want_r = [
        ros.rotation.x,
        ros.rotation.y,
        ros.rotation.z,
        ros.rotation.w,
    ];
    for (i, want) in want_t.iter().enumerate() {
        assert!((got("translation", i) - want).abs() < 1e-9, "{seen}");
    }
    for (i, want) in want_r.iter().enumerate() {
        assert!((got("rotation", i) - want).abs() < 1e-9, "{seen}");
    }
}

#[test]
fn a_subscriber_sees_joint_states_tf_and_a_late_robot_description() {
    ros2_peer::isolated(|python| {
        let urdf = "<robot name=\"arm\"><!-- the mock backend's --></robot>".to_string();
        let participant = Participant::join(0).unwrap();
        let (graph, observer) = RosGraph::start::<Arm>(
            GraphOptions {
                rate_cap_hz: 100.0,
                ..GraphOptions::new(urdf.clone())
            },
            &participant,
        )
        .unwrap();
        let components: Vec<Box<dyn Component<Arm>>> = vec![Box::new(MockSystem::<Arm>::new())];
        let control_loop =
            ControlLoop::new(System::new(components).unwrap(), Hold, None).with_observer(observer);
        let options = LoopOptions {
            stop_after: StopAfter {
                duration: Some(Duration::from_secs(8)),
                cycles: None,
            },
            pacing: Pacing::RealTime,
            ..LoopOptions::default()
        };
        let handle = control_loop.spawn(options).unwrap();
        // Joins late: /robot_description and /tf_static were published a second ago.
        std::thread::sleep(Duration::from_secs(1));
        let mut peer = python.start("graph", &["--max", "3"]).unwrap();
        let description = first(&mut peer, "robot_description");
        assert_eq!(description["data"], urdf.as_str());
        // rclpy here has no TFMessage type (no tf2_msgs wheel): /tf is Cyclone's to check.
        let cyclone = python.implementation() == ros2_peer::Implementation::Cyclone;
        let tf = cyclone.then(|| (first(&mut peer, "tf_static"), first(&mut peer, "tf")));
        let joint_states = first(&mut peer, "joint_states");
        let (control_loop, result) = handle.stop();
        result.unwrap();
        let report = graph.stop();
        let summary = peer.finish(Duration::from_secs(10)).unwrap();
        println!("{report}; peer: {summary}");

        // /joint_states: every movable joint in definition order, values as the run's state.
        let state = *control_loop.unwrap().state();
        assert_eq!(
            joint_states["name"],
            serde_json::json!(["shoulder", "reach"])
        );
        assert_eq!(
            joint_states["position"][0].as_f64(),
            Some(state.shoulder.position)
        );
        assert_eq!(
            joint_states["position"][1].as_f64(),
            Some(state.reach.position)
        );
        assert_eq!(
            state.shoulder.position, SHOULDER,
            "the mock follows its command"
        );
        assert_eq!(
            joint_states["velocity"][1].as_f64(),
            Some(state.reach.velocity)
        );
        assert_eq!(
            joint_states["effort"][0], "nan",
            "shoulder has no effort state"
        );
        assert_eq!(joint_states["effort"][1].as_f64(), Some(state.reach.effort));
        assert!(joint_states["stamp"].as_i64().unwrap() > 1_700_000_000_000_000_000);

        // /tf: the movable joints at the positions read; /tf_static: the fixed one.
        let robot = Arm::DESCRIPTION;
        let motion = |name: &str, q: f64| {
            let joint = robot.joint(name).unwrap();
            Transform::from_pose(&joint.origin).then(&kinematics::joint_motion(joint, q))
        };
        if let Some((tf_static, tf)) = tf {
            assert_eq!(tf["transforms"].as_array().unwrap().len(), 2);
            assert_transform(
                &transform_of("base", "upper", &tf).unwrap(),
                &motion("shoulder", SHOULDER),
            );
            assert_transform(
                &transform_of("upper", "slider", &tf).unwrap(),
                &motion("reach", REACH),
            );
            assert_eq!(tf_static["transforms"].as_array().unwrap().len(), 1);
            assert_transform(
                &transform_of("slider", "tool", &tf_static).unwrap(),
                &motion("tool_mount", 0.0),
            );
        }
        assert!(report.published > 0 && report.dropped == 0, "{report}");
    });
}

#[test]
fn a_bad_namespace_or_rate_is_named() {
    // A participant on the host's network is none of this test's business.
    ros2_peer::in_namespace(|| {
        let participant = Participant::join(0).unwrap();
        let start = |options| {
            RosGraph::start::<Arm>(options, &participant)
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        let error = start(GraphOptions {
            namespace: "/robot 1".into(),
            ..GraphOptions::new(String::new())
        });
        assert!(error.contains("namespace `/robot 1`"), "{error}");
        let error = start(GraphOptions {
            rate_cap_hz: f64::NAN,
            ..GraphOptions::new(String::new())
        });
        assert!(error.contains("rate cap"), "{error}");
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
