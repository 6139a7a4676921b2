//! One frame of each type, written out by hand from the documented formulas
//! (`docs/witmotion-protocol.md` §2), decoded, and encoded back from SI values.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use core::f32::consts::{FRAC_PI_2, PI};

use witmotion_protocol::scale::STANDARD_GRAVITY;
use witmotion_protocol::{
    Acceleration, Angle, AngularVelocity, DecodeError, EncodeError, Field, Frame, FrameError,
    FrameKind, MagneticField, Quaternion, Reading, Time,
};

fn decode(bytes: [u8; 11]) -> Reading {
    let frame = Frame::from_bytes(&bytes).unwrap();
    assert_eq!(frame.encode(), bytes, "re-encoding gives the same bytes");
    Reading::decode(&frame).unwrap()
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn acceleration_is_word_over_32768_times_16_g() {
    // Words 2048, -2048, 16384: 1 g, -1 g, 8 g; temperature 2500: 25.00 °C.
    // Sum 0x55+0x51+0x08+0xF8+0x40+0xC4+0x09 = 0x2B3.
    let bytes = [
        0x55, 0x51, 0x00, 0x08, 0x00, 0xF8, 0x00, 0x40, 0xC4, 0x09, 0xB3,
    ];
    let Reading::Acceleration(a) = decode(bytes) else {
        panic!()
    };
    assert_eq!(a.x, STANDARD_GRAVITY);
    assert_eq!(a.y, -STANDARD_GRAVITY);
    assert_eq!(a.z, 8.0 * STANDARD_GRAVITY);
    assert_eq!(a.temperature, 25.0);
}

#[test]
fn angular_velocity_is_word_over_32768_times_2000_degrees_per_second() {
    // 16384: 1000 °/s; -32768: -2000 °/s; 164: 10.009766 °/s; fourth word -1050: -10.5 °C.
    let bytes = [
        0x55, 0x52, 0x00, 0x40, 0x00, 0x80, 0xA4, 0x00, 0xE6, 0xFB, 0xEC,
    ];
    let Reading::AngularVelocity(w) = decode(bytes) else {
        panic!()
    };
    let rad = PI / 180.0;
    assert!(close(w.x, 1000.0 * rad, 1e-5), "{}", w.x);
    assert!(close(w.y, -2000.0 * rad, 1e-5), "{}", w.y);
    assert!(close(w.z, 164.0 / 32768.0 * 2000.0 * rad, 1e-6), "{}", w.z);
    assert_eq!(w.temperature, -10.5);
}

#[test]
fn angle_is_word_over_32768_times_180_degrees_and_the_fourth_word_the_version() {
    // 16384: 90°; -32768: -180°; -5461: -29.9982°; version 0x46EB = 18155.
    let bytes = [
        0x55, 0x53, 0x00, 0x40, 0x00, 0x80, 0xAB, 0xEA, 0xEB, 0x46, 0x2E,
    ];
    let Reading::Angle(a) = decode(bytes) else {
        panic!()
    };
    assert_eq!(a.roll, FRAC_PI_2);
    assert_eq!(a.pitch, -PI);
    assert!(close(a.yaw, -5461.0 / 32768.0 * PI, 1e-7));
    assert_eq!(a.version, 18155);
}

#[test]
fn magnetic_field_stays_in_counts() {
    let bytes = [
        0x55, 0x54, 0xCB, 0x00, 0x61, 0x0A, 0x31, 0xEE, 0x10, 0x0C, 0x1A,
    ];
    let Reading::MagneticField(m) = decode(bytes) else {
        panic!()
    };
    assert_eq!((m.x, m.y, m.z, m.temperature), (203, 2657, -4559, 30.88));
}

#[test]
fn quaternion_words_are_w_x_y_z_over_32768_and_normalised() {
    // w = z = 23170/32768 = 0.707092: a yaw of 90°, norm 0.99998 before normalising.
    let bytes = [
        0x55, 0x59, 0x82, 0x5A, 0x00, 0x00, 0x00, 0x00, 0x82, 0x5A, 0x66,
    ];
    let Reading::Quaternion(q) = decode(bytes) else {
        panic!()
    };
    assert_eq!((q.x, q.y), (0.0, 0.0));
    assert!(close(q.w, core::f32::consts::FRAC_1_SQRT_2, 1e-7) && q.z == q.w);
    assert!(q.angle_to(Quaternion::from_euler(0.0, 0.0, FRAC_PI_2)) < 1e-3);
}

#[test]
fn a_quaternion_frame_of_zeros_is_rejected() {
    let bytes = [
        0x55, 0x59, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAE,
    ];
    let frame = Frame::from_bytes(&bytes).unwrap();
    assert_eq!(Reading::decode(&frame), Err(DecodeError::QuaternionNorm));
    // Nor one whose w a corrupted high byte has pushed 256 counts off (norm 1.0055)…
    let off = Frame::from_words(FrameKind::Quaternion, [23170 + 256, 0, 0, 23170]);
    assert_eq!(Reading::decode(&off), Err(DecodeError::QuaternionNorm));
    // The edge of the tolerance still normalises to within 1.5e-6.
    let edge = Frame::from_words(FrameKind::Quaternion, [23170 + 45, 0, 0, 23170]);
    let Ok(Reading::Quaternion(q)) = Reading::decode(&edge) else {
        panic!()
    };
    assert!((q.norm() - 1.0).abs() < 1.5e-6, "{}", q.norm());
    // The check is coarse: the same error on a component near 0 moves the norm by 3e-5.
    let unseen = Frame::from_words(FrameKind::Quaternion, [23170, 0, 256, 23170]);
    assert!(Reading::decode(&unseen).is_ok());
}

#[test]
fn time_is_kept_as_sent() {
    // 2024-05-07 17:07:04.500.
    let bytes = [
        0x55, 0x50, 0x18, 0x05, 0x07, 0x11, 0x07, 0x04, 0xF4, 0x01, 0xDA,
    ];
    let Reading::Time(t) = decode(bytes) else {
        panic!()
    };
    let expected = Time {
        year: 24,
        month: 5,
        day: 7,
        hour: 17,
        minute: 7,
        second: 4,
        millisecond: 500,
    };
    assert_eq!(t, expected);
    assert_eq!(expected.encode().encode(), bytes);
}

#[test]
fn register_values_are_four_words() {
    let bytes = [
        0x55, 0x5F, 0x1E, 0x00, 0x06, 0x00, 0x02, 0x00, 0xFF, 0xFF, 0xD8,
    ];
    assert_eq!(
        decode(bytes),
        Reading::RegisterValues([0x1E, 0x06, 0x02, 0xFFFF])
    );
}

#[test]
fn types_kept_raw_are_named() {
    let bytes = [
        0x55, 0x56, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAB,
    ];
    let frame = Frame::from_bytes(&bytes).unwrap();
    assert_eq!(
        Reading::decode(&frame),
        Err(DecodeError::NotDecoded {
            kind: FrameKind::Pressure
        })
    );
}

#[test]
fn malformed_frames_are_named() {
    let good = [
        0x55, 0x56, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAB,
    ];
    let mut bad = good;
    bad[0] = 0x54;
    assert_eq!(
        Frame::from_bytes(&bad),
        Err(FrameError::Header { found: 0x54 })
    );
    let mut bad = good;
    bad[1] = 0x5B;
    assert_eq!(
        Frame::from_bytes(&bad),
        Err(FrameError::UnknownType { found: 0x5B })
    );
    let mut bad = good;
    bad[5] ^= 0x10;
    assert_eq!(
        Frame::from_bytes(&bad),
        Err(FrameError::Checksum {
            expected: 0xBB,
            found: 0xAB
        })
    );
}

#[test]
fn si_values_encode_to_the_nearest_word_and_saturate() {
    let a = Acceleration {
        x: STANDARD_GRAVITY,
        y: -20.0 * STANDARD_GRAVITY,
        z: 100.0,
        temperature: 36.004,
    };
    let frame = Reading::Acceleration(a).encode().unwrap();
    assert_eq!(frame.words(), [2048, i16::MIN, 20884, 3600]);

    let w = AngularVelocity {
        x: 2000.0f32.to_radians(),
        y: 0.0,
        z: -1.0,
        temperature: 0.0,
    };
    let words = Reading::AngularVelocity(w).encode().unwrap().words();
    assert_eq!(words[..2], [i16::MAX, 0]);
    assert_eq!(
        words[2],
        (-1.0f32.to_degrees() / 2000.0 * 32768.0).round() as i16
    );

    let angle = Angle {
        roll: PI,
        pitch: -FRAC_PI_2,
        yaw: 5.0 * FRAC_PI_2,
        version: 7,
    };
    let words = Reading::Angle(angle).encode().unwrap().words();
    assert_eq!(words, [i16::MIN, -16384, 16384, 7], "angles wrap");

    let m = MagneticField {
        x: -1,
        y: 2,
        z: 3,
        temperature: -40.0,
    };
    assert_eq!(
        Reading::MagneticField(m).encode().unwrap().words(),
        [-1, 2, 3, -4000]
    );

    let q = Quaternion::from_euler(0.0, 0.0, FRAC_PI_2);
    assert_eq!(
        Reading::Quaternion(q).encode().unwrap().words(),
        [23170, 0, 0, 23170]
    );
    assert_eq!(
        Reading::Quaternion(Quaternion::IDENTITY)
            .encode()
            .unwrap()
            .words(),
        [i16::MAX, 0, 0, 0],
        "w = 1 saturates one count short"
    );
}

#[test]
fn non_finite_values_are_refused_by_name() {
    let a = Acceleration {
        y: f32::NAN,
        ..Acceleration::default()
    };
    assert_eq!(
        Reading::Acceleration(a).encode(),
        Err(EncodeError::NonFinite { field: Field::Y })
    );
    let angle = Angle {
        yaw: f32::INFINITY,
        ..Angle::default()
    };
    assert_eq!(
        Reading::Angle(angle).encode(),
        Err(EncodeError::NonFinite { field: Field::Yaw })
    );
    let q = Quaternion::new(0.0, 0.0, 0.0, f32::NAN);
    assert_eq!(
        Reading::Quaternion(q).encode(),
        Err(EncodeError::NonFinite { field: Field::W })
    );
}

#[test]
fn every_decoded_reading_encodes_back_to_its_frame() {
    for words in [[1, -2, 3, -4], [i16::MAX, i16::MIN, 0, 2500], [0, 0, 0, 0]] {
        for kind in [
            FrameKind::Acceleration,
            FrameKind::AngularVelocity,
            FrameKind::Angle,
            FrameKind::MagneticField,
            FrameKind::RegisterValues,
        ] {
            let frame = Frame::from_words(kind, words);
            let reading = Reading::decode(&frame).unwrap();
            assert_eq!(reading.kind(), kind);
            assert_eq!(reading.encode().unwrap(), frame, "{kind:?} {words:?}");
        }
    }
}
