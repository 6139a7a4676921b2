//! The motor's side of the protocol: host→motor frames decoded ([`Request::decode`]) and
//! motor→host frames encoded ([`Reply::encode`]). A simulated actuator needs both, and so does a
//! tool that prints what `candump` saw in either direction.

use crate::command::{BaudRate, Command, MitCommand, Protocol};
use crate::error::DecodeError;
use crate::feedback::RawFeedback;
use crate::frame::Frame;
use crate::id::{CommType, IdFields, pack};
use crate::param::{Param, ParamValue, ParamWrite};
use crate::reply::{ParamOutcome, Reply, parts};
use crate::scaling::Code16;
use robot_actuator::Mit;
use robot_actuator::RobstrideModel;

/// A host→motor frame, as the motor receives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// What is asked.
    pub command: Command,
    /// The host id (bits 15–8); 0 for type 1, which carries the torque there instead.
    pub host: u8,
    /// The motor it is for (bits 7–0).
    pub motor: u8,
}

/// `01 02 03 04 05 06 F_CMD xx`: F_CMD, when the key is there.
fn keyed(data: &[u8; 8]) -> Option<u8> {
    (data[..6] == [1, 2, 3, 4, 5, 6]).then_some(data[6])
}

impl Request {
    /// The request `frame` carries; `model` scales an operation-control setpoint. Never panics.
    pub fn decode(frame: &Frame, model: RobstrideModel) -> Result<Request, DecodeError> {
        let (id, data) = parts(frame)?;
        let comm_type = id.comm_type;
        let ty = CommType::from_u8(comm_type).ok_or(DecodeError::UnknownType { comm_type })?;
        let bad = DecodeError::BadRequest { comm_type };
        let host = id.id_byte();
        let command = match ty {
            CommType::GetId => Command::GetId,
            CommType::Control => return Ok(decode_mit(id, &data, model)),
            CommType::Enable => Command::Enable,
            CommType::Stop => match data[0] {
                0 => Command::Stop,
                1 => Command::StopClearFault,
                _ => return Err(bad),
            },
            CommType::SetZero => match data[0] {
                1 => Command::SetZero,
                _ => return Err(bad),
            },
            CommType::SetCanId => Command::SetCanId {
                new_id: id.high_byte(),
            },
            CommType::ReadParam => Command::ReadParam {
                index: u16::from_le_bytes([data[0], data[1]]),
            },
            CommType::WriteParam => {
                let param = Param::from_index(u16::from_le_bytes([data[0], data[1]])).ok_or(bad)?;
                let value =
                    ParamValue::from_bytes(param.ty(), [data[4], data[5], data[6], data[7]]);
                Command::WriteParam(ParamWrite::new(param, value).map_err(|_| bad)?)
            }
            CommType::Save => Command::Save,
            CommType::BaudRate => Command::BaudRate(match keyed(&data) {
                Some(1) => BaudRate::M1,
                Some(2) => BaudRate::K500,
                Some(3) => BaudRate::K250,
                Some(4) => BaudRate::K125,
                _ => return Err(bad),
            }),
            CommType::ActiveReport => match keyed(&data) {
                Some(0) => Command::ActiveReport { on: false },
                Some(1) => Command::ActiveReport { on: true },
                _ => return Err(bad),
            },
            CommType::ProtocolSwitch => Command::ProtocolSwitch(match keyed(&data) {
                Some(0) => Protocol::Private,
                Some(1) => Protocol::CanOpen,
                Some(2) => Protocol::Mit,
                _ => return Err(bad),
            }),
            CommType::Feedback | CommType::Fault => {
                return Err(DecodeError::NotARequest { comm_type });
            }
        };
        Ok(Request {
            command,
            host,
            motor: id.low,
        })
    }
}

fn decode_mit(id: IdFields, data: &[u8; 8], model: RobstrideModel) -> Request {
    let s = model.scaling();
    let code = |i: usize| u16::from_be_bytes([data[i], data[i + 1]]);
    Request {
        // A decoded code is finite and in range: no check to fail.
        command: Command::Mit(MitCommand::from_decoded(Mit {
            position: f64::from(s.position.decode(code(0))),
            velocity: f64::from(s.velocity.decode(code(2))),
            stiffness: f64::from(s.kp.decode(code(4))),
            damping: f64::from(s.kd.decode(code(6))),
            effort: f64::from(s.torque.decode(id.data2)),
        })),
        host: 0,
        motor: id.low,
    }
}

impl RawFeedback {
    /// The type-2 feedback frame (or type-24 active report, with `report`) this feedback is.
    pub fn encode(&self, report: bool) -> Frame {
        let ty = if report {
            CommType::ActiveReport
        } else {
            CommType::Feedback
        };
        let data2 = ((self.mode as u16) << 14)
            | (u16::from(self.faults.bits()) << 8)
            | u16::from(self.motor);
        let [p0, p1] = self.position.to_be_bytes();
        let [v0, v1] = self.velocity.to_be_bytes();
        let [t0, t1] = self.torque.to_be_bytes();
        let [c0, c1] = self.temperature.to_be_bytes();
        Frame::extended(pack(ty, data2, self.host), [p0, p1, v0, v1, t0, t1, c0, c1])
    }
}

impl Reply {
    /// The frame a motor sends for this reply.
    pub fn encode(&self) -> Frame {
        match self {
            Reply::DeviceId { motor, host, uid } => {
                Frame::extended(pack(CommType::GetId, u16::from(*motor), *host), *uid)
            }
            Reply::Feedback(feedback) => feedback.encode(false),
            Reply::ActiveReport(feedback) => feedback.encode(true),
            Reply::Param(reply) => {
                let (status, value) = match reply.outcome {
                    ParamOutcome::Value(value) => (0, value.to_bytes()),
                    ParamOutcome::Unlisted(bytes) => (0, bytes),
                    ParamOutcome::Failed => (1, [0; 4]),
                };
                let [i0, i1] = reply.index.to_le_bytes();
                let [v0, v1, v2, v3] = value;
                Frame::extended(
                    pack(
                        CommType::ReadParam,
                        u16::from_be_bytes([status, reply.motor]),
                        reply.host,
                    ),
                    [i0, i1, 0, 0, v0, v1, v2, v3],
                )
            }
            Reply::Fault(fault) => {
                let [f0, f1, f2, f3] = fault.faults.0.to_le_bytes();
                let [w0, w1, w2, w3] = fault.warnings.0.to_le_bytes();
                Frame::extended(
                    pack(CommType::Fault, u16::from(fault.motor), fault.host),
                    [f0, f1, f2, f3, w0, w1, w2, w3],
                )
            }
        }
    }
}
