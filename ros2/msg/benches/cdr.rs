//! CDR encode + decode of a 14-joint `sensor_msgs/JointState` (lite_biped's joint names,
//! position, velocity and effort), as the DDS thread does them for every command and state.
//! Target: at most 1 µs for the pair. `decode` builds a new message (14 strings and 4 arrays
//! allocated); `decode_into` decodes into the previous one, reusing its buffers, which is what
//! the DDS thread does with every state.
//!
//! ```sh
//! cargo bench -p ros2-msg --bench cdr
//! ```
#![allow(clippy::unwrap_used)] // bench code: a panic is the failure report

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ros2_msg::cdr;
use ros2_msg::msg::{Header, JointState, Time};

fn joint_state() -> JointState {
    let name: Vec<String> = ["left", "right"]
        .iter()
        .flat_map(|side| {
            [
                "hip_pitch",
                "hip_roll",
                "hip_yaw",
                "knee_pitch",
                "ankle_yaw",
                "ankle_pitch",
                "ankle_roll",
            ]
            .map(|j| format!("{side}_{j}"))
        })
        .collect();
    let values = |k: f64| {
        (0..14)
            .map(|i| k * f64::from(i) + 0.125)
            .collect::<Vec<_>>()
    };
    JointState {
        header: Header {
            stamp: Time {
                sec: 1_700_000_000,
                nanosec: 123_456_789,
            },
            frame_id: String::new(),
        },
        name,
        position: values(0.1),
        velocity: values(-0.2),
        effort: values(1.5),
    }
}

fn bench(c: &mut Criterion) {
    let message = joint_state();
    let mut bytes = Vec::with_capacity(1024);
    cdr::encode(&message, &mut bytes);
    assert_eq!(cdr::decode::<JointState>(&bytes).unwrap(), message);
    let mut group = c.benchmark_group("cdr");
    group.bench_function("encode/joint_state_14", |b| {
        b.iter(|| cdr::encode(black_box(&message), &mut bytes))
    });
    group.bench_function("decode/joint_state_14", |b| {
        b.iter(|| cdr::decode::<JointState>(black_box(&bytes)).unwrap())
    });
    group.bench_function("encode_decode/joint_state_14", |b| {
        b.iter(|| {
            cdr::encode(black_box(&message), &mut bytes);
            cdr::decode::<JointState>(black_box(&bytes)).unwrap()
        })
    });
    // As the DDS thread decodes: into the message it decoded last time, reusing its buffers.
    let mut into = message.clone();
    group.bench_function("decode_into/joint_state_14", |b| {
        b.iter(|| cdr::decode_into(black_box(&bytes), &mut into).unwrap())
    });
    group.bench_function("encode_decode_into/joint_state_14", |b| {
        b.iter(|| {
            cdr::encode(black_box(&message), &mut bytes);
            cdr::decode_into(black_box(&bytes), &mut into).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
