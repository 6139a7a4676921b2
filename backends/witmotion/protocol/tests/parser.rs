//! The streaming parser's resynchronisation: garbage, a truncated frame, a `0x55` inside data, a
//! flipped bit; each case pushed whole, cut at every position, and fed a byte at a time.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{assert_accounted, parse_in_chunks, reference_parse};
use witmotion_protocol::{
    Acceleration, Counters, Frame, FrameKind, Parser, Quaternion, Reading, Time,
};

fn acceleration(x: f32) -> Frame {
    Reading::Acceleration(Acceleration {
        x,
        y: 0.5,
        z: 9.8,
        temperature: 30.0,
    })
    .encode()
    .unwrap()
}

fn quaternion(yaw: f32) -> Frame {
    Reading::Quaternion(Quaternion::from_euler(0.1, 0.2, yaw))
        .encode()
        .unwrap()
}

/// Parses `stream` whole, cut at every single position, cut at every pair of positions up to
/// 40, and a byte at a time; all must agree with the reference and account for every byte.
fn parse_every_way(stream: &[u8]) -> (Vec<Frame>, Counters, usize) {
    let expected = reference_parse(stream);
    assert_eq!(parse_in_chunks(stream, &[]), expected, "whole");
    for cut in 0..=stream.len() {
        assert_eq!(parse_in_chunks(stream, &[cut]), expected, "cut at {cut}");
    }
    for a in 0..stream.len().min(40) {
        for b in a..stream.len().min(40) {
            assert_eq!(
                parse_in_chunks(stream, &[a, b]),
                expected,
                "cut at {a}, {b}"
            );
        }
    }
    let mut parser = Parser::new();
    let fed: Vec<Frame> = stream.iter().filter_map(|&b| parser.feed(b)).collect();
    assert_eq!(
        (fed, parser.counters(), parser.pending()),
        expected,
        "byte by byte"
    );
    let (_, counters, pending) = &expected;
    assert_accounted(stream.len(), counters, *pending);
    expected
}

#[test]
fn garbage_between_frames_is_skipped_and_counted() {
    let (a, b) = (acceleration(1.0), quaternion(0.3));
    let mut stream = vec![0x00, 0xFF, 0x12];
    stream.extend(a.encode());
    stream.extend([0x13, 0x37]);
    stream.extend(b.encode());
    stream.extend([0x42]);
    let (frames, counters, pending) = parse_every_way(&stream);
    assert_eq!(frames, [a, b]);
    assert_eq!(counters.skipped_bytes, 6);
    assert_eq!((counters.checksum_failures, counters.unknown_types), (0, 0));
    assert_eq!(pending, 0);
}

#[test]
fn a_truncated_frame_costs_only_itself() {
    // The device reset mid-frame: six bytes of a frame, then whole frames.
    let (a, b) = (acceleration(1.0), quaternion(0.3));
    let mut stream = a.encode()[..6].to_vec();
    stream.extend(a.encode());
    stream.extend(b.encode());
    let (frames, counters, _) = parse_every_way(&stream);
    assert_eq!(frames, [a, b]);
    assert_eq!(counters.skipped_bytes, 6);
    assert_eq!(counters.checksum_failures, 1);
}

#[test]
fn a_header_inside_a_rejected_candidate_is_the_next_start() {
    // `55 52` of garbage, then a frame: the candidate at byte 0 swallows the frame's start and
    // fails its checksum; the search goes on from byte 1 and finds the frame at byte 2.
    let a = acceleration(2.0);
    let mut stream = vec![0x55, 0x52];
    stream.extend(a.encode());
    let (frames, counters, _) = parse_every_way(&stream);
    assert_eq!(frames, [a]);
    assert_eq!((counters.checksum_failures, counters.skipped_bytes), (1, 2));
}

#[test]
fn a_header_byte_inside_a_frames_data_is_not_a_start() {
    // Data bytes 0x55 0x51 …: after the frame is taken whole they are never candidates.
    let inner = Frame::new(
        FrameKind::Time,
        [0x55, 0x51, 0x55, 0x55, 0x55, 0x59, 0x55, 0x53],
    );
    let stream: Vec<u8> = [inner.encode(), inner.encode(), acceleration(0.0).encode()].concat();
    let (frames, counters, _) = parse_every_way(&stream);
    assert_eq!(frames.len(), 3);
    assert_eq!(
        counters,
        Counters {
            frames: 3,
            ..Counters::default()
        }
    );
}

