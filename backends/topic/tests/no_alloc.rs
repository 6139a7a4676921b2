//! The control path of the topic backend allocates nothing: lite_biped's squat, read → update →
//! write for a thousand cycles against states a second participant publishes at 1 kHz (in a
//! network namespace of the test's own), counted by a global allocator on the control thread
//! (its own test binary). The DDS threads allocate as they please; the control thread only
//! swaps preallocated buffers with them. The same for a sensor read from a topic (`SensorTopic`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use alloc_counter::allocations;
use backend_topic::TopicOptions;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::Clock;
use robots::controllers::Squat;
use ros2_dds::Participant;
use ros2_msg::msg::{Imu, JointState, Quaternion, Time};
use ros2_msg::{QosProfile, TopicName};

use common::{lite_biped_joints, lite_biped_system};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

/// Publishes lite_biped's states and IMU at 1 kHz until `stop`.
fn publish_states(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let names: Vec<String> = lite_biped_joints().split(',').map(String::from).collect();
        let n = names.len();
        let participant = Participant::join(0).unwrap();
        let topic = TopicName::new("/robot_joint_states").unwrap();
        let mut states = participant
            .publisher(&topic, QosProfile::SENSOR_DATA, JointState::default())
            .unwrap();
        let imu_topic = TopicName::new("/imu/data").unwrap();
        let mut imu = participant
            .publisher(&imu_topic, QosProfile::SENSOR_DATA, Imu::default())
            .unwrap();
        while !stop.load(Ordering::Relaxed) {
            *states.message_mut() = JointState {
                name: names.clone(),
                position: vec![0.0; n],
                velocity: vec![0.0; n],
                effort: vec![0.0; n],
                ..JointState::default()
            };
            states.message_mut().header.stamp = Time::now();
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

#[test]
fn read_update_write_allocate_nothing_after_activation() {
    ros2_peer::in_namespace(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let publisher = publish_states(stop.clone());
        let options = TopicOptions {
            // Every cycle publishes: the path that does the most.
            threshold: -1.0,
            // Counting allocations, not testing staleness: a publisher paused by a busy machine
            // must not end the run.
            stale_after: Some(Duration::from_secs(5)),
            ..TopicOptions::default()
        };
        let mut control_loop = ControlLoop::new(lite_biped_system(options), Squat::default(), None);
        control_loop.configure().unwrap();
        let start = Instant::now();
        let period = Duration::from_millis(1);
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        control_loop.activate(clock()).unwrap();
        for _ in 0..10 {
            control_loop.cycle(clock()).unwrap();
            std::thread::sleep(period);
        }
        let before = allocations();
        for _ in 0..1000 {
            control_loop.cycle(clock()).unwrap();
            std::thread::sleep(period);
        }
        let counted = allocations() - before;
        let counters = control_loop.system().report();
        stop.store(true, Ordering::Relaxed);
        publisher.join().unwrap();
        assert_eq!(counted, 0, "{counted} allocations in 1000 cycles");
        let count = |name: &str| {
            counters[0]
                .counters
                .iter()
                .find(|c| c.name == name)
                .unwrap()
                .value
        };
        assert!(count("states received") > 500, "{counters:?}");
        assert!(count("commands published") >= 1000, "{counters:?}");
        // The counter counts: a Vec allocates.
        let one = alloc_counter::allocations_in(|| drop(std::hint::black_box(vec![1u8])));
        assert_eq!(one, 1);
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

#[test]
fn a_sensor_read_from_a_topic_allocates_nothing_after_activation() {
    use backend_topic::{SensorTopic, SensorTopicOptions};
    use common::robots::{Foot, FootCommand, FootState};
    use robot_core::hardware::Component;
    use ros2_msg::msg::WrenchStamped;

    ros2_peer::in_namespace(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let driver = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let participant = Participant::join(0).unwrap();
                let topic = TopicName::new("/ankle_ft/wrench").unwrap();
                let mut wrench = participant
                    .publisher(&topic, QosProfile::SENSOR_DATA, WrenchStamped::default())
                    .unwrap();
                while !stop.load(Ordering::Relaxed) {
                    wrench.message_mut().wrench.force.z = -19.62;
                    wrench.publish();
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        };
        let options = SensorTopicOptions {
            sensor: "ankle_ft".into(),
            topic: TopicName::new("/ankle_ft/wrench").unwrap(),
            // Counting allocations, not testing staleness.
            stale_after: Some(Duration::from_secs(5)),
            first_reading_timeout: Duration::from_secs(10),
        };
        let mut sensor = SensorTopic::<Foot>::new(options, Participant::join(0).unwrap()).unwrap();
        let (mut state, mut command) = (FootState::default(), FootCommand::default());
        sensor.on_init().unwrap();
        sensor.on_configure().unwrap();
        sensor.on_activate(&state, &mut command).unwrap();
        let start = Instant::now();
        let period = Duration::from_millis(1);
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        let mut counted = 0;
        for _ in 0..1000 {
            counted += alloc_counter::allocations_in(|| {
                sensor.read(clock(), &mut state).unwrap();
                sensor.write(clock(), &command).unwrap();
            });
            std::thread::sleep(period);
        }
        stop.store(true, Ordering::Relaxed);
        driver.join().unwrap();
        (counted, state.ankle_ft.force.z)
    })
    .map(|(counted, force)| {
        assert_eq!(counted, 0, "{counted} allocations in 1000 reads");
        assert_eq!(force, -19.62);
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
