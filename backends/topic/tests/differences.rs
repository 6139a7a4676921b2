//! The table of differences from upstream (`docs/ros2-topic-backend.md`), row by row, against
//! each peer of `ros2-peer` (Cyclone DDS, rclpy over Fast DDS) in a network namespace of each
//! run's own: what the peer sends (unknown names, short arrays, NaN, wrapped angles, joints out
//! of order, a name twice) and what we publish (arrays in step with `name`, never NaN, nothing
//! before there is something to say).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::{Duration, Instant};

use backend_topic::{TopicOptions, TopicSystem};
use common::robots::{Mixed, MixedCommand, MixedState};
use robot_core::hardware::{Clock, Component, System};
use ros2_dds::Participant;

const WAIT: Duration = Duration::from_secs(15);
const PERIOD: Duration = Duration::from_millis(1);

fn system(options: TopicOptions) -> System<Mixed> {
    let component: Box<dyn Component<Mixed>> = Box::new(TopicSystem::<Mixed>::new(
        options,
        Participant::join(0).expect("a DDS participant"),
    ));
    System::new(vec![component]).unwrap()
}

/// Reads every millisecond until `done` holds of the state, or fails after [`WAIT`].
fn read_until(
    system: &mut System<Mixed>,
    state: &mut MixedState,
    started: Instant,
    what: &str,
    done: impl Fn(&MixedState, &dyn Fn(&str) -> u64) -> bool,
) {
    let deadline = Instant::now() + WAIT;
    loop {
        let clock = Clock {
            time: started.elapsed(),
            period: PERIOD,
        };
        system.read(clock, state).unwrap();
        let counters = system.counters_of(0);
        let count = |name: &str| {
            counters
                .iter()
                .find(|c| c.name == name)
                .map_or(0, |c| c.value)
        };
        if done(state, &count) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "never saw: {what}; state {state:?}; {counters:?}"
        );
        std::thread::sleep(PERIOD);
    }
}

fn patient() -> TopicOptions {
    // Refused messages do not count as fresh: let the scripted peer pause between them.
    TopicOptions {
        stale_after: Some(Duration::from_secs(30)),
        imu_topic: None,
        ..TopicOptions::default()
    }
}

#[test]
fn bad_state_messages_behave_as_the_table_says() {
    ros2_peer::isolated(|python| {
        let script = serde_json::json!([
            // In order, every array: the first state.
            {"name": ["pos", "vel", "eff", "wheel"], "position": [0.1, 0.2, 0.3, 0.4],
             "velocity": [1.0, 2.0, 3.0, 4.0], "effort": [5.0, 6.0, 7.0, 8.0]},
            // An unknown name and joints out of order: matched by name, `vel` keeps its value.
            {"name": ["zz", "eff", "pos"], "position": [9.0, 0.33, 0.11]},
            // `position` shorter than `name`: upstream throws; refused whole here.
            {"name": ["pos", "vel"], "position": [0.5]},
            // NaN: skipped, the last value kept; the rest applied.
            {"name": ["pos", "vel"], "position": ["NaN", 0.25]},
            // A joint named twice: upstream lets the last win; refused whole here.
            {"name": ["pos", "pos"], "position": [0.7, 0.8]},
            // The end marker.
            {"name": ["wheel"], "position": [-1.0]},
        ])
        .to_string()
        .replace("\"NaN\"", "NaN");
        let _peer = python
            .start_with_input(
                "script",
                // 0.4 s a message: a busy machine's pause cannot skip one.
                &["--repeat", "80", "--interval", "0.005", "--settle", "1"],
                Some(&script),
            )
            .unwrap();
        let mut system = system(patient());
        let started = Instant::now();
        let (mut state, _) = (MixedState::default(), MixedCommand::default());
        system.configure().unwrap();
        read_until(
            &mut system,
            &mut state,
            started,
            "the first state",
            |s, _| s.pos.position == 0.1 && s.vel.velocity == 2.0 && s.eff.effort == 7.0,
        );
        // The mimic: position = 0.1 + (−2)·0.1, velocity = −2·1.
        assert!((state.finger.position - (-0.1)).abs() < 1e-12, "{state:?}");
        assert_eq!(state.finger.velocity, -2.0);
        read_until(
            &mut system,
            &mut state,
            started,
            "names out of order",
            |s, count| {
                s.pos.position == 0.11
                    && s.eff.position == 0.33
                    && count("unknown names skipped") > 0
            },
        );
        assert_eq!(state.vel.position, 0.2, "a joint not named keeps its value");
        read_until(
            &mut system,
            &mut state,
            started,
            "a short array refused",
            |_, count| count("states refused (array length)") > 0,
        );
        assert_eq!(
            state.pos.position, 0.11,
            "a refused message changes nothing"
        );
        read_until(
            &mut system,
            &mut state,
            started,
            "NaN skipped",
            |s, count| s.vel.position == 0.25 && count("non-finite values skipped") > 0,
        );
        assert_eq!(state.pos.position, 0.11);
        read_until(
            &mut system,
            &mut state,
            started,
            "a name twice refused",
            |_, count| count("states refused (joint named twice)") > 0,
        );
        assert_eq!(state.pos.position, 0.11);
        read_until(
            &mut system,
            &mut state,
            started,
            "the end marker",
            |s, _| s.wheel.position == -1.0,
        );
        assert_eq!(state.pos.position, 0.11);
    });
}

