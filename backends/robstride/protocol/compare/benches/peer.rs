//! Ours against K-Scale's `robstride` 0.3.6 on the same work, an RS04 at the same setpoint and
//! feedback: an MIT command from physical units to a frame, and a feedback frame to physical
//! units. The peer's path is its public API: `RobStride04Command::to_control_command` then
//! `ControlCommand::to_can_packet` to encode; to decode, `Command::from_can_packet` then
//! `Command::to_frame`, whose `Frame::Feedback` holds percent of range, then percent to physical
//! units with the peer's RS04 limits (its `RobStride04Feedback::from_feedback_frame` sits behind
//! the crate-private trait `TypedFeedbackData`, so a user cannot call it). The
//! `decode_feedback_percent` row stops at percent: `FeedbackFrame::from_command`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use robstride::robstride04::RobStride04Command;
use robstride::{
    Command, CommandData, ControlCommand, FeedbackFrame, Frame as PeerFrame, TypedCommandData,
};
use robstride_protocol::{Feedback, Frame, Mit, MitCommand, RobstrideModel};

const MOTOR: u8 = 0x7F;
const FEEDBACK_ID: u32 = 0x0280_7FFD;
const FEEDBACK_DATA: [u8; 8] = [0x8A, 0x3D, 0x7F, 0x10, 0x81, 0x00, 0x01, 0x2C];
const OUR_FEEDBACK: Frame = Frame::extended(FEEDBACK_ID, FEEDBACK_DATA);
// position, velocity, kp, kd, torque
const SETPOINT: (f32, f32, f32, f32, f32) = (1.25, -0.5, 120.0, 2.5, 3.0);

/// The peer's RS04 limits (`robstride04.rs` `LIMITS`): ±4π rad, ±15 rad/s, ±120 N·m.
fn peer_physical(cmd: Command) -> Option<(f32, f32, f32, f32)> {
    const SCALE: [f32; 3] = [
        4.0 * std::f32::consts::PI / 100.0,
        15.0 / 100.0,
        120.0 / 100.0,
    ];
    match cmd.to_frame() {
        Ok(PeerFrame::Feedback(f)) => Some((
            f.angle * SCALE[0],
            f.velocity * SCALE[1],
            f.torque * SCALE[2],
            f.temperature,
        )),
        _ => None,
    }
}

fn ours(c: &mut Criterion) {
    c.bench_function("ours/encode_mit", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box(SETPOINT);
            MitCommand::new(Mit { position: f64::from(p), velocity: f64::from(v), stiffness: f64::from(kp), damping: f64::from(kd), effort: f64::from(t) }).map(|m| m.encode(RobstrideModel::RS04, black_box(MOTOR)))
        })
    });
    c.bench_function("ours/decode_feedback", |b| {
        b.iter(|| Feedback::decode(black_box(&OUR_FEEDBACK), RobstrideModel::RS04))
    });
    c.bench_function("ours/encode_and_decode", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box(SETPOINT);
            let sent = MitCommand::new(Mit { position: f64::from(p), velocity: f64::from(v), stiffness: f64::from(kp), damping: f64::from(kd), effort: f64::from(t) }).map(|m| m.encode(RobstrideModel::RS04, MOTOR));
            (
                sent,
                Feedback::decode(black_box(&OUR_FEEDBACK), RobstrideModel::RS04),
            )
        })
    });
}

fn peer(c: &mut Criterion) {
    let command = |p, v, kp, kd, t| RobStride04Command {
        target_angle_rad: p,
        target_velocity_rads: v,
        kp,
        kd,
        torque_nm: t,
    };
    c.bench_function("peer/encode_mit", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box(SETPOINT);
            command(p, v, kp, kd, t)
                .to_control_command()
                .to_can_packet(black_box(MOTOR))
        })
    });
    c.bench_function("peer/decode_feedback_percent", |b| {
        b.iter(|| {
            let cmd = Command::from_can_packet(black_box(FEEDBACK_ID), FEEDBACK_DATA.to_vec());
            FeedbackFrame::from_command(cmd)
        })
    });
    c.bench_function("peer/decode_feedback", |b| {
        b.iter(|| {
            let cmd = Command::from_can_packet(black_box(FEEDBACK_ID), FEEDBACK_DATA.to_vec());
            peer_physical(cmd)
        })
    });
    c.bench_function("peer/encode_and_decode", |b| {
        b.iter(|| {
            let (p, v, kp, kd, t) = black_box(SETPOINT);
            let sent: (u32, Vec<u8>) = ControlCommand::to_can_packet(
                &command(p, v, kp, kd, t).to_control_command(),
                MOTOR,
            );
            let cmd = Command::from_can_packet(black_box(FEEDBACK_ID), FEEDBACK_DATA.to_vec());
            (sent, peer_physical(cmd))
        })
    });
}

criterion_group!(benches, ours, peer);
criterion_main!(benches);
