//! One frame to and from physical units: an MIT command encoded, a feedback frame decoded, and
//! both (the target is ≤ 30 ns; a frame takes 131–160 µs on a 1 Mbit/s wire). The comparison
//! with K-Scale's `robstride` crate is `compare/benches/peer.rs`, kept out of the workspace.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use robstride_protocol::{Feedback, Frame, Mit, MitCommand, Reply, RobstrideModel};

const FEEDBACK: Frame = Frame::extended(
    0x0280_7FFD,
    [0x8A, 0x3D, 0x7F, 0x10, 0x81, 0x00, 0x01, 0x2C],
);

fn codec(c: &mut Criterion) {
    c.bench_function("encode_mit", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box((1.25f32, -0.5f32, 120.0f32, 2.5f32, 3.0f32));
            MitCommand::new(Mit {
                position: f64::from(p),
                velocity: f64::from(v),
                stiffness: f64::from(kp),
                damping: f64::from(kd),
                effort: f64::from(t),
            })
            .map(|m| m.encode(RobstrideModel::RS04, black_box(0x7F)))
        })
    });
    c.bench_function("decode_feedback", |b| {
        b.iter(|| Feedback::decode(black_box(&FEEDBACK), RobstrideModel::RS04))
    });
    c.bench_function("decode_reply", |b| {
        b.iter(|| Reply::decode(black_box(&FEEDBACK)))
    });
    c.bench_function("encode_and_decode", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box((1.25f32, -0.5f32, 120.0f32, 2.5f32, 3.0f32));
            let sent = MitCommand::new(Mit {
                position: f64::from(p),
                velocity: f64::from(v),
                stiffness: f64::from(kp),
                damping: f64::from(kd),
                effort: f64::from(t),
            })
            .map(|m| m.encode(RobstrideModel::RS04, 0x7F));
            (
                sent,
                Feedback::decode(black_box(&FEEDBACK), RobstrideModel::RS04),
            )
        })
    });
}

criterion_group!(benches, codec);
criterion_main!(benches);
