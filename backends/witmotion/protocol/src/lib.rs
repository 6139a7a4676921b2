//! The WitMotion standard serial protocol, as `docs/witmotion-protocol.md` describes it: the
//! protocol of WitMotion's IMUs and of those built on them (the Yahboom WIT USB IMU on the
//! shipped robot's base, HiWonder's). no_std, allocation-free and independent of any transport.
//!
//! The device streams 11-byte output frames; the host writes 5-byte configuration commands.
//!
//! ```text
//! output  0x55  type  w0 lo hi  w1 lo hi  w2 lo hi  w3 lo hi  sum      sum = Σ bytes 0–9 mod 256
//! command 0xFF  0xAA  register  value lo  value hi
//! ```
//!
//! * [`Parser`]: frames out of a byte stream pushed in chunks of any size, every checksum
//!   verified, resynchronising after garbage, a truncated frame or a `0x55` inside data, with
//!   [`Counters`] of what it drops;
//! * [`Frame`] and [`FrameKind`]: one frame, from the wire ([`Frame::from_bytes`]) and to it
//!   ([`Frame::encode`], from raw words with [`Frame::from_words`]);
//! * [`Reading`]: a frame in SI units (m/s², rad/s, rad, a unit quaternion, °C), decoded with
//!   [`Reading::decode`] and, for a simulated device, encoded with [`Reading::encode`];
//! * [`scale`]: every scale factor with its source;
//! * [`Command`]: unlock, save, output content, rate, baud rate, calibration, register reads,
//!   to and from the 5 bytes;
//! * [`Quaternion`] and the sensor's axis and Euler-angle conventions ([`orientation`]).
//!
//! ```
//! use witmotion_protocol::{Command, OutputRate, Parser, Reading};
//!
//! // Three frames a WTGAHRS2 sent (tests/captures.rs), and a byte of line noise.
//! let stream = [
//!     0x55, 0x51, 0x32, 0x00, 0x69, 0x00, 0x01, 0x08, 0x10, 0x0C, 0x66, // acceleration
//!     0xE7,
//!     0x55, 0x53, 0x1F, 0x02, 0x02, 0xFF, 0xD6, 0x05, 0xEB, 0x46, 0xD6, // angles
//!     0x55, 0x59, 0x9C, 0x7F, 0x6F, 0x03, 0xAF, 0xFE, 0x32, 0x09, 0x23, // quaternion
//! ];
//! let mut parser = Parser::new();
//! let readings: Vec<Reading> = parser.push(&stream).map(|f| Reading::decode(&f)).collect::<Result<_, _>>()?;
//! let [Reading::Acceleration(a), Reading::Angle(angle), Reading::Quaternion(q)] = readings[..] else { panic!() };
//! assert!((a.z - 9.81).abs() < 0.01 && a.temperature == 30.88);
//! assert!(angle.to_quaternion().angle_to(q) < 0.001); // the device's two orientations agree
//! assert_eq!(parser.counters().skipped_bytes, 1);
//!
//! assert_eq!(Command::Unlock.encode(), [0xFF, 0xAA, 0x69, 0x88, 0xB5]);
//! assert_eq!(Command::SetOutputRate(OutputRate::Hz200).encode(), [0xFF, 0xAA, 0x03, 0x0B, 0x00]);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! # Decisions
//!
//! * **Malformed** means: a first byte other than `0x55`, a type byte that no WitMotion source
//!   documents (`0x50`–`0x5A` and `0x5F` are), a checksum that fails, or a quaternion frame
//!   whose norm is off 1 by more than [`scale::QUATERNION_NORM_TOLERANCE`]. A clock that reads
//!   month 13, a temperature of 0 or an angle out of its range are not: they are decoded as sent.
//! * **Resynchronisation** drops only the `0x55` of a rejected candidate and searches again
//!   from the next byte, so a frame that started inside the rejected bytes is found. Each byte
//!   pushed is in a returned frame, in [`Counters::skipped_bytes`], or held as
//!   [`Parser::pending`] for the next chunk.
//! * **Counters**: [`Counters::frames`] valid frames, [`Counters::checksum_failures`]
//!   candidates with a documented type and a bad sum, [`Counters::unknown_types`] `0x55` bytes
//!   followed by an undocumented type, [`Counters::skipped_bytes`] bytes dropped for any reason.
//! * **Units**: g is standard gravity, 9.80665 m/s² ([`scale::STANDARD_GRAVITY`] says why);
//!   angular velocity and angles in radians; the magnetic field stays in raw counts, for which
//!   no source gives one scale.
//! * **Encoding** rounds to the nearest word and saturates at full scale; angles wrap. NaN and
//!   ±∞ are refused ([`EncodeError`]).
//! * **Not here**: the mounting rotation of the robot's definition (the component applies it),
//!   the JY61 family's 3-byte commands and MPU6050 temperature scale, Modbus and CAN framings.
//!
//! # Sources
//!
//! WitMotion's SDK, `WITMOTION/WitStandardProtocol_JY901` at commit `e8f4e3a`
//! (`Linux_C/normal/REG.h`, `Linux_C/normal/wit_c_sdk.c`, `Linux_C/normal/main.c`, the Python,
//! C# and ROS examples), and its recordings at commit `e498177`; WitMotion's WT901 (v20-0702),
//! WT901SDCL (v20-0605) and HWT905-TTL (v20-0707) datasheets; raw frames a WTGAHRS2 sent, in
//! `heyjdp/witmotion_WTGAHRS2_c_code_linux` (`README.md`, commit `7f2ea95`);
//! `ElettraSciComp/witmotion_IMU_QT` (`include/witmotion/types.h`, `src/util.cpp`, commit
//! `f86b70f`), whose quaternion order (x, y, z, w) the recordings contradict.
//!
//! # Benchmarks and fuzzing
//!
//! `cargo bench -p witmotion-protocol` times one frame decoded to SI units and the parser's
//! throughput on a stream with 10 % garbage; `fuzz/` holds the cargo-fuzz target `parser`
//! (`cargo +nightly fuzz run parser` in this directory).
#![no_std]
#![warn(missing_docs)]

mod command;
mod error;
mod frame;
mod kind;
pub mod orientation;
mod parser;
mod reading;
pub mod scale;

pub use command::{
    BaudRate, COMMAND_HEADER, COMMAND_LEN, Calibration, Command, KEY_UNLOCK, OutputContent,
    OutputRate, register,
};
pub use error::{CommandError, DecodeError, EncodeError, Field, FrameError};
pub use frame::{FRAME_LEN, Frame, HEADER};
pub use kind::FrameKind;
pub use orientation::Quaternion;
pub use parser::{Counters, Frames, Parser};
pub use reading::{Acceleration, Angle, AngularVelocity, MagneticField, Reading, Time};
