//! The tools around a RobStride bus that the command line's `robot can` runs, apart from the
//! component that drives the robot:
//!
//! * [`commission`]: the jobs done with a new motor on the bench (scan, set its id, set its zero,
//!   read, write and save its parameters), one request and one awaited reply at a time over any
//!   [`backend_robstride::transport::Transport`];
//! * [`inspect`]: frames to and from can-utils lines (`cansend`, `candump -L`) and JSON.
#![warn(missing_docs)]

pub mod commission;
pub mod inspect;
