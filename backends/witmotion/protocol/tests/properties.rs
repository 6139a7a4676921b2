//! Property tests: the parser over random byte streams cut anywhere (nothing panics, every frame
//! has a valid checksum and is where the reference finds it, frames embedded in garbage are all
//! found), SI values round-tripping within half a word, commands, quaternions.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{assert_accounted, parse_in_chunks, reference_parse};
use core::f32::consts::{FRAC_PI_2, PI};
use proptest::prelude::*;
use witmotion_protocol::scale::{
    ACCELERATION_PER_WORD, ANGLE_PER_WORD, ANGULAR_VELOCITY_PER_WORD, STANDARD_GRAVITY,
};
use witmotion_protocol::{
    Acceleration, Angle, AngularVelocity, Command, Frame, FrameKind, HEADER, Quaternion, Reading,
};

/// Bytes that make candidates often: headers and documented types as well as anything.
fn stream_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => any::<u8>(),
        2 => Just(HEADER),
        2 => 0x50u8..=0x5F,
    ]
}

fn kind() -> impl Strategy<Value = FrameKind> {
    proptest::sample::select(FrameKind::ALL.to_vec())
}

fn frame() -> impl Strategy<Value = Frame> {
    (kind(), any::<[u8; 8]>()).prop_map(|(kind, data)| Frame::new(kind, data))
}

/// The largest multiple of 16 (g, or 1999/16 °/s) a word holds: 32767 of 32768 steps.
const TOP: f32 = 16.0 * 32767.0 / 32768.0;

/// Half a word, and the rounding of an f32 of this size.
fn half_word(per_word: f32, value: f32) -> f32 {
    0.5 * per_word + 8.0 * f32::EPSILON * value.abs()
}

