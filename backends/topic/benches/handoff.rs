//! The topic backend's `read` + `write` on the control thread — the handoff to and from the
//! DDS thread only — for lite_biped's 14 joints and IMU, publishing every cycle (threshold −1),
//! against states a second participant publishes at 1 kHz. Target: at most 1 µs, 0 allocations
//! (`tests/no_alloc.rs`). Runs inside a network namespace of its own (root; otherwise it says
//! why and measures nothing).
//!
//! Each timed cycle is followed by an untimed pause of 200 µs, as a control loop leaves the DDS
//! thread time to send and to fall asleep again: every command is queued and sent (none dropped
//! because the queue is full, which would time the cheaper refusal), and every `write` wakes the
//! sleeping DDS thread (an eventfd write), as at 1 kHz. The bench prints how many commands were
//! sent and dropped.
//!
//! ```sh
//! cargo bench -p backend-topic --bench handoff
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use backend_topic::{TopicOptions, TopicSystem};
use criterion::Criterion;
use robot_core::hardware::{Clock, Component, System};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
use ros2_dds::Participant;
use ros2_msg::msg::{Imu, JointState, Quaternion};
use ros2_msg::{QosProfile, TopicName};

fn joint_names() -> Vec<String> {
    LiteBiped::DESCRIPTION
        .joints
        .iter()
        .filter(|j| j.is_controlled() && j.mimic.is_none())
        .map(|j| j.name.to_string())
        .collect()
}

fn publish_states(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let names = joint_names();
        let n = names.len();
        let participant = Participant::join(0).unwrap();
        let mut states = participant
            .publisher(
                &TopicName::new("/robot_joint_states").unwrap(),
                QosProfile::SENSOR_DATA,
                JointState::default(),
            )
            .unwrap();
        let mut imu = participant
            .publisher(
                &TopicName::new("/imu/data").unwrap(),
                QosProfile::SENSOR_DATA,
                Imu::default(),
            )
            .unwrap();
        while !stop.load(Ordering::Relaxed) {
            *states.message_mut() = JointState {
                name: names.clone(),
                position: vec![0.1; n],
                velocity: vec![0.0; n],
                effort: vec![0.0; n],
                ..JointState::default()
            };
            states.publish();
            imu.message_mut().orientation = Quaternion {
                w: 1.0,
                ..Quaternion::default()
            };
            imu.publish();
            std::thread::sleep(Duration::from_millis(1));
        }
    })
}

/// The untimed pause after each cycle, for the DDS thread to send the command and sleep again.
const PAUSE: Duration = Duration::from_micros(200);

#[derive(Clone, Copy)]
enum Part {
    Read,
    Write,
    Both,
}

fn bench(c: &mut Criterion) {
    let stop = Arc::new(AtomicBool::new(false));
    let publisher = publish_states(stop.clone());
    let component: Box<dyn Component<LiteBiped>> = Box::new(TopicSystem::<LiteBiped>::new(
        TopicOptions {
            threshold: -1.0,
            // The handoff is timed, not the freshness: criterion's own pauses between samples
            // must not end the bench.
            stale_after: Some(Duration::from_secs(3600)),
            ..TopicOptions::default()
        },
        Participant::join(0).expect("the component's participant"),
    ));
    let mut system = System::new(vec![component]).unwrap();
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
    let start = Instant::now();
    let clock = || Clock {
        time: start.elapsed(),
        period: Duration::from_millis(1),
    };
    system.configure().unwrap();
    system.activate(clock(), &mut state, &mut command).unwrap();
    let mut group = c.benchmark_group("topic");
    // The same cycle three times, timing the read, the write, and both.
    for (name, part) in [
        ("read/lite_biped", Part::Read),
        ("write/lite_biped", Part::Write),
        ("read_write/lite_biped", Part::Both),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iterations| {
                let mut timed = Duration::ZERO;
                for _ in 0..iterations {
                    let now = clock();
                    let started = Instant::now();
                    system.read(now, black_box(&mut state)).unwrap();
                    let read = started.elapsed();
                    command.left_knee_pitch.position = state.left_knee_pitch.position + 0.1;
                    system.write(now, black_box(&command)).unwrap();
                    let both = started.elapsed();
                    timed += match part {
                        Part::Read => read,
                        Part::Write => both - read,
                        Part::Both => both,
                    };
                    // Spun, not slept: a sleeping thread wakes on a cold cache and a lower
                    // clock, which a real-time loop that spins to its deadline does not.
                    let pause = Instant::now();
                    while pause.elapsed() < PAUSE {
                        std::hint::spin_loop();
                    }
                }
                timed
            })
        });
    }
    group.finish();
    let counters = system.counters_of(0);
    let count = |name: &str| {
        counters
            .iter()
            .find(|c| c.name == name)
            .map_or(0, |c| c.value)
    };
    println!(
        "commands published {}, dropped (network behind the loop) {}",
        count("commands published"),
        count("commands dropped (network behind the loop)")
    );
    system.deactivate().unwrap();
    stop.store(true, Ordering::Relaxed);
    publisher.join().unwrap();
}

fn main() {
    let ran = ros2_peer::in_namespace(|| {
        // Short: the timed part of each iteration is under a microsecond, its pause ~50 µs.
        let mut criterion = Criterion::default()
            .warm_up_time(Duration::from_millis(50))
            .measurement_time(Duration::from_millis(100))
            .sample_size(20)
            .configure_from_args();
        bench(&mut criterion);
        criterion.final_summary();
    });
    if let Err(why) = ran {
        println!("SKIPPED: {why}");
    }
}
