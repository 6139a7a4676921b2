//! What several test files share: a reference parser written the obvious way, and a generator.
#![allow(dead_code)] // each test file uses a part

use witmotion_protocol::{Counters, FRAME_LEN, Frame, FrameKind, HEADER, Parser};

/// The parser's rule, over a whole stream at once: at each position a `0x55` with a documented
/// (or not yet received) type byte and ten more bytes is a frame if its checksum holds, and
/// the search moves on 11 bytes; otherwise it moves on one. Returns the frames, the counters
/// and how many bytes are left as the start of an unfinished frame.
pub fn reference_parse(stream: &[u8]) -> (Vec<Frame>, Counters, usize) {
    let mut frames = Vec::new();
    let mut counters = Counters::default();
    let mut i = 0;
    while i < stream.len() {
        if stream[i] != HEADER {
            counters.skipped_bytes += 1;
            i += 1;
            continue;
        }
        if let Some(&kind) = stream.get(i + 1)
            && FrameKind::from_byte(kind).is_none()
        {
            counters.unknown_types += 1;
            counters.skipped_bytes += 1;
            i += 1;
            continue;
        }
        let Some(candidate) = stream.get(i..i + FRAME_LEN) else {
            return (frames, counters, stream.len() - i);
        };
        let bytes: &[u8; FRAME_LEN] = candidate.try_into().unwrap();
        match Frame::from_bytes(bytes) {
            Ok(frame) => {
                frames.push(frame);
                counters.frames += 1;
                i += FRAME_LEN;
            }
            Err(_) => {
                counters.checksum_failures += 1;
                counters.skipped_bytes += 1;
                i += 1;
            }
        }
    }
    (frames, counters, 0)
}

/// The stream through a [`Parser`], cut at `cuts` (positions, any order, out of range ignored).
pub fn parse_in_chunks(stream: &[u8], cuts: &[usize]) -> (Vec<Frame>, Counters, usize) {
    let mut cuts: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&c| c <= stream.len())
        .collect();
    cuts.push(0);
    cuts.push(stream.len());
    cuts.sort_unstable();
    let mut parser = Parser::new();
    let mut frames = Vec::new();
    for pair in cuts.windows(2) {
        frames.extend(parser.push(&stream[pair[0]..pair[1]]));
    }
    (frames, parser.counters(), parser.pending())
}

/// Every byte is in a frame, skipped, or pending.
pub fn assert_accounted(stream_len: usize, counters: &Counters, pending: usize) {
    assert_eq!(
        counters.frames as usize * FRAME_LEN + counters.skipped_bytes as usize + pending,
        stream_len,
        "{counters:?}, {pending} pending"
    );
}

/// A fixed-seed xorshift: fast and reproducible.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
