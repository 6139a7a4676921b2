//! Real devices: raw frames a WTGAHRS2 sent, and readings WitMotion's own SDK recorded. They fix
//! what no datasheet states plainly: the quaternion frame sends w first, the Euler angles are
//! intrinsic Z-Y-X (q = q_z(yaw)·q_y(pitch)·q_x(roll)), and the accelerometer reads +1 g up.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use witmotion_protocol::scale::{ANGLE_PER_WORD, QUATERNION_PER_WORD, STANDARD_GRAVITY};
use witmotion_protocol::{Angle, Frame, FrameKind, Parser, Quaternion, Reading};

/// 32 consecutive frames from a WTGAHRS2 lying still, as printed in `README.md` ("Debugging")
/// of `heyjdp/witmotion_WTGAHRS2_c_code_linux`, commit 7f2ea95435c8fddb2252031bffcdd5801dd4dc37.
const WTGAHRS2: [[u8; 11]; 32] = [
    [
        0x55, 0x51, 0x32, 0x00, 0x69, 0x00, 0x01, 0x08, 0x10, 0x0c, 0x66,
    ],
    [
        0x55, 0x52, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0c, 0xc3,
    ],
    [
        0x55, 0x53, 0x1f, 0x02, 0x02, 0xff, 0xd6, 0x05, 0xeb, 0x46, 0xd6,
    ],
    [
        0x55, 0x54, 0xcb, 0x00, 0x61, 0x0a, 0x31, 0xee, 0x00, 0x00, 0xfe,
    ],
    [
        0x55, 0x56, 0x6b, 0x8a, 0x01, 0x00, 0xc8, 0x0b, 0x00, 0x00, 0x74,
    ],
    [
        0x55, 0x57, 0xc2, 0x57, 0xe4, 0x13, 0x63, 0x2a, 0x98, 0x14, 0xf5,
    ],
    [
        0x55, 0x58, 0x18, 0x01, 0xae, 0x2e, 0x00, 0x00, 0x00, 0x00, 0xa2,
    ],
    [
        0x55, 0x59, 0x9c, 0x7f, 0x6f, 0x03, 0xaf, 0xfe, 0x32, 0x09, 0x23,
    ],
    [
        0x55, 0x5a, 0x11, 0x00, 0x82, 0x00, 0x50, 0x00, 0x64, 0x00, 0xf6,
    ],
    [
        0x55, 0x51, 0x32, 0x00, 0x6a, 0x00, 0x00, 0x08, 0x10, 0x0c, 0x66,
    ],
    [
        0x55, 0x52, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0c, 0xc3,
    ],
    [
        0x55, 0x53, 0x1e, 0x02, 0x02, 0xff, 0xd6, 0x05, 0xeb, 0x46, 0xd5,
    ],
    [
        0x55, 0x54, 0xca, 0x00, 0x7b, 0x0a, 0x29, 0xee, 0x00, 0x00, 0x0f,
    ],
    [
        0x55, 0x56, 0x6b, 0x8a, 0x01, 0x00, 0xc8, 0x0b, 0x00, 0x00, 0x74,
    ],
    [
        0x55, 0x57, 0xc2, 0x57, 0xe4, 0x13, 0x64, 0x2a, 0x98, 0x14, 0xf6,
    ],
    [
        0x55, 0x58, 0x18, 0x01, 0xae, 0x2e, 0x00, 0x00, 0x00, 0x00, 0xa2,
    ],
    [
        0x55, 0x59, 0x9c, 0x7f, 0x6f, 0x03, 0xaf, 0xfe, 0x32, 0x09, 0x23,
    ],
    [
        0x55, 0x5a, 0x11, 0x00, 0x82, 0x00, 0x50, 0x00, 0x64, 0x00, 0xf6,
    ],
    [
        0x55, 0x51, 0x32, 0x00, 0x6c, 0x00, 0x01, 0x08, 0x11, 0x0c, 0x6a,
    ],
    [
        0x55, 0x52, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x0c, 0xc4,
    ],
    [
        0x55, 0x53, 0x1e, 0x02, 0x02, 0xff, 0xd6, 0x05, 0xeb, 0x46, 0xd5,
    ],
    [
        0x55, 0x54, 0xd0, 0x00, 0x74, 0x0a, 0x2d, 0xee, 0x00, 0x00, 0x12,
    ],
    [
        0x55, 0x56, 0x6b, 0x8a, 0x01, 0x00, 0xc8, 0x0b, 0x00, 0x00, 0x74,
    ],
    [
        0x55, 0x57, 0xc2, 0x57, 0xe4, 0x13, 0x64, 0x2a, 0x98, 0x14, 0xf6,
    ],
    [
        0x55, 0x58, 0x18, 0x01, 0xae, 0x2e, 0x00, 0x00, 0x00, 0x00, 0xa2,
    ],
    [
        0x55, 0x59, 0x9c, 0x7f, 0x6e, 0x03, 0xaf, 0xfe, 0x32, 0x09, 0x22,
    ],
    [
        0x55, 0x5a, 0x11, 0x00, 0x82, 0x00, 0x50, 0x00, 0x64, 0x00, 0xf6,
    ],
    [
        0x55, 0x51, 0x2f, 0x00, 0x6b, 0x00, 0x00, 0x08, 0x0d, 0x0c, 0x61,
    ],
    [
        0x55, 0x52, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0d, 0x0c, 0xc0,
    ],
    [
        0x55, 0x53, 0x1e, 0x02, 0x02, 0xff, 0xd6, 0x05, 0xeb, 0x46, 0xd5,
    ],
    [
        0x55, 0x54, 0xe4, 0x00, 0x7b, 0x0a, 0x2c, 0xee, 0x00, 0x00, 0x2c,
    ],
    [
        0x55, 0x56, 0x6b, 0x8a, 0x01, 0x00, 0xc8, 0x0b, 0x00, 0x00, 0x74,
    ],
];

