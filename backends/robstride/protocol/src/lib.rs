//! The RobStride private CAN protocol (29-bit extended frames), as `shared/robstride/PROTOCOL.md`
//! describes it: no_std, allocation-free and independent of any transport.
//!
//! A [`Frame`] is what goes on the wire: a 29-bit id and up to 8 data bytes. It implements
//! [`embedded_can::Frame`], so SocketCAN (through the `socketcan` crate) and any other
//! embedded-can transport carry it unchanged.
#![no_std]
#![warn(missing_docs)]

mod frame;

pub use frame::Frame;
