//! Commissioning: the jobs done with a new motor on the bench (find it, give it its CAN id, set
//! its zero, read, write and save its parameters), one request and one awaited reply at a time
//! over any [`Transport`]. `robot can scan|set-id|set-zero|param` are these, on the command line.
//!
//! Unlike the component, which never waits, a commissioning request blocks until its reply
//! arrives or [`Commissioner::timeout`] passes. Replies are matched on communication type and
//! motor id ([`Reply::answers`]); any other frame on the bus (another motor's active report,
//! a foreign device) is skipped.
//!
//! Nothing here needs the motor's model: parameters travel as typed values, and the position
//! after a zero is read back as the `mechPos` parameter rather than decoded from scaled
//! feedback.

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use robot_runtime::model::CanId;
use robstride_protocol::{
    Command, Frame, Param, ParamOutcome, ParamValue, ParamWrite, Reply, RobstrideModel,
};

use backend_robstride::transport::{Transport, TransportError};

/// How long a request waits for its reply by default: a reply takes well under 1 ms on a
/// 1 Mbit/s bus; 20 ms leaves room for a busy host without making a scan of 127 ids slow
/// (2.5 s when none answers).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(20);

/// How long to sleep between polls of a transport that has nothing yet: short against the
/// timeout, long enough not to spin a core.
const POLL: Duration = Duration::from_micros(200);

/// The model the codec is given for requests whose encoding does not depend on it (every one
/// sent here: no operation-control frame is).
const ANY_MODEL: RobstrideModel = RobstrideModel::RS03;

/// A motor that answered a scan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// Its CAN id.
    pub motor: u8,
    /// Its 64-bit MCU UID, as sent (unique per unit: tells two motors apart that share an id
    /// only if they answer one at a time, which they do not: see [`Commissioner::scan`]).
    pub uid: [u8; 8],
    /// Its run mode (parameter `run_mode`), when it answered the read.
    pub run_mode: Option<u8>,
    /// Its load-side angle in rad (parameter `mechPos`), when it answered the read.
    pub position: Option<f32>,
    /// Its bus voltage in V (parameter `VBUS`), when it answered the read.
    pub vbus: Option<f32>,
}

/// A commissioning request that did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum CommissionError {
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// No reply within the timeout.
    #[error(
        "motor {motor} on `{interface}` did not answer {what} within {} ms: is it powered, on this bus, and at this id? (`robot can scan --interface {interface}` lists the ids that answer)",
        timeout.as_millis()
    )]
    NoReply {
        /// The interface.
        interface: String,
        /// The motor id asked.
        motor: u8,
        /// What was asked.
        what: &'static str,
        /// How long the request waited.
        timeout: Duration,
    },
    /// A motor id outside the range RobStride motors take.
    #[error("motor id {id} is out of range: RobStride motor ids are {min} to {max}", min = CanId::MIN, max = CanId::MAX)]
    BadId {
        /// The id given.
        id: u16,
    },
    /// A reply of the right communication type but not of the right kind (cannot happen with
    /// a decoder that maps each type to one kind; kept so that no input panics).
    #[error("motor {motor} answered {what} with a frame of another kind")]
    Unexpected {
        /// The motor.
        motor: u8,
        /// What was asked.
        what: &'static str,
    },
    /// The motor answered a parameter read with status "fail".
    #[error("motor {motor} refused to read parameter {index:#06X}")]
    ReadRefused {
        /// The motor.
        motor: u8,
        /// The parameter's index.
        index: u16,
    },
    /// A written parameter did not read back as written.
    #[error(
        "motor {motor} took the write of `{param}` = {wrote} but reads back {read}: the firmware refused or limited the value"
    )]
    NotConfirmed {
        /// The motor.
        motor: u8,
        /// The parameter's name.
        param: &'static str,
        /// The value written.
        wrote: String,
        /// The value read back.
        read: String,
    },
}

/// Checks that `id` is a motor id RobStride firmware takes.
pub fn motor_id(id: u16) -> Result<u8, CommissionError> {
    CanId::new(id)
        .map(CanId::get)
        .map_err(|_| CommissionError::BadId { id })
}

/// One bus, for commissioning.
pub struct Commissioner<'t> {
    transport: &'t mut dyn Transport,
    interface: String,
    host: u8,
    timeout: Duration,
}

