//! Host→motor requests (docs/robstride-protocol.md §4, §5): one [`Command`] per communication type, encoded
//! into one [`Frame`] of 8 data bytes (every official sample pads to 8).
//!
//! Area 2 of the id (bits 23–8) holds the host id in bits 15–8 for every type but 1 (the torque)
//! and 7 (new id in bits 23–16 as well); bits 7–0 hold the motor id.

use crate::error::{EncodeError, Field};
use crate::frame::Frame;
use crate::id::{CommType, pack};
use crate::param::ParamWrite;
use crate::scaling::Code16;
use robot_actuator::Mit;
use robot_actuator::RobstrideModel;

/// An operation-control (type 1) setpoint: a [`Mit`] whose values are all finite.
///
/// The firmware's law is `t_ref = Kd·(v_set − v) + Kp·(p_set − p) + t_ff` (M §4.3.1), the
/// [`Mit`] law with Kp the stiffness and Kd the damping. Values outside the model's ranges are
/// clamped when encoded (§9); NaN and ±∞ are refused here, so none can become 0x0000 (for the
/// torque, a full negative command).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MitCommand(Mit);

impl MitCommand {
    /// The setpoint `mit`, in motor space. An error names the first value that is NaN or
    /// infinite.
    #[inline]
    pub fn new(mit: Mit) -> Result<MitCommand, EncodeError> {
        if mit.is_finite() {
            Ok(MitCommand(mit))
        } else {
            Err(first_non_finite(&mit))
        }
    }

    /// A setpoint from decoded codes, which are finite by construction.
    pub(crate) fn from_decoded(mit: Mit) -> MitCommand {
        MitCommand(mit)
    }

    /// The setpoint's values.
    #[inline]
    pub const fn mit(&self) -> Mit {
        self.0
    }

    /// The type-1 frame to `motor`, scaled with `model`'s ranges (in f32, the manual's
    /// arithmetic).
    #[inline]
    pub fn encode(&self, model: RobstrideModel, motor: u8) -> Frame {
        let s = model.scaling();
        let m = &self.0;
        let [position, velocity, kp, kd, torque] = [
            (m.position, s.position),
            (m.velocity, s.velocity),
            (m.stiffness, s.kp),
            (m.damping, s.kd),
            (m.effort, s.torque),
        ]
        .map(|(x, range)| range.encode_finite(x as f32));
        let [p0, p1] = position.to_be_bytes();
        let [v0, v1] = velocity.to_be_bytes();
        let [kp0, kp1] = kp.to_be_bytes();
        let [kd0, kd1] = kd.to_be_bytes();
        Frame::extended(
            pack(CommType::Control, torque, motor),
            [p0, p1, v0, v1, kp0, kp1, kd0, kd1],
        )
    }
}

/// The error naming the first of the values that is not finite.
#[cold]
fn first_non_finite(mit: &Mit) -> EncodeError {
    let field = [
        (Field::Position, mit.position),
        (Field::Velocity, mit.velocity),
        (Field::Stiffness, mit.stiffness),
        (Field::Damping, mit.damping),
        (Field::Effort, mit.effort),
    ]
    .into_iter()
    .find(|(_, x)| !x.is_finite())
    .map_or(Field::Value, |(field, _)| field);
    EncodeError::NonFinite { field }
}

/// A bus rate for type 23 (F_CMD).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BaudRate {
    /// 1 Mbit/s, the default.
    M1 = 1,
    /// 500 kbit/s.
    K500 = 2,
    /// 250 kbit/s.
    K250 = 3,
    /// 125 kbit/s.
    K125 = 4,
}

/// A protocol for type 25 (F_CMD).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Protocol {
    /// The private protocol, the default.
    Private = 0,
    /// CANopen.
    CanOpen = 1,
    /// The 11-bit MIT protocol (§11).
    Mit = 2,
}

