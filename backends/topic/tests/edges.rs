//! The rows of the table of differences (`docs/ros2-topic-backend.md`) that the other tests do
//! not reach, against each peer of `ros2-peer` (Cyclone DDS, rclpy over Fast DDS) in a network
//! namespace of each run's own: an infinite command, a stale IMU beside fresh joint states, a
//! disabled joint, and the lifecycle around deactivation. The component is driven through its
//! own contract here (`Component`), as the System drives it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::{Duration, Instant};

use ::robots::LiteBiped;
use backend_topic::{TopicOptions, TopicSystem};
use common::robots::Mixed;
use common::{clock, lite_biped_joints};
use robot_core::RobotTypes;
use robot_core::hardware::{Component, ErrorKind, HardwareError};
use ros2_dds::Participant;

const PERIOD: Duration = Duration::from_millis(5);
const WAIT: Duration = Duration::from_secs(15);

/// A configured and activated topic component of `R`.
fn active<R: RobotTypes>(options: TopicOptions) -> (TopicSystem<R>, R::State, R::Command) {
    let mut component =
        TopicSystem::<R>::new(options, Participant::join(0).expect("a DDS participant"));
    component.on_init().unwrap();
    component.on_configure().unwrap();
    let state = R::State::default();
    let mut command = R::Command::default();
    component.on_activate(&state, &mut command).unwrap();
    (component, state, command)
}

/// Reads every period until a read fails, or panics after [`WAIT`].
fn read_until_error<R: RobotTypes>(
    component: &mut TopicSystem<R>,
    state: &mut R::State,
    started: Instant,
) -> HardwareError {
    while started.elapsed() < WAIT {
        if let Err(error) = component.read(clock(started.elapsed(), PERIOD), state) {
            return error;
        }
        std::thread::sleep(PERIOD);
    }
    panic!("every read succeeded for {WAIT:?}");
}

#[test]
fn an_infinite_command_is_refused_naming_the_joint_and_interface() {
    ros2_peer::isolated(|python| {
        let _sim = python
            .start("sim", &["--joints", "pos,vel,eff,wheel", "--rate", "500"])
            .unwrap();
        let (mut component, mut state, mut command) = active::<Mixed>(TopicOptions {
            imu_topic: None,
            stale_after: Some(Duration::from_secs(30)),
            ..TopicOptions::default()
        });
        let started = Instant::now();
        component
            .read(clock(started.elapsed(), PERIOD), &mut state)
            .unwrap();
        command.vel.velocity = f64::INFINITY;
        let error = component
            .write(clock(started.elapsed(), PERIOD), &command)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidCommand, "{error}");
        assert!(error.message().contains("`vel/velocity` is inf"), "{error}");
        // A NaN is not an error (it asks for the held state), and a finite command goes out.
        command.vel.velocity = f64::NAN;
        component
            .write(clock(started.elapsed(), PERIOD), &command)
            .unwrap();
        command.vel.velocity = 0.5;
        component
            .write(clock(started.elapsed(), PERIOD), &command)
            .unwrap();
    });
}

#[test]
fn a_stale_imu_ends_the_run_while_the_joint_states_are_fresh() {
    ros2_peer::isolated(|python| {
        // One simulator publishes the joint states for the whole test; another, the IMU (and
        // states on a topic nobody reads) for 2 s only.
        let _states = python
            .start("sim", &["--joints", &lite_biped_joints(), "--rate", "500"])
            .unwrap();
        let _imu = python
            .start(
                "sim",
                &[
                    "--joints",
                    "unused",
                    "--states",
                    "/unused_states",
                    "--imu",
                    "/imu/data",
                    "--rate",
                    "500",
                    "--stop-after",
                    "2",
                ],
            )
            .unwrap();
        let (mut component, mut state, _) = active::<LiteBiped>(TopicOptions {
            stale_after: Some(Duration::from_millis(300)),
            ..TopicOptions::default()
        });
        let error = read_until_error(&mut component, &mut state, Instant::now());
        assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
        assert!(
            error.message().contains("stale state")
                && error.message().contains("`/imu/data`")
                && !error.message().contains("/robot_joint_states"),
            "{error}"
        );
        let states = component
            .counters()
            .iter()
            .find(|c| c.name == "states received")
            .unwrap()
            .value;
        assert!(states > 10, "the joint states kept coming: {states}");
    });
}

#[test]
fn a_disabled_joint_is_read_but_never_named_in_a_command() {
    ros2_peer::isolated(|python| {
        let _sim = python
            .start(
                "sim",
                &[
                    "--joints",
                    "pos,vel,eff,wheel",
                    "--rate",
                    "500",
                    "--initial",
                    "0.5",
                ],
            )
            .unwrap();
        let listener = python.start("listen", &["--seconds", "3"]).unwrap();
        let vel = Mixed::DESCRIPTION
            .joints
            .iter()
            .position(|j| j.name == "vel")
            .unwrap();
        let (mut component, mut state, mut command) = active::<Mixed>(TopicOptions {
            imu_topic: None,
            threshold: -1.0,
            disabled_joints: vec![vel],
            stale_after: Some(Duration::from_secs(30)),
            ..TopicOptions::default()
        });
        let started = Instant::now();
        command.pos.position = 0.25;
        command.vel.velocity = 1.0; // for a disabled joint: never sent
        // Written for as long as the listener listens (3 s): it hears only what comes after
        // discovery, which took most of a 1 s window with the whole suite running beside it.
        while started.elapsed() < Duration::from_millis(2500) {
            component
                .read(clock(started.elapsed(), PERIOD), &mut state)
                .unwrap();
            component
                .write(clock(started.elapsed(), PERIOD), &command)
                .unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            state.vel.position, 0.5,
            "the disabled joint's state is read"
        );
        let mut listener = listener;
        listener.wait_for("summary", WAIT).unwrap();
        let commands: Vec<&serde_json::Value> = listener
            .seen()
            .iter()
            .filter(|v| v["event"] == "command")
            .collect();
        assert!(commands.len() > 50, "{} commands", commands.len());
        for command in commands {
            assert_eq!(
                command["name"],
                serde_json::json!(["pos", "eff", "wheel"]),
                "{command}"
            );
        }
    });
}

#[test]
fn after_deactivation_reads_are_a_lifecycle_error_until_activation_reconnects() {
    ros2_peer::isolated(|python| {
        let _sim = python
            .start("sim", &["--joints", "pos,vel,eff,wheel", "--rate", "500"])
            .unwrap();
        let (mut component, mut state, mut command) = active::<Mixed>(TopicOptions {
            imu_topic: None,
            stale_after: Some(Duration::from_secs(30)),
            ..TopicOptions::default()
        });
        let started = Instant::now();
        component
            .read(clock(started.elapsed(), PERIOD), &mut state)
            .unwrap();
        component.on_deactivate().unwrap();
        let error = component
            .read(clock(started.elapsed(), PERIOD), &mut state)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Lifecycle, "{error}");
        // Activation joins the domain again and waits for a state.
        component.on_activate(&state, &mut command).unwrap();
        component
            .read(clock(started.elapsed(), PERIOD), &mut state)
            .unwrap();
    });
}