fn is_in(frame: &Frame, stream: &[u8]) -> bool {
    stream.windows(11).any(|w| w == frame.encode())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn any_stream_cut_anywhere_parses_as_the_reference(
        stream in proptest::collection::vec(stream_byte(), 0..160),
        cuts in proptest::collection::vec(0..160usize, 0..10),
    ) {
        let expected = reference_parse(&stream);
        let got = parse_in_chunks(&stream, &cuts);
        prop_assert_eq!(&got, &expected);
        let (frames, counters, pending) = got;
        assert_accounted(stream.len(), &counters, pending);
        prop_assert!(pending < 11);
        for frame in &frames {
            prop_assert!(Frame::from_bytes(&frame.encode()).is_ok(), "valid checksum");
            prop_assert!(is_in(frame, &stream));
            let _ = Reading::decode(frame);
        }
    }

    #[test]
    fn frames_in_garbage_without_headers_are_all_found(
        parts in proptest::collection::vec(
            (proptest::collection::vec(any::<u8>().prop_filter("no header", |&b| b != HEADER), 0..12), frame()),
            0..12,
        ),
        tail in proptest::collection::vec(any::<u8>().prop_filter("no header", |&b| b != HEADER), 0..12),
        cuts in proptest::collection::vec(0..300usize, 0..10),
    ) {
        let mut stream = Vec::new();
        let mut garbage = tail.len();
        for (noise, frame) in &parts {
            stream.extend(noise);
            stream.extend(frame.encode());
            garbage += noise.len();
        }
        stream.extend(&tail);
        let (frames, counters, pending) = parse_in_chunks(&stream, &cuts);
        let sent: Vec<Frame> = parts.iter().map(|(_, f)| *f).collect();
        prop_assert_eq!(frames, sent);
        prop_assert_eq!(counters.skipped_bytes as usize, garbage);
        prop_assert_eq!(pending, 0);
    }

    #[test]
    fn frames_after_any_garbage_are_found_once_it_is_behind(
        noise in proptest::collection::vec(stream_byte(), 0..40),
        frames in proptest::collection::vec(frame(), 1..6),
    ) {
        // Whatever the garbage did, a frame starting 11 bytes or more after its end is found:
        // no candidate reaches past it without being a frame the reference also finds.
        let mut stream = noise.clone();
        stream.extend(frames.iter().flat_map(|f| f.encode()));
        let (found, _, _) = parse_in_chunks(&stream, &[noise.len() / 2]);
        let (reference, _, _) = reference_parse(&stream);
        prop_assert_eq!(&found, &reference);
        prop_assert!(found.ends_with(&frames[1..]), "{found:?}");
    }

    // Up to the top word, 16 g · 32767/32768: above it a value saturates (scale.rs's
    // `words_saturate_and_angles_wrap`), and is off by more than half a word.
    #[test]
    fn vectors_round_trip_within_half_a_word(
        x in -16.0f32..TOP, y in -16.0f32..TOP, z in -16.0f32..TOP, t in -300.0f32..300.0,
    ) {
        let a = Acceleration { x: x * STANDARD_GRAVITY, y: y * STANDARD_GRAVITY, z: z * STANDARD_GRAVITY, temperature: t };
        let Reading::Acceleration(back) = Reading::decode(&Reading::Acceleration(a).encode().unwrap()).unwrap() else { panic!() };
        for (sent, got) in [(a.x, back.x), (a.y, back.y), (a.z, back.z)] {
            prop_assert!((sent - got).abs() <= half_word(ACCELERATION_PER_WORD, sent), "{sent} {got}");
        }
        prop_assert!((a.temperature - back.temperature).abs() <= half_word(0.01, t));
        let rad = PI / 180.0 * 1999.0 / 16.0;
        let w = AngularVelocity { x: x * rad, y: y * rad, z: z * rad, temperature: t };
        let Reading::AngularVelocity(back) = Reading::decode(&Reading::AngularVelocity(w).encode().unwrap()).unwrap() else { panic!() };
        for (sent, got) in [(w.x, back.x), (w.y, back.y), (w.z, back.z)] {
            prop_assert!((sent - got).abs() <= half_word(ANGULAR_VELOCITY_PER_WORD, sent), "{sent} {got}");
        }
    }

    #[test]
    fn angles_round_trip_within_half_a_word_modulo_a_turn(
        roll in -10.0f32..10.0, pitch in -FRAC_PI_2..FRAC_PI_2, yaw in -10.0f32..10.0, version: u16,
    ) {
        let a = Angle { roll, pitch, yaw, version };
        let Reading::Angle(back) = Reading::decode(&Reading::Angle(a).encode().unwrap()).unwrap() else { panic!() };
        for (sent, got) in [(roll, back.roll), (pitch, back.pitch), (yaw, back.yaw)] {
            let off = (sent - got).rem_euclid(2.0 * PI);
            let off = off.min(2.0 * PI - off);
            prop_assert!(off <= half_word(ANGLE_PER_WORD, 2.0 * PI + sent.abs()), "{sent} {got}");
            prop_assert!((-PI..PI).contains(&got));
        }
        prop_assert_eq!(back.version, version);
        prop_assert!(a.to_quaternion().angle_to(back.to_quaternion()) < 1e-3);
    }

    #[test]
    fn quaternions_round_trip_and_keep_their_orientation(
        roll in -PI..PI, pitch in -1.5f32..1.5, yaw in -PI..PI,
    ) {
        let q = Quaternion::from_euler(roll, pitch, yaw);
        prop_assert!((q.norm() - 1.0).abs() < 1e-5);
        let Reading::Quaternion(back) = Reading::decode(&Reading::Quaternion(q).encode().unwrap()).unwrap() else { panic!() };
        prop_assert!(q.angle_to(back) < 2e-4, "{q:?} {back:?}");
        prop_assert!((back.norm() - 1.0).abs() < 1e-6, "{back:?}");
        let (r, p, y) = q.to_euler();
        prop_assert!(Quaternion::from_euler(r, p, y).angle_to(q) < 1e-3);
        let v = [0.3, -1.0, 2.0];
        let turned = q.rotate(v);
        let length = |v: [f32; 3]| v.iter().map(|c| c * c).sum::<f32>().sqrt();
        prop_assert!((length(turned) - length(v)).abs() < 1e-4);
        let back_again = q.conjugate().rotate(turned);
        prop_assert!(back_again.iter().zip(v).all(|(a, b)| (a - b).abs() < 1e-4));
    }

    #[test]
    fn any_five_bytes_decode_or_are_refused(bytes: [u8; 5], header: bool) {
        let mut bytes = bytes;
        if header {
            bytes[..2].copy_from_slice(&[0xFF, 0xAA]);
        }
        if let Ok(command) = Command::decode(&bytes) {
            prop_assert_eq!(command.encode(), bytes);
        }
    }
}
