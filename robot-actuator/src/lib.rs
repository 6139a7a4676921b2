//! The actuators' vocabulary, the one every crate of the project speaks:
//!
//! * [`Mit`]: the MIT law's five values (a joint's command, a motor's setpoint once the
//!   transmission has referred it, a simulated motor's target) and the law itself,
//!   [`Mit::torque`];
//! * [`MitSlots`]: where a joint's five values are in a flat command or state array, resolved
//!   once from the typed contract (`robot_model::typed::Layout::mit_slots`);
//! * [`RobstrideModel`]: the RobStride models, what each can do ([`ModelSpec`]) and the 16-bit
//!   ranges of its frames ([`Scaling`]): one table;
//! * the MIT frame's angle window: [`POSITION_SPAN`], [`LOOP`] and [`wrap`], the looping angle
//!   newer firmware reports.
//!
//! A leaf: no dependency (serde and schemars behind features, for the definition model), no_std,
//! below the definition model (`robot-model`), the RobStride codec (`robstride-protocol`), the
//! backends and the trajectory controller, so none of them depends on another for it.
#![no_std]
#![warn(missing_docs)]

mod mit;
mod model;
mod scaling;
mod slots;
mod window;

pub use mit::Mit;
pub use model::{ModelSpec, RobstrideModel};
pub use scaling::{Range, Scaling};
pub use slots::MitSlots;
pub use window::{LOOP, POSITION_SPAN, wrap};
