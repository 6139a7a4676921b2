//! `robot-runtime`: what runs a robot, over the definition model (`robot-model`, whose modules
//! are re-exported here, so a backend needs this crate alone).
//!
//! * [`hardware`]: the hardware-component contract and its lifecycle, after ros2_control;
//! * [`control_loop`]: read → update → write at a fixed rate, with timing statistics;
//! * [`config`]: the runtime configuration (backend, bus → OS interface, calibration);
//! * [`backend`]: the backends and the xacro switches that select them;
//! * [`gravity`]: the gravity torque fed forward through the typed command's `effort`s.
//!
//! Feature `load` adds the runtime-configuration loader (`config::load`) and its JSON Schema
//! validation; a backend takes a loaded configuration and goes without it. Emission (URDF, MJCF,
//! the XML writer) is `robot-emit`'s; `robot-core` re-exports both crates.
#![warn(missing_docs)]

pub mod backend;
pub mod config;
pub mod control_loop;
pub mod controller_manager;
pub mod gravity;
pub mod hardware;

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
