//! The shipped robot variants, each defined once with `robot!`:
//!
//! * [`lite_biped`]: a legs-only floating-base biped, 14 RobStride joints on two CAN buses, a base
//!   IMU, four-bar ankles;
//!
//! Their emitted descriptions are checked in under `robots/descriptions/<robot>/`.
#![warn(missing_docs)]

pub mod checked_in;
pub mod describe;
pub mod lite_biped;

pub use lite_biped::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// Every shipped robot's description.
pub fn all() -> [&'static robot_core::Robot; 1] {
    [LiteBiped::DESCRIPTION]
}
