//! One output frame: header, type, four little-endian words, checksum.
//!
//! ```text
//! byte  0     1     2  3   4  5   6  7   8  9   10
//!       0x55  type  w0     w1     w2     w3     sum = (byte 0 + … + byte 9) mod 256
//! ```
//!
//! The layout and checksum are those of WitMotion's SDK (`WitSerialDataIn` in
//! `Linux_C/normal/wit_c_sdk.c` of `WITMOTION/WitStandardProtocol_JY901`) and of the WT901
//! datasheet's "Sum=0x55+0x51+AxH+AxL+…"; `docs/witmotion-protocol.md` §1.

use crate::error::FrameError;
use crate::kind::FrameKind;

/// The first byte of every output frame.
pub const HEADER: u8 = 0x55;

/// Bytes in an output frame.
pub const FRAME_LEN: usize = 11;

/// A frame with a documented type; its checksum is computed when it is encoded.
///
/// Built from the wire with [`Frame::from_bytes`] (or found by the [`Parser`](crate::Parser)),
/// or by a device's side with [`Frame::new`], [`Frame::from_words`] or
/// [`Reading::encode`](crate::Reading::encode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    kind: FrameKind,
    data: [u8; 8],
}

impl Frame {
    /// A frame of `kind` carrying `data` (bytes 2–9).
    #[inline]
    pub const fn new(kind: FrameKind, data: [u8; 8]) -> Frame {
        Frame { kind, data }
    }

    /// A frame of `kind` carrying four raw words, little-endian.
    #[inline]
    pub const fn from_words(kind: FrameKind, words: [i16; 4]) -> Frame {
        let [a0, a1] = words[0].to_le_bytes();
        let [b0, b1] = words[1].to_le_bytes();
        let [c0, c1] = words[2].to_le_bytes();
        let [d0, d1] = words[3].to_le_bytes();
        Frame::new(kind, [a0, a1, b0, b1, c0, c1, d0, d1])
    }

    /// The frame in `bytes`, after checking the header, the type and the checksum (in that
    /// order, so a garbage byte reads as [`FrameError::Header`]).
    #[inline]
    pub const fn from_bytes(bytes: &[u8; FRAME_LEN]) -> Result<Frame, FrameError> {
        let [header, kind, d0, d1, d2, d3, d4, d5, d6, d7, sum] = *bytes;
        if header != HEADER {
            return Err(FrameError::Header { found: header });
        }
        let Some(kind) = FrameKind::from_byte(kind) else {
            return Err(FrameError::UnknownType { found: kind });
        };
        let frame = Frame::new(kind, [d0, d1, d2, d3, d4, d5, d6, d7]);
        let expected = frame.checksum();
        if expected != sum {
            return Err(FrameError::Checksum {
                expected,
                found: sum,
            });
        }
        Ok(frame)
    }

    /// The frame's type.
    #[inline]
    pub const fn kind(&self) -> FrameKind {
        self.kind
    }

    /// Bytes 2–9.
    #[inline]
    pub const fn data(&self) -> &[u8; 8] {
        &self.data
    }

    /// Bytes 2–9 as four signed little-endian words, as every type but time and GPS carries them.
    #[inline]
    pub const fn words(&self) -> [i16; 4] {
        let d = self.data;
        [
            i16::from_le_bytes([d[0], d[1]]),
            i16::from_le_bytes([d[2], d[3]]),
            i16::from_le_bytes([d[4], d[5]]),
            i16::from_le_bytes([d[6], d[7]]),
        ]
    }

    /// Byte 10: the low byte of the sum of the header, the type and the data.
    #[inline]
    pub const fn checksum(&self) -> u8 {
        let mut sum = HEADER.wrapping_add(self.kind as u8);
        let mut i = 0;
        while i < self.data.len() {
            sum = sum.wrapping_add(self.data[i]);
            i += 1;
        }
        sum
    }

    /// The 11 bytes on the wire.
    #[inline]
    pub const fn encode(&self) -> [u8; FRAME_LEN] {
        let [d0, d1, d2, d3, d4, d5, d6, d7] = self.data;
        [
            HEADER,
            self.kind as u8,
            d0,
            d1,
            d2,
            d3,
            d4,
            d5,
            d6,
            d7,
            self.checksum(),
        ]
    }
}

/// The low byte of the sum of `bytes`: the checksum of a frame's first 10 bytes.
#[inline]
pub(crate) fn sum(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0u8, |acc, &b| acc.wrapping_add(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_byte() {
        for kind in FrameKind::ALL {
            assert_eq!(FrameKind::from_byte(kind.byte()), Some(kind));
        }
        let documented = (0..=255u8).filter(|&b| FrameKind::from_byte(b).is_some());
        assert_eq!(documented.count(), FrameKind::ALL.len());
    }

    #[test]
    fn the_checksum_is_the_low_byte_of_the_first_ten() {
        let frame = Frame::from_words(FrameKind::Acceleration, [-1, -1, -1, -1]);
        let bytes = frame.encode();
        assert_eq!(bytes[10], sum(&bytes[..10]));
        assert_eq!(bytes[10], (0x55u32 + 0x51 + 8 * 0xFF) as u8);
        assert_eq!(Frame::from_bytes(&bytes), Ok(frame));
    }
}
