//! `robot-core`: the vocabulary of the workspace, one dependency for a robot crate.
//!
//! A robot is defined once, with `robot!` (crate `robot-macros`), which expands to typed state and
//! command structs plus one `static` [`model::Robot`]. Everything else works from that model:
//!
//! * from `robot-model`: [`model`], [`validate`] (the rules), [`fourbar`], [`kinematics`] (link
//!   poses, the lowest collision point), [`dynamics`] (inverse dynamics, gravity torques), [`bus_load`], [`actuator`], [`controller_plan`],
//!   [`typed`] (the contract between generated types and generic backends);
//! * from `robot-runtime`: [`hardware`] (the hardware-component contract and its lifecycle, after
//!   ros2_control), [`control_loop`] (read → update → write at a fixed rate, with timing
//!   statistics), [`config`] (the runtime configuration: backend, bus → OS interface,
//!   calibration), [`backend`], [`gravity`] (gravity feed-forward through `effort` commands);
//! * from `robot-emit`: [`emit`] (URDF, xacro, ros2_control, `controllers.yaml`, MJCF and its
//!   scenes, the ROS 2 package) and [`build`], so `cargo build` writes a robot crate's
//!   descriptions.
//!
//! This crate only re-exports those three: a backend depends on `robot-runtime` alone and never
//! compiles the emitters. Feature `config` (on by default) adds the runtime-configuration loader
//! and its JSON Schema validation (`robot-runtime`'s feature `load`).
#![warn(missing_docs)]

pub use robot_emit::{self as emit, build, package_info};
pub use robot_runtime::{backend, config, control_loop, controller_manager, gravity, hardware};

pub use robot_model::{
    actuator, bus_load, controller_plan, dynamics, fourbar, interface, kinematics, model, number,
    schema, transmission, typed, validate,
};

pub use actuator::{Mit, RobstrideModel};
pub use backend::Backend;
pub use interface::InterfaceKind;
pub use model::Robot;
pub use typed::{
    ContactState, ForceTorqueState, ImuState, Quaternion, RobotTypes, Values, Vector3,
};

#[doc(hidden)]
/// Re-exports the code `robot!` generates refers to, so users need no extra dependencies.
pub mod __private {
    pub use std::borrow::Cow;
}
