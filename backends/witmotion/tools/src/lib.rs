//! The tools around a WitMotion-protocol IMU that the command line's `robot imu` runs, apart
//! from the component that reads it on the robot:
//!
//! * [`bringup`]: the jobs done with a new IMU on the bench (find its baud rate and settings,
//!   read it, set its rate, content and baud, calibrate it, save), one command and one awaited
//!   read-back at a time over the serial port;
//! * [`decode`]: a hex byte stream (`xxd -p /dev/ttyUSB0`) to one JSON object per frame.
#![warn(missing_docs)]

pub mod bringup;
pub mod decode;
