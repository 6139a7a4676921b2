//! Typed errors: what the decoder rejects and what the encoders refuse.

use core::fmt;

/// Why a received frame is not a reply of the private protocol.
///
/// Every frame decodes to a [`Reply`](crate::Reply) or to one of these; the decoder never panics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A standard (11-bit) id: the private protocol uses extended ids only (an MIT-protocol
    /// motor, §11, or a motor reconnecting after a drop-out, §12).
    StandardId,
    /// A remote (RTR) frame: the protocol sends data frames only.
    RemoteFrame,
    /// A data length other than 8: every private-protocol frame carries 8 bytes.
    Length {
        /// The frame's data length.
        len: usize,
    },
    /// A communication type the protocol does not define (§4).
    UnknownType {
        /// Bits 28–24 of the id.
        comm_type: u8,
    },
    /// A communication type only a host sends (1, 3, 4, 6, 7, 18, 22, 23, 25): another host's
    /// command, not a motor's reply.
    NotAReply {
        /// Bits 28–24 of the id.
        comm_type: u8,
    },
    /// A communication type only a motor sends (2, 21, and 24's reports): a motor's reply, not
    /// a host's request.
    NotARequest {
        /// Bits 28–24 of the id.
        comm_type: u8,
    },
    /// A request whose data the protocol does not define: a type-4 or type-6 byte 0 other than
    /// 0 or 1, a type-23/24/25 frame without the `01 02 03 04 05 06` key or with an unknown
    /// F_CMD, a type-18 write to a read-only or unlisted parameter or of a non-finite float.
    BadRequest {
        /// Bits 28–24 of the id.
        comm_type: u8,
    },
    /// Mode bits 23–22 of a feedback frame hold 3, which no source defines (§6).
    UnknownMode,
    /// A parameter reply whose status byte (bits 23–16) is neither 0 (ok) nor 1 (failed).
    ParamStatus {
        /// Bits 23–16 of the id.
        status: u8,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::StandardId => {
                f.write_str("standard (11-bit) id; the private protocol uses extended ids")
            }
            DecodeError::RemoteFrame => {
                f.write_str("remote frame; the private protocol sends data frames")
            }
            DecodeError::Length { len } => {
                write!(f, "{len} data bytes; the private protocol sends 8")
            }
            DecodeError::UnknownType { comm_type } => {
                write!(f, "unknown communication type `{comm_type}`")
            }
            DecodeError::NotAReply { comm_type } => {
                write!(
                    f,
                    "communication type `{comm_type}` is a host command, not a motor reply"
                )
            }
            DecodeError::NotARequest { comm_type } => {
                write!(
                    f,
                    "communication type `{comm_type}` is a motor reply, not a host command"
                )
            }
            DecodeError::BadRequest { comm_type } => {
                write!(
                    f,
                    "a type-`{comm_type}` request whose data the protocol does not define"
                )
            }
            DecodeError::UnknownMode => {
                f.write_str("feedback mode bits hold 3, which no source defines")
            }
            DecodeError::ParamStatus { status } => {
                write!(
                    f,
                    "parameter reply status `{status:#04x}` is neither 0 (ok) nor 1 (failed)"
                )
            }
        }
    }
}

impl core::error::Error for DecodeError {}

/// Why an encoder refused a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// A NaN or infinite value. A NaN would otherwise encode as 0x0000, the bottom of its range:
    /// for a torque, a full negative command.
    NonFinite {
        /// Which value.
        field: Field,
    },
    /// A write to a read-only parameter (§8, marked R).
    ReadOnly {
        /// The parameter's index.
        index: u16,
    },
    /// A value of another type than the parameter's (§8).
    ParamType {
        /// The parameter's index.
        index: u16,
    },
}

/// A value an encoder takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// An MIT target position.
    Position,
    /// An MIT target velocity.
    Velocity,
    /// An MIT stiffness (Kp).
    Stiffness,
    /// An MIT damping (Kd).
    Damping,
    /// An MIT feed-forward torque.
    Effort,
    /// A scaled value or a parameter value.
    Value,
}

impl Field {
    /// The value's name, `effort`.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Position => "position",
            Field::Velocity => "velocity",
            Field::Stiffness => "stiffness",
            Field::Damping => "damping",
            Field::Effort => "effort",
            Field::Value => "value",
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::NonFinite { field } => write!(f, "`{}` is not finite", field.name()),
            EncodeError::ReadOnly { index } => write!(f, "parameter `{index:#06x}` is read-only"),
            EncodeError::ParamType { index } => {
                write!(f, "value is not of parameter `{index:#06x}`'s type")
            }
        }
    }
}

impl core::error::Error for EncodeError {}
