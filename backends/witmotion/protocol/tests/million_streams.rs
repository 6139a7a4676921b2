//! A million random byte streams through the parser, each cut in two at a random point: none
//! panics, every byte is accounted for, every frame has a valid checksum and is the one the
//! reference parser finds, and a frame with no header byte before it is always found. A plain
//! loop over a fixed-seed xorshift rather than proptest, whose per-case overhead would make a
//! million cases take minutes in a debug build.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{XorShift, assert_accounted, reference_parse};
use witmotion_protocol::{Frame, FrameKind, HEADER, Parser, Reading};

const STREAMS: u32 = 1_000_000;
const MAX_LEN: usize = 40;

#[test]
fn a_million_random_streams_parse_as_the_reference() {
    let mut rng = XorShift(0x00C0_FFEE_0BAD_F00D);
    let mut stream = [0u8; MAX_LEN];
    let (mut embedded, mut found_embedded, mut frames_total) = (0u32, 0u32, 0u64);
    for _ in 0..STREAMS {
        let len = rng.below(MAX_LEN as u64 + 1) as usize;
        for byte in &mut stream[..len] {
            // A quarter headers and a quarter documented types, so candidates are common.
            let r = rng.next();
            *byte = match r % 4 {
                0 => HEADER,
                1 => 0x50 + (r >> 8) as u8 % 16,
                _ => (r >> 8) as u8,
            };
        }
        // Half the streams carry a real frame somewhere.
        let mut planted = None;
        if len >= 11 && rng.below(2) == 0 {
            let at = rng.below((len - 10) as u64) as usize;
            let kind = FrameKind::ALL[rng.below(FrameKind::ALL.len() as u64) as usize];
            let frame = Frame::new(kind, rng.next().to_le_bytes());
            stream[at..at + 11].copy_from_slice(&frame.encode());
            planted = Some((at, frame));
            embedded += 1;
        }
        let stream = &stream[..len];
        let cut = rng.below(len as u64 + 1) as usize;

        let mut parser = Parser::new();
        let mut frames: Vec<Frame> = parser.push(&stream[..cut]).collect();
        frames.extend(parser.push(&stream[cut..]));
        let (counters, pending) = (parser.counters(), parser.pending());

        let (expected, expected_counters, expected_pending) = reference_parse(stream);
        assert_eq!(frames, expected, "{stream:02X?} cut at {cut}");
        assert_eq!((counters, pending), (expected_counters, expected_pending));
        assert_accounted(len, &counters, pending);
        for frame in &frames {
            assert!(Frame::from_bytes(&frame.encode()).is_ok());
            let _ = Reading::decode(frame);
        }
        frames_total += counters.frames;
        if let Some((at, frame)) = planted
            && !stream[..at].contains(&HEADER)
        {
            assert_eq!(frames.first(), Some(&frame), "{stream:02X?}");
            found_embedded += 1;
        }
    }
    eprintln!(
        "{STREAMS} streams, {frames_total} frames; {embedded} planted, {found_embedded} of them \
         with no header before and all found"
    );
    assert!(
        found_embedded > embedded / 10,
        "{found_embedded} of {embedded}"
    );
}