fn decode(bytes: &[u8; 11]) -> Reading {
    Reading::decode(&Frame::from_bytes(bytes).unwrap()).unwrap()
}

#[test]
fn the_wtgahrs2_stream_parses_whole_in_any_chunking() {
    let stream: Vec<u8> = WTGAHRS2.concat();
    for chunk in 1..=stream.len() {
        let cuts: Vec<usize> = (0..stream.len()).step_by(chunk).collect();
        let (frames, counters, pending) = common::parse_in_chunks(&stream, &cuts);
        let sent: Vec<Frame> = WTGAHRS2
            .iter()
            .map(|b| Frame::from_bytes(b).unwrap())
            .collect();
        assert_eq!(frames, sent, "chunks of {chunk}");
        assert_eq!((counters.skipped_bytes, pending), (0, 0));
    }
    let mut parser = Parser::new();
    let fed: Vec<Frame> = stream.iter().filter_map(|&b| parser.feed(b)).collect();
    assert_eq!(fed.len(), 32);
}

#[test]
fn the_wtgahrs2_at_rest_reads_one_g_up_and_its_temperature_twice() {
    let Reading::Acceleration(a) = decode(&WTGAHRS2[0]) else {
        panic!()
    };
    // Words 50, 105, 2049: 0.0244 g, 0.0513 g, 1.0005 g.
    assert!((a.z / STANDARD_GRAVITY - 1.0005).abs() < 1e-4, "{a:?}");
    assert!(a.x.abs() < 0.3 && a.y.abs() < 0.6);
    assert_eq!(a.temperature, 30.88);
    let Reading::AngularVelocity(w) = decode(&WTGAHRS2[1]) else {
        panic!()
    };
    assert_eq!((w.x, w.y, w.z, w.temperature), (0.0, 0.0, 0.0, 30.88));
    let Reading::MagneticField(m) = decode(&WTGAHRS2[3]) else {
        panic!()
    };
    assert_eq!((m.x, m.y, m.z, m.temperature), (203, 2657, -4559, 0.0));
}

