//! The streaming parser: frames out of a byte stream cut anywhere (`docs/witmotion-protocol.md`
//! §6).
//!
//! A candidate is a `0x55`, a documented type byte and nine more bytes; it is a frame when its
//! checksum holds. When it does not, the `0x55` that started it is dropped and the search goes
//! on from the very next byte, so a real frame whose start hid inside the bad candidate's data
//! is still found. A `0x55` followed by an undocumented type byte is dropped at once, without
//! waiting for ten more bytes. Nothing else is ever dropped, so every byte pushed ends up in
//! exactly one of: a frame returned, [`Counters::skipped_bytes`], or [`Parser::pending`].
//!
//! WitMotion's own SDK resynchronises the same way (`WitSerialDataIn` in
//! `Linux_C/normal/wit_c_sdk.c` drops one byte on a bad sum); its ROS node
//! (`wit_normal_ros.py`) throws the whole 11 bytes away instead, losing a frame that starts
//! inside them.

use crate::frame::{FRAME_LEN, Frame, HEADER, sum};
use crate::kind::FrameKind;

/// What the parser has seen since it was made or [reset](Parser::reset_counters).
///
/// `u64`, so no realistic stream wraps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Counters {
    /// Frames found with a valid checksum (11 bytes each), returned or not.
    pub frames: u64,
    /// Candidates — a `0x55`, a documented type, nine more bytes — whose checksum failed.
    pub checksum_failures: u64,
    /// `0x55` bytes followed by a byte that is no documented type: garbage, or a type this
    /// protocol version does not document.
    pub unknown_types: u64,
    /// Bytes dropped: garbage between frames, the `0x55` of every rejected candidate.
    pub skipped_bytes: u64,
}

/// Finds frames in a byte stream pushed in chunks of any size. No allocation, never panics.
///
/// ```
/// use witmotion_protocol::{Parser, Reading};
///
/// let mut parser = Parser::new();
/// // An acceleration frame (0, 0, 1 g, 25.00 °C) cut in two, after three bytes of garbage.
/// let stream = [0x00, 0x55, 0x13, 0x55, 0x51, 0, 0, 0, 0, 0x00, 0x08, 0xC4, 0x09, 0x7B];
/// assert_eq!(parser.push(&stream[..7]).count(), 0);
/// let frame = parser.push(&stream[7..]).next().expect("one frame");
/// let Ok(Reading::Acceleration(a)) = Reading::decode(&frame) else { panic!() };
/// assert_eq!((a.z, a.temperature), (9.80665, 25.0));
/// assert_eq!(parser.counters().skipped_bytes, 3);
/// assert_eq!(parser.counters().unknown_types, 1); // 55 13
/// ```
#[derive(Debug, Clone, Default)]
pub struct Parser {
    /// The start of a candidate cut off by the end of a chunk: `pending[..pending_len]` begins
    /// with `0x55` and, from two bytes on, a documented type.
    pending: [u8; FRAME_LEN],
    pending_len: usize,
    counters: Counters,
}

impl Parser {
    /// A parser expecting a frame start.
    pub const fn new() -> Parser {
        Parser {
            pending: [0; FRAME_LEN],
            pending_len: 0,
            counters: Counters {
                frames: 0,
                checksum_failures: 0,
                unknown_types: 0,
                skipped_bytes: 0,
            },
        }
    }

    /// The frames in `bytes`, continuing whatever the previous chunk left unfinished.
    ///
    /// The iterator parses as it goes. Dropping it early parses the rest of the chunk anyway
    /// (its frames are counted and discarded), so the parser stays in step with the stream.
    #[inline]
    pub fn push<'p, 'b>(&'p mut self, bytes: &'b [u8]) -> Frames<'p, 'b> {
        Frames {
            parser: self,
            input: bytes,
        }
    }

    /// One byte in, a frame out when it completes one: the same as pushing a one-byte chunk.
    #[inline]
    pub fn feed(&mut self, byte: u8) -> Option<Frame> {
        if self.pending_len == 0 && byte != HEADER {
            self.counters.skipped_bytes += 1;
            return None;
        }
        self.buffer_byte(byte)
    }

    /// What has been seen so far.
    #[inline]
    pub const fn counters(&self) -> Counters {
        self.counters
    }

    /// Zeroes the counters; the stream position is kept.
    pub fn reset_counters(&mut self) {
        self.counters = Counters::default();
    }

    /// Bytes held back as the start of a frame the next chunk may complete (0–10).
    #[inline]
    pub const fn pending(&self) -> usize {
        self.pending_len
    }

