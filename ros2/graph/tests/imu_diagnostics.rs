//! What a legged robot adds to the graph, seen by Eclipse Cyclone DDS (`peer.py graph`) in a
//! network namespace of the test's own, all under a ROS namespace: `/imu/data` as
//! imu_sensor_broadcaster publishes it, a force/torque sensor's `/<sensor>_broadcaster/wrench` as
//! force_torque_sensor_broadcaster publishes it, `/diagnostics` with the loop's and each component's
//! standing, and the floating base on `/tf` (at its home pose: the mock does not know where it
//! is).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_mock::MockSystem;
use robot_core::control_loop::StopAfter;
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, LoopOptions, Pacing};
use robot_core::hardware::{Clock, Component, System};
use robot_core::kinematics;
use robot_core::model::MockParams;
use robot_core::typed::RobotTypes;
use robot_core::{ForceTorqueState, ImuState, Quaternion, Vector3};
use ros2_dds::Participant;
use ros2_graph::{GraphOptions, RosGraph, Topics};
use serde_json::Value;

robot_macros::robot! {
    robot Hopper { update_rate: 200 Hz, floating_base: true }
    bus b {}
    link body {
        collision box { size: [0.2, 0.2, 0.1] }
    }
    link leg {
        collision cylinder { radius: 0.02, length: 0.3, origin { xyz: [0, 0, -0.15] } }
    }
    link imu_link {}
    joint hip: revolute {
        parent: body, child: leg, origin { xyz: [0, 0, -0.05] }, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 1, effort: 1 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position, velocity],
    }
    joint imu_mount: fixed { parent: body, child: imu_link, origin { xyz: [0, 0, 0.02] } }
    imu body_imu { link: imu_link, plugin: "some_vendor/Imu" }
    force_torque hip_ft { link: leg, plugin: "some_vendor/Ft" }
}

/// Holds the hip at zero.
struct Hold;

impl Controller<Hopper> for Hold {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &<Hopper as RobotTypes>::State,
        command: &mut <Hopper as RobotTypes>::Command,
    ) -> Result<(), ControllerError> {
        command.hip.position = 0.0;
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

const TILTED: ImuState = ImuState {
    orientation: Quaternion {
        x: 0.0,
        y: 0.6,
        z: 0.0,
        w: 0.8,
    },
    angular_velocity: Vector3 {
        x: 0.1,
        y: -0.2,
        z: 0.3,
    },
    linear_acceleration: Vector3 {
        x: 0.5,
        y: 0.0,
        z: 9.81,
    },
};

#[test]
fn imu_diagnostics_and_the_floating_base_are_in_the_namespace() {
    ros2_peer::isolated(|python| {
        let participant = Participant::join(0).unwrap();
        let (graph, observer) = RosGraph::start::<Hopper>(
            GraphOptions {
                namespace: "/robot1".into(),
                rate_cap_hz: 50.0,
                diagnostics_hz: 5.0,
                topics: Topics::default(),
                ..GraphOptions::new("<robot name=\"hopper\"/>".into())
            },
            &participant,
        )
        .unwrap();
        let mock = MockSystem::<Hopper>::with_params(MockParams {
            mock_sensor_commands: true,
            ..MockParams::DEFAULT
        });
        let input = mock.sensor_input().unwrap();
        input.set_imu(0, TILTED).unwrap();
        let wrench = ForceTorqueState {
            force: Vector3 {
                x: 1.5,
                y: 0.0,
                z: -30.0,
            },
            torque: Vector3 {
                x: 0.0,
                y: 0.25,
                z: 0.0,
            },
        };
        input.set_force_torque(1, wrench).unwrap();
        let components: Vec<Box<dyn Component<Hopper>>> = vec![Box::new(mock)];
        let control_loop =
            ControlLoop::new(System::new(components).unwrap(), Hold, None).with_observer(observer);
        let handle = control_loop
            .spawn(LoopOptions {
                stop_after: StopAfter {
                    duration: Some(Duration::from_secs(8)),
                    cycles: None,
                },
                pacing: Pacing::RealTime,
                ..LoopOptions::default()
            })
            .unwrap();
        graph.loop_watch().watch(handle.shared_control());
        let mut peer = python
            .start(
                "graph",
                &["--max", "2", "--namespace", "/robot1", "--wrench", "hip_ft"],
            )
            .unwrap();
        let imu = first(&mut peer, "imu");
        let wrench = first(&mut peer, "wrench");
        // rclpy here has no TFMessage type (no tf2_msgs wheel): /tf is Cyclone's to check.
        let tf = (python.implementation() == ros2_peer::Implementation::Cyclone)
            .then(|| first(&mut peer, "tf"));
        // The first diagnostics may come before the loop's control was handed over: wait for
        // one that has the cycles.
        let diagnostics = loop {
            let seen = peer
                .wait_for("diagnostics", Duration::from_secs(10))
                .unwrap();
            if seen["status"][0]["values"]["cycles"].is_string() {
                break seen;
            }
        };
        let (_, result) = handle.stop();
        result.unwrap();
        let report = graph.stop();
        let summary = peer.finish(Duration::from_secs(10)).unwrap();
        println!("{report}; peer: {summary}");

        // /robot1/imu/data: the IMU's link as the frame, its ten values, zero covariances.
        assert_eq!(imu["frame_id"], "imu_link");
        assert_eq!(imu["orientation"], serde_json::json!([0.0, 0.6, 0.0, 0.8]));
        assert_eq!(imu["angular_velocity"], serde_json::json!([0.1, -0.2, 0.3]));
        assert_eq!(
            imu["linear_acceleration"],
            serde_json::json!([0.5, 0.0, 9.81])
        );
        assert!(
            imu["covariance"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c == 0.0)
        );

        // /robot1/hip_ft_broadcaster/wrench: the sensor's link as the frame, its six values.
        assert_eq!(wrench["sensor"], "hip_ft");
        assert_eq!(wrench["frame_id"], "leg");
        assert_eq!(wrench["force"], serde_json::json!([1.5, 0.0, -30.0]));
        assert_eq!(wrench["torque"], serde_json::json!([0.0, 0.25, 0.0]));

        // /robot1/tf: the hip, then world → body at the home pose (standing on its leg).
        let height = kinematics::standing_height(Hopper::DESCRIPTION)
            .unwrap()
            .unwrap();
        assert!(
            (height - 0.35).abs() < 1e-9,
            "the leg reaches 0.35 m down: {height}"
        );
        if let Some(tf) = tf {
            let base = tf["transforms"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["parent"] == "world")
                .cloned()
                .unwrap();
            assert_eq!(base["child"], "body");
            assert_eq!(base["translation"], serde_json::json!([0.0, 0.0, height]));
            assert_eq!(base["rotation"], serde_json::json!([0.0, 0.0, 0.0, 1.0]));
        }

        // /robot1/diagnostics: the loop, then the one component, both active.
        let status = diagnostics["status"].as_array().unwrap();
        assert_eq!(status.len(), 2, "{diagnostics}");
        assert_eq!(status[0]["name"], "hopper: control loop");
        assert_eq!(status[0]["values"]["lifecycle"], "active");
        let cycles: u64 = status[0]["values"]["cycles"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(cycles > 0, "{diagnostics}");
        assert_eq!(status[1]["values"]["lifecycle"], "active");
        assert_eq!(status[1]["level"], 0, "OK");
        assert!(report.diagnostics > 0, "{report}");
    });
}
