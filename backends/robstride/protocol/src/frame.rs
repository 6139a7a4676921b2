//! One CAN frame of the private protocol: an extended (29-bit) id and up to 8 data bytes.

use embedded_can::{ExtendedId, Id};

/// A classic CAN data frame with an extended id, as the private protocol uses exclusively.
///
/// Frames received from a bus may be anything (standard ids, remote frames, short payloads); the
/// decoder rejects those with a typed error rather than this type refusing to hold them, so a
/// transport can hand over every frame it sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    id: Id,
    remote: bool,
    len: u8,
    data: [u8; 8],
}

impl Frame {
    /// The largest 29-bit id.
    pub const MAX_EXTENDED_ID: u32 = 0x1FFF_FFFF;

    /// A data frame with extended id `id` (the low 29 bits; higher bits are dropped) and 8 data
    /// bytes.
    pub const fn extended(id: u32, data: [u8; 8]) -> Frame {
        let id = match ExtendedId::new(id & Self::MAX_EXTENDED_ID) {
            Some(id) => id,
            None => ExtendedId::ZERO,
        };
        Frame {
            id: Id::Extended(id),
            remote: false,
            len: 8,
            data,
        }
    }

    /// The id.
    pub const fn id(&self) -> Id {
        self.id
    }

    /// The raw 29-bit id, or `None` for a standard (11-bit) id.
    pub fn extended_id(&self) -> Option<u32> {
        match self.id {
            Id::Extended(id) => Some(id.as_raw()),
            Id::Standard(_) => None,
        }
    }

    /// Whether this is a remote (RTR) frame.
    pub const fn is_remote(&self) -> bool {
        self.remote
    }

    /// The data bytes (as many as the frame carries, at most 8).
    pub fn data(&self) -> &[u8] {
        &self.data[..usize::from(self.len.min(8))]
    }
}

impl embedded_can::Frame for Frame {
    fn new(id: impl Into<Id>, data: &[u8]) -> Option<Self> {
        if data.len() > 8 {
            return None;
        }
        let mut bytes = [0; 8];
        bytes[..data.len()].copy_from_slice(data);
        Some(Frame {
            id: id.into(),
            remote: false,
            len: data.len() as u8,
            data: bytes,
        })
    }

    fn new_remote(id: impl Into<Id>, dlc: usize) -> Option<Self> {
        if dlc > 8 {
            return None;
        }
        Some(Frame {
            id: id.into(),
            remote: true,
            len: dlc as u8,
            data: [0; 8],
        })
    }

    fn is_extended(&self) -> bool {
        matches!(self.id, Id::Extended(_))
    }

    fn is_remote_frame(&self) -> bool {
        self.remote
    }

    fn id(&self) -> Id {
        self.id
    }

    fn dlc(&self) -> usize {
        usize::from(self.len)
    }

    fn data(&self) -> &[u8] {
        Frame::data(self)
    }
}