/// Positions the peer reports for the wheel turning from 0 to 20 rad, wrapped into (−2π, 2π)
/// as Isaac Sim wraps them.
fn wheel_script() -> String {
    // The last reading is held for 50 steps, so a reader that pauses still sees it.
    let steps: Vec<serde_json::Value> = (0..=150)
        .map(|i| {
            let angle = f64::from(i.min(100)) * 0.2;
            serde_json::json!({"name": ["wheel"], "position": [angle % std::f64::consts::TAU]})
        })
        .collect();
    serde_json::Value::Array(steps).to_string()
}

fn wheel_after_turning(python: &ros2_peer::PeerPython, sum_wrapped: bool) -> f64 {
    let script = wheel_script();
    let _peer = python
        .start_with_input(
            "script",
            &["--repeat", "3", "--interval", "0.004", "--settle", "1"],
            Some(&script),
        )
        .unwrap();
    let mut system = system(TopicOptions {
        sum_wrapped,
        ..patient()
    });
    let started = Instant::now();
    let mut state = MixedState::default();
    system.configure().unwrap();
    let last = 20.0 % std::f64::consts::TAU;
    // Done when the last reading arrived (the unwrapped angle is ≈ 20 then, the raw one `last`).
    read_until(
        &mut system,
        &mut state,
        started,
        "the last wheel reading",
        |s, _| (s.wheel.position - 20.0).abs() < 1e-9 || (s.wheel.position - last).abs() < 1e-12,
    );
    state.wheel.position
}

#[test]
fn wrapped_angles_are_accumulated_with_sum_wrapped_joint_states() {
    ros2_peer::isolated(|python| {
        let summed = wheel_after_turning(python, true);
        assert!((summed - 20.0).abs() < 1e-9, "{summed}");
        let raw = wheel_after_turning(python, false);
        assert!((raw - 20.0 % std::f64::consts::TAU).abs() < 1e-12, "{raw}");
    });
}

#[test]
fn commands_line_up_with_names_and_are_never_nan() {
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
        let listener = python.start("listen", &["--seconds", "4"]).unwrap();
        let mut system = system(TopicOptions {
            threshold: -1.0,
            ..patient()
        });
        let started = Instant::now();
        let (mut state, mut command) = (MixedState::default(), MixedCommand::default());
        system.configure().unwrap();
        let clock = || Clock {
            time: started.elapsed(),
            period: PERIOD,
        };
        system.activate(clock(), &mut state, &mut command).unwrap();
        // No controller: the seeded commands (the measured position, zero velocity and effort).
        for _ in 0..300 {
            system.read(clock(), &mut state).unwrap();
            system.write(clock(), &command).unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
        // A controller that leaves `pos` at NaN and drives `vel`.
        command.pos.position = f64::NAN;
        command.vel.velocity = 0.5;
        for _ in 0..300 {
            system.read(clock(), &mut state).unwrap();
            system.write(clock(), &command).unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
        system.deactivate().unwrap();
        let mut listener = listener;
        let summary = listener.wait_for("summary", WAIT).unwrap();
        let received = summary["commands_received"].as_u64().unwrap();
        assert!(received > 100, "{summary}");
        let commands: Vec<&serde_json::Value> = listener
            .seen()
            .iter()
            .filter(|v| v["event"] == "command")
            .collect();
        assert_eq!(commands.len() as u64, received);
        let mut driven = 0;
        for command in &commands {
            assert_eq!(
                command["name"],
                serde_json::json!(["pos", "vel", "eff", "wheel"])
            );
            for array in ["position", "velocity", "effort"] {
                let values = command[array].as_array().unwrap();
                // Every array carries a value per name: someone commands each kind.
                assert_eq!(values.len(), 4, "{array} of {command}");
                assert!(
                    values.iter().all(|v| v.is_f64()),
                    "NaN or worse in {command}"
                );
            }
            // `pos` never NaN: its held state, the sim's 0.5.
            assert!(
                (command["position"][0].as_f64().unwrap() - 0.5).abs() < 1e-6,
                "{command}"
            );
            if command["velocity"][1] == 0.5 {
                driven += 1;
            }
        }
        assert!(
            driven > 50,
            "the velocity command reached the peer {driven} times"
        );
    });
}

#[test]
fn nothing_is_published_while_the_commands_ask_for_no_change() {
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
        let mut system = system(patient());
        let started = Instant::now();
        let (mut state, mut command) = (MixedState::default(), MixedCommand::default());
        system.configure().unwrap();
        let clock = || Clock {
            time: started.elapsed(),
            period: PERIOD,
        };
        system.activate(clock(), &mut state, &mut command).unwrap();
        // Upstream publishes its NaN commands here (|state − NaN| is not ≤ the threshold); the
        // seeded commands hold the measured state, so nothing needs sending.
        for _ in 0..100 {
            system.read(clock(), &mut state).unwrap();
            system.write(clock(), &command).unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        let counters = system.counters_of(0);
        let count = |name: &str| counters.iter().find(|c| c.name == name).unwrap().value;
        assert_eq!(count("commands published"), 0, "{counters:?}");
        assert_eq!(count("commands not sent (below threshold)"), 100);
        system.deactivate().unwrap();
    });
}