impl std::fmt::Debug for Commissioner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Commissioner")
            .field("interface", &self.interface)
            .field("host", &self.host)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl<'t> Commissioner<'t> {
    /// Commissioning over `transport`, named `interface` in messages, as host `host`.
    pub fn new(transport: &'t mut dyn Transport, interface: &str, host: u8) -> Commissioner<'t> {
        Commissioner {
            transport,
            interface: interface.to_owned(),
            host,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// How long each request waits for its reply.
    pub fn timeout(mut self, timeout: Duration) -> Commissioner<'t> {
        self.timeout = timeout;
        self
    }

    /// Every motor in `ids` that answers get-id (type 0), in id order, with its run mode,
    /// angle and bus voltage read as parameters. Asks one id at a time: two motors sharing an
    /// id answer together, and the scan reports the first reply.
    ///
    /// Nothing is changed on any motor: get-id and parameter reads do not enable, stop or move.
    pub fn scan(&mut self, ids: RangeInclusive<u8>) -> Result<Vec<Found>, CommissionError> {
        let mut found = Vec::new();
        for motor in ids {
            let uid = match self.request(motor, Command::GetId, "get-id") {
                Ok(Reply::DeviceId { uid, .. }) => uid,
                Ok(_) | Err(CommissionError::NoReply { .. }) => continue,
                Err(e) => return Err(e),
            };
            let mut read = |param: Param| self.read_param(motor, param.index()).ok();
            found.push(Found {
                motor,
                uid,
                run_mode: match read(Param::RunMode) {
                    Some(ParamOutcome::Value(ParamValue::U8(mode))) => Some(mode),
                    _ => None,
                },
                position: f32_of(read(Param::MechPos)),
                vbus: f32_of(read(Param::Vbus)),
            });
        }
        Ok(found)
    }

    /// Gives motor `motor` the id `new` (type 7, effective at once); returns the UID the motor
    /// answers with from its new id.
    pub fn set_id(&mut self, motor: u8, new: u8) -> Result<[u8; 8], CommissionError> {
        match self.request(motor, Command::SetCanId { new_id: new }, "set-id")? {
            Reply::DeviceId { uid, .. } => Ok(uid),
            _ => Err(CommissionError::Unexpected {
                motor,
                what: "set-id",
            }),
        }
    }

    /// Makes the motor's present angle its mechanical zero (type 6), after stopping it (type 4):
    /// a zero moved under a running position loop would make the motor jump to the old target.
    /// Returns the angle read back afterwards (`mechPos`, rad), which is ≈ 0.
    pub fn set_zero(&mut self, motor: u8) -> Result<Option<f32>, CommissionError> {
        self.request(motor, Command::Stop, "stop")?;
        self.request(motor, Command::SetZero, "set-zero")?;
        Ok(f32_of(self.read_param(motor, Param::MechPos.index()).ok()))
    }

    /// Reads parameter `index` (type 17).
    pub fn read_param(&mut self, motor: u8, index: u16) -> Result<ParamOutcome, CommissionError> {
        match self.request(motor, Command::ReadParam { index }, "param-read")? {
            Reply::Param(reply) if reply.outcome == ParamOutcome::Failed => {
                Err(CommissionError::ReadRefused { motor, index })
            }
            Reply::Param(reply) => Ok(reply.outcome),
            _ => Err(CommissionError::Unexpected {
                motor,
                what: "param-read",
            }),
        }
    }

    /// Writes a parameter to the motor's RAM (type 18), then reads it back to confirm it holds
    /// the value written (run `save` to keep it over a power cycle).
    pub fn write_param(&mut self, motor: u8, write: ParamWrite) -> Result<(), CommissionError> {
        self.request(motor, Command::WriteParam(write), "param-write")?;
        let param = write.param();
        let read = self.read_param(motor, param.index())?;
        if read == ParamOutcome::Value(write.value()) {
            Ok(())
        } else {
            Err(CommissionError::NotConfirmed {
                motor,
                param: param.name(),
                wrote: write.value().to_string(),
                read: match read {
                    ParamOutcome::Value(value) => value.to_string(),
                    ParamOutcome::Unlisted(bytes) => format!("the bytes {bytes:02X?}"),
                    ParamOutcome::Failed => "a refusal".to_owned(),
                },
            })
        }
    }

    /// Saves the parameters written so far into the motor's flash (type 22).
    pub fn save(&mut self, motor: u8) -> Result<(), CommissionError> {
        self.request(motor, Command::Save, "save").map(|_| ())
    }

    /// Sends `command` to `motor` and waits for its reply.
    fn request(
        &mut self,
        motor: u8,
        command: Command,
        what: &'static str,
    ) -> Result<Reply, CommissionError> {
        // What an earlier request's late reply left behind must not answer this one.
        while self.transport.try_recv()?.is_some() {}
        let frame = command.encode(ANY_MODEL, self.host, motor);
        self.transport.send(&frame)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            match self.transport.try_recv()? {
                Some(frame) => {
                    if let Some(reply) = answer(&frame, &command, motor) {
                        return Ok(reply);
                    }
                }
                None if Instant::now() >= deadline => {
                    return Err(CommissionError::NoReply {
                        interface: self.interface.clone(),
                        motor,
                        what,
                        timeout: self.timeout,
                    });
                }
                None => std::thread::sleep(POLL),
            }
        }
    }
}

/// `frame` decoded, if it is the reply to `command` sent to `motor`.
fn answer(frame: &Frame, command: &Command, motor: u8) -> Option<Reply> {
    Reply::decode(frame)
        .ok()
        .filter(|reply| reply.answers(command, motor))
}

/// An f32 parameter's value.
fn f32_of(outcome: Option<ParamOutcome>) -> Option<f32> {
    match outcome {
        Some(ParamOutcome::Value(ParamValue::F32(x))) => Some(x),
        _ => None,
    }
}
