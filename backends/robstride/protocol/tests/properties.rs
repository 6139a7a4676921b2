//! Property tests: encode → decode within one LSB over each model's range, and a decoder that
//! takes any frame without panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use embedded_can::{ExtendedId, Frame as _, Id, StandardId};
use proptest::prelude::*;
use robstride_protocol::Code16;
use robstride_protocol::{Feedback, Frame, Mit, MitCommand, Range, Reply, RobstrideModel};

fn model() -> impl Strategy<Value = RobstrideModel> {
    proptest::sample::select(RobstrideModel::ALL.to_vec())
}

/// A value in `r`, or somewhat beyond it to exercise the clamp.
fn in_or_near(r: Range) -> impl Strategy<Value = f32> {
    let span = r.max() - r.min();
    prop_oneof![
        8 => r.min()..=r.max(),
        1 => (r.min() - span)..=(r.max() + span),
        1 => proptest::sample::select(vec![r.min(), r.max(), 0.0]),
    ]
}

/// Within one LSB of the clamped value (and a few f32 ulps of the range's end for rounding).
fn assert_within_one_lsb(r: Range, x: f32, decoded: f32, what: &str) {
    let expected = r.clamp(x);
    let tolerance = r.lsb() + 4.0 * f32::EPSILON * r.max().abs().max(r.min().abs());
    assert!(
        (decoded - expected).abs() <= tolerance,
        "{what}: {x} → {decoded}, off by {} > {tolerance}",
        (decoded - expected).abs()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn every_range_round_trips_within_one_lsb(m in model(), which in 0..5usize, t in 0.0f32..=1.0, beyond in -1.0f32..=1.0) {
        let s = m.scaling();
        let r = [s.position, s.velocity, s.torque, s.kp, s.kd][which];
        let x = if beyond.abs() < 0.8 { r.min() + t * (r.max() - r.min()) } else { beyond * 2.0 * r.max() };
        let u = r.encode(x).unwrap();
        // Exactly the manual's formula, in f32 and truncated.
        let manual = ((r.clamp(x) - r.min()) * 65535.0 / (r.max() - r.min())) as u16;
        prop_assert_eq!(u, manual);
        assert_within_one_lsb(r, x, r.decode(u), m.name());
    }

    #[test]
    fn decoding_then_encoding_a_code_moves_it_at_most_one(m in model(), which in 0..5usize, u: u16) {
        let s = m.scaling();
        let r = [s.position, s.velocity, s.torque, s.kp, s.kd][which];
        let back = r.encode(r.decode(u)).unwrap();
        prop_assert!(u.abs_diff(back) <= 1, "{} {u:#06x} → {back:#06x}", m.name());
    }

    #[test]
    fn a_mit_command_reads_back_within_one_lsb_through_feedback(
        (m, p, v, t) in model().prop_flat_map(|m| {
            let s = m.scaling();
            (Just(m), in_or_near(s.position), in_or_near(s.velocity), in_or_near(s.torque))
        }),
        motor: u8,
    ) {
        // The type-1 codes, carried back in a type-2 frame, decode to the setpoint within 1 LSB.
        let frame = MitCommand::new(Mit { position: f64::from(p), velocity: f64::from(v), stiffness: 1.0, damping: 1.0, effort: f64::from(t) }).unwrap().encode(m, motor);
        let id = frame.extended_id().unwrap();
        let torque = ((id >> 8) as u16).to_be_bytes();
        let d = frame.data();
        let feedback = Frame::extended(
            (2 << 24) | (2 << 22) | (u32::from(motor) << 8) | 0xFD,
            [d[0], d[1], d[2], d[3], torque[0], torque[1], 0, 0],
        );
        let f = Feedback::decode(&feedback, m).unwrap();
        prop_assert_eq!(f.motor, motor);
        let s = m.scaling();
        assert_within_one_lsb(s.position, p, f.position, "position");
        assert_within_one_lsb(s.velocity, v, f.velocity, "velocity");
        assert_within_one_lsb(s.torque, t, f.torque, "torque");
    }

    #[test]
    fn any_frame_decodes_or_is_rejected_without_panic(
        id: u32, extended: bool, remote: bool, len in 0..=8usize, data: [u8; 8], m in model()
    ) {
        let id: Id = if extended {
            ExtendedId::new(id & Frame::MAX_EXTENDED_ID).unwrap().into()
        } else {
            StandardId::new((id & 0x7FF) as u16).unwrap().into()
        };
        let frame = if remote { Frame::new_remote(id, len).unwrap() } else { Frame::new(id, &data[..len]).unwrap() };
        let ok = Reply::decode(&frame).is_ok();
        if let Ok(f) = Feedback::decode(&frame, m) {
            prop_assert!(ok);
            prop_assert!(f.position.is_finite() && f.velocity.is_finite() && f.torque.is_finite());
        }
        if ok {
            prop_assert!(extended && !remote && len == 8);
        }
    }
}