/// A host→motor request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Type 0: get the device id (answered by type 0 with the 64-bit MCU UID).
    GetId,
    /// Type 1: operation control.
    Mit(MitCommand),
    /// Type 3: enable.
    Enable,
    /// Type 4, byte 0 = 0: stop.
    Stop,
    /// Type 4, byte 0 = 1: stop and clear faults.
    StopClearFault,
    /// Type 6, byte 0 = 1: set the mechanical zero.
    SetZero,
    /// Type 7: set the motor's CAN id (effective immediately).
    SetCanId {
        /// The new id.
        new_id: u8,
    },
    /// Type 17: read one parameter (any index: the 0x70xx table or another).
    ReadParam {
        /// The parameter's index.
        index: u16,
    },
    /// Type 18: write one parameter to RAM (lost at power-off unless saved).
    WriteParam(ParamWrite),
    /// Type 22: save parameters.
    Save,
    /// Type 23: bus rate, effective after a power cycle.
    BaudRate(BaudRate),
    /// Type 24: active reports on or off.
    ActiveReport {
        /// Whether the motor reports unprompted.
        on: bool,
    },
    /// Type 25: protocol switch, effective after a power cycle.
    ProtocolSwitch(Protocol),
}

/// The data of types 23, 24 and 25: `01 02 03 04 05 06 F_CMD xx` (byte 7 is don't-care; SP
/// sends 0x08).
const fn keyed(f_cmd: u8) -> [u8; 8] {
    [1, 2, 3, 4, 5, 6, f_cmd, 8]
}

impl Command {
    /// The command's communication type.
    pub const fn comm_type(&self) -> CommType {
        match self {
            Command::GetId => CommType::GetId,
            Command::Mit(_) => CommType::Control,
            Command::Enable => CommType::Enable,
            Command::Stop | Command::StopClearFault => CommType::Stop,
            Command::SetZero => CommType::SetZero,
            Command::SetCanId { .. } => CommType::SetCanId,
            Command::ReadParam { .. } => CommType::ReadParam,
            Command::WriteParam(_) => CommType::WriteParam,
            Command::Save => CommType::Save,
            Command::BaudRate(_) => CommType::BaudRate,
            Command::ActiveReport { .. } => CommType::ActiveReport,
            Command::ProtocolSwitch(_) => CommType::ProtocolSwitch,
        }
    }

    /// The communication type of the one reply the command draws (§4), or `None` for active
    /// report, which answers with periodic frames.
    pub const fn reply_type(&self) -> Option<CommType> {
        match self {
            Command::GetId
            | Command::SetCanId { .. }
            | Command::BaudRate(_)
            | Command::ProtocolSwitch(_) => Some(CommType::GetId),
            Command::Mit(_)
            | Command::Enable
            | Command::Stop
            | Command::StopClearFault
            | Command::SetZero
            | Command::WriteParam(_)
            | Command::Save => Some(CommType::Feedback),
            Command::ReadParam { .. } => Some(CommType::ReadParam),
            Command::ActiveReport { .. } => None,
        }
    }

    /// The motor id the reply to this command, sent to `motor`, carries: the new id after
    /// [`Command::SetCanId`] (assumed: the manual says the id is effective immediately).
    pub const fn reply_motor(&self, motor: u8) -> u8 {
        match self {
            Command::SetCanId { new_id } => *new_id,
            _ => motor,
        }
    }

    /// The frame from `host` to `motor`. `model` scales [`Command::Mit`] and is ignored by the
    /// other commands.
    #[inline]
    pub fn encode(&self, model: RobstrideModel, host: u8, motor: u8) -> Frame {
        let area2 = u16::from_be_bytes([0, host]);
        let (area2, data) = match self {
            Command::Mit(mit) => return mit.encode(model, motor),
            Command::GetId | Command::Enable | Command::Stop => (area2, [0; 8]),
            Command::StopClearFault | Command::SetZero => (area2, [1, 0, 0, 0, 0, 0, 0, 0]),
            Command::SetCanId { new_id } => (u16::from_be_bytes([*new_id, host]), [0; 8]),
            Command::ReadParam { index } => {
                let [i0, i1] = index.to_le_bytes();
                (area2, [i0, i1, 0, 0, 0, 0, 0, 0])
            }
            Command::WriteParam(write) => (area2, write.data()),
            Command::Save => (area2, [1, 2, 3, 4, 5, 6, 7, 8]),
            Command::BaudRate(rate) => (area2, keyed(*rate as u8)),
            Command::ActiveReport { on } => (area2, keyed(*on as u8)),
            Command::ProtocolSwitch(protocol) => (area2, keyed(*protocol as u8)),
        };
        Frame::extended(pack(self.comm_type(), area2, motor), data)
    }
}