    /// Forgets the held-back bytes (counting them as skipped), as after reopening a port.
    pub fn clear_pending(&mut self) {
        self.counters.skipped_bytes += self.pending_len as u64;
        self.pending_len = 0;
    }

    /// Appends a byte to a non-empty candidate, or starts one with a `0x55`.
    fn buffer_byte(&mut self, byte: u8) -> Option<Frame> {
        let Some(slot) = self.pending.get_mut(self.pending_len) else {
            // Unreachable: a full buffer is always resolved below. Resynchronise rather than panic.
            self.resynchronise(1);
            return None;
        };
        *slot = byte;
        self.pending_len += 1;
        if self.pending_len == 2 && FrameKind::from_byte(byte).is_none() {
            self.counters.unknown_types += 1;
            self.resynchronise(1);
            return None;
        }
        if self.pending_len < FRAME_LEN {
            return None;
        }
        match Frame::from_bytes(&self.pending) {
            Ok(frame) => {
                self.counters.frames += 1;
                self.pending_len = 0;
                Some(frame)
            }
            Err(_) => {
                self.counters.checksum_failures += 1;
                self.resynchronise(1);
                None
            }
        }
    }

    /// Drops the first `drop` held-back bytes, then everything up to the next `0x55` that is
    /// not followed by an undocumented type. At most 10 bytes remain, so no frame can complete.
    fn resynchronise(&mut self, mut drop: usize) {
        loop {
            let drop_now = drop.min(self.pending_len);
            self.pending.copy_within(drop_now..self.pending_len, 0);
            self.pending_len -= drop_now;
            self.counters.skipped_bytes += drop_now as u64;
            let held = &self.pending[..self.pending_len];
            match held.iter().position(|&b| b == HEADER) {
                None => {
                    self.counters.skipped_bytes += self.pending_len as u64;
                    self.pending_len = 0;
                    return;
                }
                Some(0) => {}
                Some(start) => {
                    drop = start;
                    continue;
                }
            }
            match held.get(1) {
                Some(&kind) if FrameKind::from_byte(kind).is_none() => {
                    self.counters.unknown_types += 1;
                    drop = 1;
                }
                _ => return,
            }
        }
    }
}

/// The frames of one pushed chunk; see [`Parser::push`].
#[derive(Debug)]
pub struct Frames<'p, 'b> {
    parser: &'p mut Parser,
    input: &'b [u8],
}

impl Iterator for Frames<'_, '_> {
    type Item = Frame;

    #[inline]
    fn next(&mut self) -> Option<Frame> {
        loop {
            // Finish a candidate the previous chunk cut off, a byte at a time.
            while self.parser.pending_len > 0 {
                let (&byte, rest) = self.input.split_first()?;
                self.input = rest;
                if let Some(frame) = self.parser.buffer_byte(byte) {
                    return Some(frame);
                }
            }
            // Fast path: candidates checked in place, nothing copied.
            let counters = &mut self.parser.counters;
            let Some(start) = self.input.iter().position(|&b| b == HEADER) else {
                counters.skipped_bytes += self.input.len() as u64;
                self.input = &[];
                return None;
            };
            counters.skipped_bytes += start as u64;
            let candidate = &self.input[start..];
            self.input = candidate;
            let Some((bytes, rest)) = candidate.split_first_chunk::<FRAME_LEN>() else {
                // The chunk ends inside the candidate: hold it for the next one.
                // Fewer than 11 bytes from an empty buffer: no frame can complete.
                let tail = self.input;
                self.input = &[];
                for &byte in tail {
                    let _ = self.parser.feed(byte);
                }
                return None;
            };
            let [_, kind, d0, d1, d2, d3, d4, d5, d6, d7, checksum] = *bytes;
            let Some(kind) = FrameKind::from_byte(kind) else {
                counters.unknown_types += 1;
                counters.skipped_bytes += 1;
                self.input = &candidate[1..];
                continue;
            };
            if sum(&bytes[..FRAME_LEN - 1]) != checksum {
                // The 0x55 was not a start; one inside this candidate may be.
                counters.checksum_failures += 1;
                counters.skipped_bytes += 1;
                self.input = &candidate[1..];
                continue;
            }
            counters.frames += 1;
            self.input = rest;
            return Some(Frame::new(kind, [d0, d1, d2, d3, d4, d5, d6, d7]));
        }
    }
}

impl Drop for Frames<'_, '_> {
    fn drop(&mut self) {
        // Keep the parser in step with the stream: the rest of the chunk is parsed, its frames
        // counted and discarded.
        for _ in self.by_ref() {}
    }
}
