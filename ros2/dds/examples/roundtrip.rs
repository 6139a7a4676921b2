//! Command → state round trips through `ros2-dds`, the path the topic backend takes: a
//! `JointState` command is stamped and published from this (the control) thread, the DDS thread
//! sends it, a peer answers each with a state carrying the command's stamp (`peer.py echo`), and
//! the DDS thread that takes the answer stamps its arrival. Prints one JSON line: the round trips
//! (p50, p99, max, µs) and the counts.
//!
//! `scripts/measure-topic-roundtrip.sh` runs it (`--rate 1000 --seconds 10`) in one of two
//! network namespaces joined by a veth pair, with the echo in the other, and the same
//! measurement between two Cyclone DDS peers; run by hand, it joins DDS domain 0 on every
//! interface the machine has.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a measuring tool: a panic is the report

use std::time::{Duration, Instant};

use ros2_dds::Participant;
use ros2_msg::msg::{Header, JointState, Time};
use ros2_msg::{QosProfile, TopicName};

fn arg(name: &str, default: f64) -> f64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

fn main() {
    let rate = arg("--rate", 1000.0);
    let seconds = arg("--seconds", 10.0);
    let participant = Participant::join(0).unwrap();
    let mut commands = participant
        .publisher(
            &TopicName::new("/robot_joint_commands").unwrap(),
            QosProfile::reliable(1),
            JointState {
                name: vec!["j".into()],
                position: vec![0.0],
                ..JointState::default()
            },
        )
        .unwrap();
    let mut states = participant
        .subscription::<JointState>(
            &TopicName::new("/robot_joint_states").unwrap(),
            QosProfile::SENSOR_DATA,
        )
        .unwrap();
    // Returns the stamp, which is also the command's identity.
    let publish = |commands: &mut ros2_dds::Publisher<JointState>, i: f64| -> i128 {
        let stamp = Time::now();
        let nanos = stamp.as_nanos();
        let message = commands.message_mut();
        message.header = Header {
            stamp,
            frame_id: String::new(),
        };
        message.position[0] = i;
        commands.publish();
        nanos
    };
    // Discovery: nothing counts until the echo answers.
    let deadline = Instant::now() + Duration::from_secs(20);
    while states.take_latest().is_none() {
        assert!(Instant::now() < deadline, "no answer from the echo peer");
        publish(&mut commands, -1.0);
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let _ = states.take_latest();
    let arrivals_before = states
        .counters()
        .transferred
        .load(std::sync::atomic::Ordering::Relaxed);
    let period = Duration::from_secs_f64(1.0 / rate);
    let count = (seconds * rate) as usize;
    let mut sent: Vec<i128> = Vec::with_capacity(count);
    let mut round_trips: Vec<i128> = Vec::with_capacity(count);
    let mut seen = std::collections::HashSet::with_capacity(count);
    let mut look = |states: &mut ros2_dds::Subscription<JointState>,
                    sent: &[i128],
                    round_trips: &mut Vec<i128>| {
        if let Some(received) = states.take_latest() {
            let stamp = received.message.header.stamp.as_nanos();
            if sent.binary_search(&stamp).is_ok() && seen.insert(stamp) {
                round_trips.push(received.received.as_nanos() - stamp);
            }
        }
    };
    let start = Instant::now();
    // Like a control loop: sleep to the tick, look at what came, publish. The round trip is
    // timed by the DDS thread's arrival stamp, so how often this thread looks does not change
    // it; it only decides which answers are seen (the newest wins), while every arrival counts.
    for i in 0..count {
        let tick = start + period * u32::try_from(i).unwrap();
        if let Some(wait) = tick.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        look(&mut states, &sent, &mut round_trips);
        sent.push(publish(&mut commands, i as f64));
    }
    std::thread::sleep(Duration::from_millis(300));
    look(&mut states, &sent, &mut round_trips);
    let arrivals = states
        .counters()
        .transferred
        .load(std::sync::atomic::Ordering::Relaxed)
        - arrivals_before;
    round_trips.sort_unstable();
    let percentile = |p: f64| {
        round_trips
            .get(((round_trips.len() as f64 - 1.0) * p).round() as usize)
            .map_or(f64::NAN, |ns| *ns as f64 / 1e3)
    };
    println!(
        "{{\"side\": \"ros2-dds\", \"rate_hz\": {rate}, \"sent\": {count}, \"answers_arrived\": {arrivals}, \
         \"timed\": {}, \"p50_us\": {:.1}, \"p99_us\": {:.1}, \"max_us\": {:.1}, \"commands_overwritten\": {}}}",
        round_trips.len(),
        percentile(0.5),
        percentile(0.99),
        percentile(1.0),
        commands
            .counters()
            .overwritten
            .load(std::sync::atomic::Ordering::Relaxed),
    );
}
