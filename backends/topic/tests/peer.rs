//! The topic backend against each peer of `ros2-peer` (Cyclone DDS's `peer.py`, ROS 2's rclpy
//! over Fast DDS) simulating lite_biped at 1 kHz, each run in a network namespace of its own:
//! the squat runs through the same loop as on the mock and tracks; the peer stopping ends the
//! run with a stale-state error, everything switched off.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::Duration;

use backend_topic::TopicOptions;
use robot_core::control_loop::{ControlLoop, LoopControl, LoopError, LoopOptions, StopAfter};
use robot_core::hardware::{ErrorKind, Lifecycle};
use robots::controllers::Squat;
use ros2_peer::isolated;

use common::{Tracking, lite_biped_joints, lite_biped_system};

/// The largest |measured − commanded| position the squat may show on the peer's joint model
/// (first order, 10 ms): 0.71 rad/s at most, times the model's lag and up to two loop periods of
/// transport and sampling, is 0.025 rad (0.010 rad measured); the bound leaves room for a busy
/// machine.
const TRACKING_BOUND: f64 = 0.05;

#[test]
fn lite_biped_squats_on_the_peer_and_tracks() {
    isolated(|python| {
        let joints = lite_biped_joints();
        let peer = python
            .start(
                "sim",
                &["--joints", &joints, "--rate", "1000", "--imu", "/imu/data"],
            )
            .unwrap();
        let system = lite_biped_system(TopicOptions {
            // Tracking, not staleness (the next test): a peer paused by a busy machine must not
            // end the run.
            stale_after: Some(Duration::from_millis(500)),
            ..TopicOptions::default()
        });
        let controller =
            Tracking::new::<robots::LiteBiped>(Squat::default(), Duration::from_millis(500));
        let mut control_loop = ControlLoop::new(system, controller, None);
        let options = LoopOptions {
            stop_after: StopAfter {
                cycles: None,
                duration: Some(Duration::from_secs(3)),
            },
            ..LoopOptions::default()
        };
        let report = control_loop.run(&options, &LoopControl::default()).unwrap();
        assert_eq!(report.final_lifecycle(), Lifecycle::Inactive);
        let worst = control_loop.controller().worst;
        println!(
            "squat on the peer: worst tracking error {worst:.4} rad over {} cycles",
            report.timing.cycles
        );
        assert!(worst < TRACKING_BOUND, "tracking error {worst} rad");
        // The knees went down: the peer followed the commands, not just echoed its start.
        let knee = control_loop.state().left_knee_pitch.position;
        assert!(knee > 0.1, "left knee at {knee} rad after 3 s of squatting");
        // The peer's IMU (identity orientation) reached the IMU's state slots.
        let imu = control_loop.state().base_imu;
        assert_eq!(
            (imu.orientation.w, imu.orientation.x),
            (1.0, 0.0),
            "{imu:?}"
        );
        let counters = control_loop.system().report();
        let count = |name: &str| {
            counters[0]
                .counters
                .iter()
                .find(|c| c.name == name)
                .unwrap()
                .value
        };
        assert!(count("states received") > 400, "{counters:?}");
        assert!(count("imu messages received") > 400, "{counters:?}");
        assert_eq!(count("states refused (array length)"), 0);
        // Below the threshold (the ramp's end, the squat's turning points) nothing is sent.
        let published = count("commands published");
        assert!(published > 300, "{counters:?}");
        let summary = peer.finish(Duration::from_secs(10)).unwrap();
        let received = summary["commands_received"].as_u64().unwrap();
        println!("commands published {published}, received by the peer {received}");
        assert!(received > 300, "{summary}");
    });
}

#[test]
fn the_peer_stopping_ends_the_run_with_a_stale_state_error_and_everything_off() {
    isolated(|python| {
        let joints = lite_biped_joints();
        let _peer = python
            .start(
                "sim",
                &[
                    "--joints",
                    &joints,
                    "--rate",
                    "1000",
                    "--imu",
                    "/imu/data",
                    "--stop-after",
                    "1.5",
                ],
            )
            .unwrap();
        let system = lite_biped_system(TopicOptions::default());
        let mut control_loop = ControlLoop::new(system, Squat::default(), None);
        let options = LoopOptions {
            stop_after: StopAfter {
                cycles: None,
                duration: Some(Duration::from_secs(10)),
            },
            ..LoopOptions::default()
        };
        let error = control_loop
            .run(&options, &LoopControl::default())
            .unwrap_err();
        let LoopError::Cycle { fault, report, .. } = &error else {
            panic!("expected a failed cycle, got {error}");
        };
        let robot_core::control_loop::Fault::Hardware(hardware) = fault else {
            panic!("expected a hardware fault, got {fault}");
        };
        assert_eq!(hardware.kind(), ErrorKind::Timeout);
        assert!(
            hardware
                .message()
                .starts_with("stale state: nothing valid on `/robot_joint_states` for "),
            "{hardware}"
        );
        // Switched off: nothing is active any more, and the statistics are there.
        assert_ne!(report.final_lifecycle(), Lifecycle::Active);
        assert!(
            report
                .components
                .iter()
                .all(|c| c.lifecycle != Lifecycle::Active)
        );
        assert!(report.torque_off_failures.is_empty());
        assert!(report.timing.cycles > 100, "{:?}", report.timing);
    });
}
