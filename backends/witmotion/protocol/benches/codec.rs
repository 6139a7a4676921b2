//! One frame's 11 bytes to SI units (target ≤ 20 ns; a frame takes 95 µs on the wire at
//! 115200 baud), and the parser's throughput on a stream where 10 % of the bytes are garbage
//! (target ≥ 100 MB/s; the fastest device sends 92 kB/s at 921600 baud).
#![allow(missing_docs)]
#![allow(clippy::expect_used)] // bench setup: a panic is the failure report

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use witmotion_protocol::{
    Acceleration, Angle, AngularVelocity, Frame, Parser, Quaternion, Reading,
};

/// Frames a WTGAHRS2 sent (tests/captures.rs).
const ACCELERATION: [u8; 11] = [
    0x55, 0x51, 0x32, 0x00, 0x69, 0x00, 0x01, 0x08, 0x10, 0x0C, 0x66,
];
const QUATERNION: [u8; 11] = [
    0x55, 0x59, 0x9C, 0x7F, 0x6F, 0x03, 0xAF, 0xFE, 0x32, 0x09, 0x23,
];

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// About 1 MB: the four IMU frame types in turn, and random garbage bytes making up 10 % of
/// the stream, in runs of 1–8 between frames.
fn stream_with_garbage() -> Vec<u8> {
    let mut rng = XorShift(0x0BAD_5EED_1234_5678);
    let frames = [
        Reading::Acceleration(Acceleration {
            x: 0.1,
            y: -0.2,
            z: 9.8,
            temperature: 31.5,
        }),
        Reading::AngularVelocity(AngularVelocity {
            x: 0.01,
            y: 0.5,
            z: -1.0,
            temperature: 31.5,
        }),
        Reading::Angle(Angle {
            roll: 0.1,
            pitch: -0.05,
            yaw: 2.0,
            version: 18155,
        }),
        Reading::Quaternion(Quaternion::from_euler(0.1, -0.05, 2.0)),
    ]
    .map(|r| r.encode().expect("finite").encode());
    let mut stream = Vec::with_capacity(1 << 20);
    let (mut frame_bytes, mut garbage) = (0usize, 0usize);
    while stream.len() < 1_000_000 {
        stream.extend_from_slice(&frames[stream.len() % 4]);
        frame_bytes += 11;
        // Keep garbage at 10 % of the total: 1 garbage byte per 9 frame bytes.
        while garbage * 9 < frame_bytes {
            let run = 1 + (rng.next() % 8) as usize;
            for _ in 0..run {
                stream.push(rng.next() as u8);
            }
            garbage += run;
        }
    }
    stream
}

fn codec(c: &mut Criterion) {
    c.bench_function("decode_acceleration_frame", |b| {
        b.iter(|| Frame::from_bytes(black_box(&ACCELERATION)).map(|f| Reading::decode(&f)))
    });
    c.bench_function("decode_quaternion_frame", |b| {
        b.iter(|| Frame::from_bytes(black_box(&QUATERNION)).map(|f| Reading::decode(&f)))
    });
    c.bench_function("angles_to_quaternion", |b| {
        b.iter(|| Quaternion::from_euler(black_box(0.1), black_box(-0.05), black_box(2.0)))
    });

    let stream = stream_with_garbage();
    let mut group = c.benchmark_group("parser");
    group.throughput(Throughput::Bytes(stream.len() as u64));
    group.bench_function("stream_10_percent_garbage_4k_chunks", |b| {
        b.iter(|| {
            let mut parser = Parser::new();
            let mut frames = 0u32;
            for chunk in black_box(&stream).chunks(4096) {
                frames += parser.push(chunk).count() as u32;
            }
            (frames, parser.counters())
        })
    });
    group.bench_function("stream_10_percent_garbage_decoded", |b| {
        b.iter(|| {
            let mut parser = Parser::new();
            let mut z = 0.0f32;
            for chunk in black_box(&stream).chunks(4096) {
                for frame in parser.push(chunk) {
                    if let Ok(Reading::Acceleration(a)) = Reading::decode(&frame) {
                        z += a.z;
                    }
                }
            }
            z
        })
    });
    group.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
