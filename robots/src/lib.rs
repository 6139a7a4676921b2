//! The shipped robot variants, each defined once with `robot!`:
//!
//! * [`lite_biped`]: a legs-only floating-base biped, 14 RobStride joints on two CAN buses, a base
//!   IMU, four-bar ankles;
//! * [`six_axis_arm`]: a fixed-base arm on one bus, its trajectories followed with gravity fed
//!   forward, with a mimic gripper.
//!
//! Their emitted descriptions are checked in under `robots/descriptions/<robot>/`; `cargo build`
//! also writes them into the build's output folder (see `build.rs`), and the `robot` tool
//! (`src/bin/robot.rs`) is the crate's `robot_runner::App`.
#![warn(missing_docs)]

pub mod checked_in;
pub mod controllers;
pub mod lite_biped;
pub mod six_axis_arm;

pub use lite_biped::{LiteBiped, LiteBipedCommand, LiteBipedState};
pub use six_axis_arm::{SixAxisArm, SixAxisArmCommand, SixAxisArmState};

/// Every shipped robot's description.
pub fn all() -> [&'static robot_core::Robot; 2] {
    [LiteBiped::DESCRIPTION, SixAxisArm::DESCRIPTION]
}
