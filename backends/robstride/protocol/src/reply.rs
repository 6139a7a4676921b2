//! Motor→host frames: the decoder (docs/robstride-protocol.md §3, §4, §6–§8).
//!
//! [`Reply::decode`] takes any frame a transport hands over and returns a [`Reply`] or a typed
//! [`DecodeError`]; it never panics. Feedback stays in codes ([`RawFeedback`]) until the caller,
//! having matched the motor id to a model, scales it ([`RawFeedback::to_physical`]).

use crate::command::Command;
use crate::error::DecodeError;
use crate::fault::FaultFrame;
use crate::feedback::{Feedback, RawFeedback};
use crate::frame::Frame;
use crate::id::{CommType, IdFields};
use crate::param::{Param, ParamValue};
use robot_actuator::RobstrideModel;

/// The outcome of a parameter read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamOutcome {
    /// A parameter of the 0x70xx table, decoded with its type.
    Value(ParamValue),
    /// An index the table does not list: bytes 4–7 as sent.
    Unlisted([u8; 4]),
    /// Status 1: the motor refused the read.
    Failed,
}

/// A type-17 reply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamReply {
    /// The motor's CAN id (bits 15–8).
    pub motor: u8,
    /// The host byte (bits 7–0).
    pub host: u8,
    /// The index, bytes 0–1.
    pub index: u16,
    /// The value, or why there is none.
    pub outcome: ParamOutcome,
}

/// A frame from a motor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reply {
    /// Type 0, the reply to get-id, set-id, baud rate and protocol switch.
    DeviceId {
        /// The motor's CAN id (bits 15–8).
        motor: u8,
        /// The low byte (0xFE per the manual).
        host: u8,
        /// The 64-bit MCU UID, as sent.
        uid: [u8; 8],
    },
    /// Type 2, the reply to types 1, 3, 4, 6, 18 and 22.
    Feedback(RawFeedback),
    /// Type 24, a periodic active report laid out as type 2.
    ActiveReport(RawFeedback),
    /// Type 17, a parameter read.
    Param(ParamReply),
    /// Type 21, a fault frame.
    Fault(FaultFrame),
}

/// The id and the 8 data bytes of an extended data frame, or why it is none.
#[inline]
pub(crate) fn parts(frame: &Frame) -> Result<(IdFields, [u8; 8]), DecodeError> {
    let raw = frame.extended_id().ok_or(DecodeError::StandardId)?;
    if frame.is_remote() {
        return Err(DecodeError::RemoteFrame);
    }
    let data: [u8; 8] = frame.data().try_into().map_err(|_| DecodeError::Length {
        len: frame.data().len(),
    })?;
    Ok((IdFields::unpack(raw), data))
}

impl Reply {
    /// The reply `frame` carries.
    #[inline]
    pub fn decode(frame: &Frame) -> Result<Reply, DecodeError> {
        let (id, data) = parts(frame)?;
        let comm_type = id.comm_type;
        let Some(ty) = CommType::from_u8(comm_type) else {
            return Err(DecodeError::UnknownType { comm_type });
        };
        let motor = id.id_byte();
        match ty {
            CommType::GetId => Ok(Reply::DeviceId {
                motor,
                host: id.low,
                uid: data,
            }),
            CommType::Feedback => RawFeedback::from_parts(id, &data)
                .map(Reply::Feedback)
                .ok_or(DecodeError::UnknownMode),
            CommType::ActiveReport => RawFeedback::from_parts(id, &data)
                .map(Reply::ActiveReport)
                .ok_or(DecodeError::UnknownMode),
            CommType::ReadParam => {
                let [i0, i1, _, _, v0, v1, v2, v3] = data;
                let index = u16::from_le_bytes([i0, i1]);
                let outcome = match id.high_byte() {
                    0 => match Param::from_index(index) {
                        Some(p) => {
                            ParamOutcome::Value(ParamValue::from_bytes(p.ty(), [v0, v1, v2, v3]))
                        }
                        None => ParamOutcome::Unlisted([v0, v1, v2, v3]),
                    },
                    1 => ParamOutcome::Failed,
                    status => return Err(DecodeError::ParamStatus { status }),
                };
                Ok(Reply::Param(ParamReply {
                    motor,
                    host: id.low,
                    index,
                    outcome,
                }))
            }
            CommType::Fault => Ok(Reply::Fault(FaultFrame::from_parts(motor, id.low, &data))),
            CommType::Control
            | CommType::Enable
            | CommType::Stop
            | CommType::SetZero
            | CommType::SetCanId
            | CommType::WriteParam
            | CommType::Save
            | CommType::BaudRate
            | CommType::ProtocolSwitch => Err(DecodeError::NotAReply { comm_type }),
        }
    }

    /// The reply's communication type.
    pub const fn comm_type(&self) -> CommType {
        match self {
            Reply::DeviceId { .. } => CommType::GetId,
            Reply::Feedback(_) => CommType::Feedback,
            Reply::ActiveReport(_) => CommType::ActiveReport,
            Reply::Param(_) => CommType::ReadParam,
            Reply::Fault(_) => CommType::Fault,
        }
    }

    /// The id of the motor that sent it (bits 15–8).
    pub const fn motor(&self) -> u8 {
        match self {
            Reply::DeviceId { motor, .. } => *motor,
            Reply::Feedback(f) | Reply::ActiveReport(f) => f.motor,
            Reply::Param(p) => p.motor,
            Reply::Fault(f) => f.motor,
        }
    }

    /// Whether this is the reply to `command` sent to `motor`: the communication type and the
    /// motor id match. The host byte is not looked at (§3: which host byte a type-1 reply
    /// carries is unspecified).
    pub fn answers(&self, command: &Command, motor: u8) -> bool {
        command.reply_type() == Some(self.comm_type()) && self.motor() == command.reply_motor(motor)
    }
}

impl Feedback {
    /// The type-2 or type-24 feedback in `frame`, scaled with `model`'s ranges. Any other
    /// frame is an error: another type is [`DecodeError::NotAReply`] or
    /// [`DecodeError::UnknownType`] as [`Reply::decode`] would say, a reply of another kind
    /// [`DecodeError::NotAReply`] too.
    #[inline]
    pub fn decode(frame: &Frame, model: RobstrideModel) -> Result<Feedback, DecodeError> {
        let (id, data) = parts(frame)?;
        match id.comm_type {
            2 | 24 => RawFeedback::from_parts(id, &data)
                .map(|raw| raw.to_physical(model))
                .ok_or(DecodeError::UnknownMode),
            comm_type if CommType::from_u8(comm_type).is_none() => {
                Err(DecodeError::UnknownType { comm_type })
            }
            comm_type => Err(DecodeError::NotAReply { comm_type }),
        }
    }
}
