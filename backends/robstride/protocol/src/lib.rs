//! The RobStride private CAN protocol (29-bit extended frames), as `docs/robstride-protocol.md`
//! describes it: no_std, allocation-free and independent of any transport.
//!
//! A [`Frame`] is what goes on the wire: a 29-bit id and up to 8 data bytes. It implements
//! [`embedded_can::Frame`], so SocketCAN (through the `socketcan` crate) and any other
//! embedded-can transport carry it unchanged.
//!
//! ```text
//! id   bit 28..24 communication type | bit 23..8 data area 2 | bit 7..0 destination   (§3)
//! data 8 bytes; u16 setpoints and feedback big-endian, parameter index and value little-endian
//! ```
//!
//! * [`id`]: the id layout and [`CommType`];
//! * [`Command`]: every host→motor request of §4, encoded with [`Command::encode`];
//! * [`Reply`]: every motor→host frame, decoded with [`Reply::decode`], which never panics and
//!   rejects what is malformed with a [`DecodeError`];
//! * [`Mit`]: the MIT law's five values, which a type-1 [`MitCommand`] carries, and
//!   [`RobstrideModel`] with its [`Scaling`]: the per-model ranges of §9 (manual family), from the
//!   actuators' vocabulary (`robot-actuator`, re-exported); [`Code16`]: the manual's formulas;
//! * [`Param`]: the parameter table of §8 with each parameter's type;
//! * the motor's side, for simulated actuators and traffic tools: [`Request::decode`] and
//!   [`Reply::encode`].
//!
//! ```
//! use robstride_protocol::{Command, Feedback, Mit, MitCommand, Reply, RobstrideModel};
//!
//! let hold = MitCommand::new(Mit { stiffness: 20.0, damping: 1.0, ..Mit::default() })?;
//! let frame = Command::Mit(hold).encode(RobstrideModel::RS03, 0xFD, 0x7F);
//! assert_eq!(frame.extended_id(), Some(0x017F_FF7F)); // zero torque is 0x7FFF
//!
//! // A feedback frame from motor 0x7F, in run mode, at rest.
//! let reply = robstride_protocol::Frame::extended(0x0280_7FFD, [0x7F, 0xFF, 0x7F, 0xFF, 0x7F, 0xFF, 0x01, 0x2C]);
//! assert!(Reply::decode(&reply)?.answers(&Command::Mit(hold), 0x7F));
//! let feedback = Feedback::decode(&reply, RobstrideModel::RS03)?;
//! assert_eq!(feedback.temperature, 30.0);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! # Decisions
//!
//! * **Scaling** is the manual family of docs/robstride-protocol.md §9, one row per model in
//!   [`RobstrideModel::scaling`] with its source, and the manual's formulas (truncating encode,
//!   `u·span/65535 + min` decode). The same rows, as f64, are [`RobstrideModel::spec`], what the
//!   definition's rules hold a joint's limits to: one table.
//! * **Out-of-range** setpoints are clamped to the model's range, as the manual's code does.
//! * **NaN and ±∞** are refused with [`EncodeError::NonFinite`] by [`MitCommand::new`],
//!   [`Range::encode`] and [`ParamWrite::new`]; none reaches the wire as 0x0000.
//! * **Replies** are matched on communication type and motor id ([`Reply::answers`]), never on
//!   the host byte.
//! * **Malformed** means: not an extended data frame of 8 bytes, a type the protocol does not
//!   define or that only a host sends, feedback mode bits of 3, or a parameter status other
//!   than 0/1. Undefined fault bits, unlisted parameter indices and bytes beyond a parameter's
//!   width are not malformed: they are kept ([`FaultWord::unknown_bits`],
//!   [`ParamOutcome::Unlisted`]) or ignored.
//!
//! # Benchmarks and fuzzing
//!
//! `cargo bench -p robstride-protocol` times one frame to and from physical units;
//! `compare/` (its own crate, outside the workspace) times the same work in K-Scale's
//! `robstride` 0.3.6; `fuzz/` holds the cargo-fuzz target `decode`
//! (`cargo +nightly fuzz run decode` in this directory).
#![no_std]
#![warn(missing_docs)]

mod command;
mod error;
mod fault;
mod feedback;
mod frame;
pub mod id;
mod param;
mod reply;
mod request;
mod scaling;

pub use command::{BaudRate, Command, MitCommand, Protocol};
pub use error::{DecodeError, EncodeError, Field};
pub use fault::{Fault, FaultFrame, FaultWord, WarningWord};
pub use feedback::{Feedback, FeedbackFault, FeedbackFaults, Mode, RawFeedback};
pub use frame::Frame;
pub use id::CommType;
pub use param::{CAN_TIMEOUT_TICKS_PER_SECOND, Param, ParamType, ParamValue, ParamWrite, RunMode};
pub use reply::{ParamOutcome, ParamReply, Reply};
pub use request::Request;
pub use robot_actuator::{Mit, ModelSpec, POSITION_SPAN, Range, RobstrideModel, Scaling};
pub use scaling::Code16;
