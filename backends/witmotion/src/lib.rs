//! The WitMotion IMU backend: the hardware component of the real path's `type="sensor"` IMU block
//! (`LiteBipedIMU`), reading a WitMotion-protocol IMU (the shipped robot's Yahboom WIT USB IMU;
//! WitMotion's and HiWonder's own) over a serial port, with the codec of `witmotion-protocol`
//! (`docs/witmotion-protocol.md`).
//!
//! ```text
//!  serial port ──▶ reader thread: read (≤ 10 ms wait) → Parser → one sample per frame set
//!                        │ Latest: a sequence lock of atomics (no lock, no allocation)
//!  control thread ◀──────┘ read(): the newest sample, its age checked, turned into the body's axes
//! ```
//!
//! * [`serial`]: opening the port, with errors that name it and say what to do;
//! * [`component::WitmotionImu`]: the lifecycle, `read`, staleness;
//! * [`mounting`]: the sensor frame's place in the robot, from the definition;
//! * [`options::ImuOptions`]: port, baud, rate, the age bound, the corruption bound.
//!
//! # Decisions
//!
//! * **A reader thread, not reads on the control thread.** The control thread then makes no
//!   system call for the IMU: it loads a handful of atomics. The reader blocks in `read(2)` (10 ms
//!   at most, to notice a stop), parses, and stamps each sample with its arrival time, so the
//!   age `read` checks is the sample's, not that of the cycle that happened to see it. It lives
//!   from configure to clean-up (an inactive component is still read) and is stopped and joined
//!   on clean-up, shutdown, `on_error` and drop.
//! * **The handoff is a sequence lock of atomics** ([`handoff`]), one writer, readers that
//!   never wait: no lock the reader could hold while the control thread needs the sample, no
//!   allocation, no `unsafe`.
//! * **A sample** is one frame of each needed kind (acceleration, angular velocity, and the
//!   quaternion, or the angles when the device sends none), published when the last of them
//!   arrives and dated by the first: its age is that of its oldest part.
//! * **Staleness** is the loop's business: `read` fails with [`ErrorKind::Timeout`] once the
//!   newest sample is older than [`options::ImuOptions::max_age`] (five device periods, at
//!   least 40 ms), whatever the cause (silence, unplugged, a stalled reader), and the loop
//!   switches every component off, as for a silent motor.
//! * **Every failure of the port ends the reader with a reason** `read` reports as
//!   [`ErrorKind::Bus`]: end of file, `EIO` or a hang-up (unplugged), more than 5 % of frames
//!   corrupt ([`reader::Corruption`]), a panic.
//!
//! [`ErrorKind::Timeout`]: robot_runtime::hardware::ErrorKind::Timeout
//! [`ErrorKind::Bus`]: robot_runtime::hardware::ErrorKind::Bus
#![warn(missing_docs)]

pub mod component;
mod confirm;
pub mod handoff;
pub mod link;
pub mod mounting;
pub mod options;
mod port;
pub mod reader;
pub mod serial;

pub use component::{Device, WitmotionImu};
pub use link::Link;
pub use options::ImuOptions;
