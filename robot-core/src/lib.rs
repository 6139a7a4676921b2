//! `robot-core`: the vocabulary of the workspace.
//!
//! A robot is defined once, with `robot!` (crate `robot-macros`), which expands to typed state and
//! command structs plus one `static` [`model::Robot`]. Everything else works from that model:
//!
//! * [`validate`]: the rules a definition must keep, shared by the macro and hand-built models;
//! * [`fourbar`]: joint ↔ motor kinematics of a four-bar linkage, and its assembly check;
//! * [`bus_load`]: worst-case CAN load per cycle;
//! * [`emit`]: URDF, xacro, ros2_control, `controllers.yaml`, MJCF and JSON Schema;
//! * [`build`]: for build scripts, so `cargo build` writes a robot crate's descriptions;
//! * [`typed`]: the contract between generated types and generic backends;
//! * [`config`]: the runtime configuration (backend, bus → OS interface, calibration);
//! * [`hardware`]: the hardware-component contract and its lifecycle, after ros2_control;
//! * [`control_loop`]: read → update → write at a fixed rate, with timing statistics.
//!
//! Feature `config` (on by default) adds the runtime-configuration loader and its JSON Schema
//! validation; `robot-macros` builds robot-core without it, so the macro does not compile a JSON
//! Schema validator.
#![warn(missing_docs)]

pub mod actuator;
pub mod backend;
pub mod build;
pub mod bus_load;
pub mod config;
pub mod control_loop;
pub mod controller_plan;
pub mod emit;
pub mod fourbar;
pub mod hardware;
pub mod interface;
pub mod model;
pub mod typed;
pub mod validate;

pub use actuator::RobstrideModel;
pub use backend::Backend;
pub use interface::InterfaceKind;
pub use model::Robot;
pub use typed::{ImuState, Quaternion, RobotTypes, Values, Vector3};

#[doc(hidden)]
/// Re-exports the code `robot!` generates refers to, so users need no extra dependencies.
pub mod __private {
    pub use std::borrow::Cow;
}