#[test]
fn a_flipped_bit_loses_that_frame_only() {
    let frames = [acceleration(0.1), quaternion(1.0), acceleration(0.2)];
    for byte in 0..11 {
        for bit in 0..8 {
            let mut stream: Vec<u8> = frames.iter().flat_map(|f| f.encode()).collect();
            stream[11 + byte] ^= 1 << bit;
            let (found, counters, _) = reference_parse(&stream);
            assert_eq!(
                found,
                [frames[0], frames[2]],
                "bit {bit} of byte {byte}: the middle frame is lost, its neighbours are not"
            );
            assert_eq!(counters.frames, 2);
            assert!(counters.checksum_failures + counters.unknown_types >= 1 || byte == 0);
            assert_accounted(stream.len(), &counters, 0);
        }
    }
    // And through the chunked parser for one of them.
    let mut stream: Vec<u8> = frames.iter().flat_map(|f| f.encode()).collect();
    stream[15] ^= 0x08;
    assert_eq!(parse_every_way(&stream).0, [frames[0], frames[2]]);
}

#[test]
fn an_undocumented_type_is_dropped_without_waiting() {
    let a = acceleration(3.0);
    let mut stream = vec![0x55, 0x13, 0x55, 0xA0];
    stream.extend(a.encode());
    let (frames, counters, _) = parse_every_way(&stream);
    assert_eq!(frames, [a]);
    assert_eq!((counters.unknown_types, counters.skipped_bytes), (2, 4));
    // A lone 0x55 with an unknown type is rejected as soon as the type byte arrives.
    let mut parser = Parser::new();
    assert_eq!(parser.push(&[0x55, 0x13]).count(), 0);
    assert_eq!(parser.pending(), 0);
}

#[test]
fn port_status_frames_start_with_two_headers() {
    let port = Frame::from_words(FrameKind::PortStatus, [0x55, 0x5555, 1, 2]);
    let mut stream = vec![0x55];
    stream.extend(port.encode());
    stream.extend(port.encode());
    let (frames, counters, _) = parse_every_way(&stream);
    assert_eq!(frames, [port, port]);
    assert_eq!(counters.skipped_bytes, 1);
}

#[test]
fn the_end_of_a_chunk_is_held_for_the_next() {
    let a = acceleration(4.0).encode();
    let mut parser = Parser::new();
    assert_eq!(parser.push(&a[..10]).count(), 0);
    assert_eq!(parser.pending(), 10);
    assert_eq!(parser.push(&a[10..]).count(), 1);
    assert_eq!(parser.pending(), 0);
    parser.push(&a[..4]).for_each(drop);
    parser.clear_pending();
    assert_eq!(parser.counters().skipped_bytes, 4);
}

#[test]
fn dropping_the_iterator_early_keeps_the_parser_in_step() {
    let frames = [acceleration(1.0), quaternion(2.0), acceleration(3.0)];
    let stream: Vec<u8> = frames.iter().flat_map(|f| f.encode()).collect();
    let mut parser = Parser::new();
    let first = parser.push(&stream[..25]).next();
    assert_eq!(first, Some(frames[0]));
    // The second frame was in that chunk too: parsed, counted, discarded. The third follows.
    assert_eq!(parser.counters().frames, 2);
    assert_eq!(parser.push(&stream[25..]).collect::<Vec<_>>(), [frames[2]]);
    parser.reset_counters();
    assert_eq!(parser.counters(), Counters::default());
}

#[test]
fn a_time_frame_full_of_headers_survives_any_garbage_before_it() {
    let t = Time {
        year: 0x55,
        month: 0x55,
        day: 0x55,
        hour: 0x55,
        minute: 0x55,
        second: 0x55,
        millisecond: 0x5555,
    }
    .encode();
    for garbage in [&[][..], &[0x55], &[0x55, 0x50], &[0x55, 0x55, 0x55]] {
        let mut stream = garbage.to_vec();
        stream.extend(t.encode());
        let (frames, _, _) = parse_every_way(&stream);
        assert_eq!(frames, [t], "after {garbage:02X?}");
    }
}
