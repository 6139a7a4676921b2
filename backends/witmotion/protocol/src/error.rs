//! Typed errors: what the frame and command decoders reject and what the encoders refuse.

use core::fmt;

use crate::kind::FrameKind;

/// Why 11 bytes are not a frame.
///
/// The [`Parser`](crate::Parser) never returns these: it counts them and resynchronises.
/// [`Frame::from_bytes`](crate::Frame::from_bytes) returns them for a single frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameError {
    /// The first byte is not the header `0x55`.
    Header {
        /// The first byte.
        found: u8,
    },
    /// The type byte is not a documented output type (`0x50`–`0x5A`, `0x5F`).
    UnknownType {
        /// The type byte.
        found: u8,
    },
    /// Byte 10 is not the low byte of the sum of bytes 0–9.
    Checksum {
        /// The low byte of the sum of bytes 0–9.
        expected: u8,
        /// Byte 10.
        found: u8,
    },
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Header { found } => {
                write!(f, "first byte `{found:#04x}` is not the header 0x55")
            }
            FrameError::UnknownType { found } => {
                write!(f, "type `{found:#04x}` is no documented output type")
            }
            FrameError::Checksum { expected, found } => {
                write!(
                    f,
                    "checksum `{found:#04x}`, the bytes sum to `{expected:#04x}`"
                )
            }
        }
    }
}

impl core::error::Error for FrameError {}

/// Why a valid frame does not decode to a [`Reading`](crate::Reading).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A documented type this crate keeps as raw bytes (port status, pressure, GPS): an IMU
    /// base never needs them. [`Frame::words`](crate::Frame::words) still reads them.
    NotDecoded {
        /// The frame's type.
        kind: FrameKind,
    },
    /// A quaternion frame whose norm is off 1 by more than
    /// [`QUATERNION_NORM_TOLERANCE`](crate::scale::QUATERNION_NORM_TOLERANCE): corruption the
    /// 8-bit checksum let through, or a device whose fusion has not started (all zeros).
    QuaternionNorm,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NotDecoded { kind } => {
                write!(f, "`{}` frames are not decoded to SI units", kind.name())
            }
            DecodeError::QuaternionNorm => {
                f.write_str("quaternion frame whose norm is not 1; corrupted or not initialised")
            }
        }
    }
}

impl core::error::Error for DecodeError {}

/// Why an encoder refused a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// A NaN or infinite value: it has no word on the wire (a NaN would otherwise become 0).
    NonFinite {
        /// Which value.
        field: Field,
    },
}

/// A value an encoder takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// An x component.
    X,
    /// A y component.
    Y,
    /// A z component.
    Z,
    /// A quaternion's w.
    W,
    /// A temperature.
    Temperature,
    /// Roll.
    Roll,
    /// Pitch.
    Pitch,
    /// Yaw.
    Yaw,
}

impl Field {
    /// The value's name, `roll`.
    pub const fn name(self) -> &'static str {
        match self {
            Field::X => "x",
            Field::Y => "y",
            Field::Z => "z",
            Field::W => "w",
            Field::Temperature => "temperature",
            Field::Roll => "roll",
            Field::Pitch => "pitch",
            Field::Yaw => "yaw",
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::NonFinite { field } => write!(f, "`{}` is not finite", field.name()),
        }
    }
}

impl core::error::Error for EncodeError {}

/// Why 5 bytes are not a configuration command this crate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandError {
    /// The first two bytes are not `FF AA`.
    Header {
        /// Bytes 0 and 1.
        found: [u8; 2],
    },
    /// A value the protocol does not define for a register this crate models (an unknown rate
    /// code, a KEY other than the unlock code, …).
    Value {
        /// The register.
        register: u8,
        /// The 16-bit value, `lo | hi << 8`.
        value: u16,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Header { found: [a, b] } => {
                write!(f, "command starts `{a:02X} {b:02X}`, not `FF AA`")
            }
            CommandError::Value { register, value } => {
                write!(
                    f,
                    "value `{value:#06x}` is not defined for register `{register:#04x}`"
                )
            }
        }
    }
}

impl core::error::Error for CommandError {}