#[test]
fn the_wtgahrs2_quaternion_is_its_angles_in_z_y_x_order_with_w_first() {
    let Reading::Angle(angle) = decode(&WTGAHRS2[2]) else {
        panic!()
    };
    // 2.98°, -1.40°, 8.21°; version word 18155, as the repository's own decoder printed it.
    assert_eq!(angle.version, 18155);
    assert!((angle.yaw.to_degrees() - 8.2068).abs() < 1e-3);
    let Reading::Quaternion(q) = decode(&WTGAHRS2[7]) else {
        panic!()
    };
    assert!(q.w > 0.99, "w first: {q:?}");
    let from_angles = angle.to_quaternion();
    assert!(q.angle_to(from_angles) < 1e-3, "{q:?} vs {from_angles:?}");
    // The other orders are far off: x-y-z intrinsic, or the words read as x, y, z, w.
    let xyz = Quaternion::from_euler(angle.roll, 0.0, 0.0)
        * Quaternion::from_euler(0.0, angle.pitch, 0.0)
        * Quaternion::from_euler(0.0, 0.0, angle.yaw);
    assert!(q.angle_to(xyz) > 2e-3);
    let [w, x, y, z] = Frame::from_bytes(&WTGAHRS2[7]).unwrap().words();
    let misread = Quaternion::new(f32::from(w), f32::from(x), f32::from(y), f32::from(z));
    assert!(q.angle_to(misread.normalized().unwrap()) > 1.0);
}

/// Readings recorded by WitMotion's Python SDK (`WITMOTION/WitStandardProtocol_JY901`, commit
/// e498177aa3e3cf1a3c280ab1fcbf8828614fd09e, `Python/Python-WitProtocol/chs/`), first data line
/// of each file: acceleration (g), angles (°), quaternion as its columns q1…q4.
struct Recorded {
    file: &'static str,
    acceleration_g: [f32; 3],
    angles_deg: [f32; 3],
    q1_to_q4: [f32; 4],
}

const RECORDED: [Recorded; 2] = [
    Recorded {
        file: "20220705190138.txt",
        acceleration_g: [0.1577, -0.4883, 0.8765],
        angles_deg: [-29.125, -8.937, -86.166],
        q1_to_q4: [0.69147, -0.23465, 0.11609, -0.67328],
    },
    Recorded {
        file: "20220706095954.txt",
        acceleration_g: [0.1011, 0.001, 1.0254],
        angles_deg: [0.077, -5.63, -94.741],
        q1_to_q4: [0.67657, -0.03568, -0.03375, -0.73471],
    },
];

#[test]
fn the_sdk_recordings_agree_with_the_conventions() {
    for r in RECORDED {
        // The words the device sent, recovered from the printed values.
        let word = |deg: f32| (deg.to_radians() / ANGLE_PER_WORD).round() as i16;
        let [roll, pitch, yaw] = r.angles_deg.map(word);
        let Reading::Angle(angle) =
            Reading::decode(&Frame::from_words(FrameKind::Angle, [roll, pitch, yaw, 0])).unwrap()
        else {
            panic!()
        };
        let quaternion_words = r.q1_to_q4.map(|q| (q / QUATERNION_PER_WORD).round() as i16);
        let Reading::Quaternion(q) =
            Reading::decode(&Frame::from_words(FrameKind::Quaternion, quaternion_words)).unwrap()
        else {
            panic!()
        };
        assert!(q.angle_to(angle.to_quaternion()) < 1e-3, "{}", r.file);
        // Gravity seen from the sensor: the reference frame's +z turned into the sensor frame.
        let up = angle.to_quaternion().conjugate().rotate([0.0, 0.0, 1.0]);
        let measured = r.acceleration_g;
        let norm = measured.iter().map(|c| c * c).sum::<f32>().sqrt();
        for (u, m) in up.iter().zip(measured) {
            assert!(
                (u - m / norm).abs() < 0.02,
                "{}: {up:?} vs {measured:?}",
                r.file
            );
        }
    }
}

#[test]
fn angles_encode_back_to_the_recorded_words() {
    let Reading::Angle(angle) = decode(&WTGAHRS2[2]) else {
        panic!()
    };
    let again = Reading::Angle(Angle { ..angle }).encode().unwrap();
    assert_eq!(again.encode(), WTGAHRS2[2]);
}
