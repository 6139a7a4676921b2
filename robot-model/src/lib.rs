//! `robot-model`: a robot definition and its rules, and nothing above them.
//!
//! * [`model`]: links, joints, buses, actuators, sensors — one [`model::Robot`];
//! * [`validate`]: the rules a definition must keep, shared by `robot!` and hand-built models;
//! * [`fourbar`]: joint ↔ motor kinematics of a four-bar linkage, and its assembly check;
//! * [`kinematics`]: link poses from joint positions, and the lowest collision point;
//! * [`dynamics`]: inverse dynamics by recursive Newton–Euler, and the gravity torque;
//! * [`bus_load`]: worst-case CAN load per cycle, and the ceiling a bus may carry;
//! * [`actuator`]: the RobStride models' ranges;
//! * [`controller_plan`]: which controller claims which joint's interfaces;
//! * [`typed`]: the contract between `robot!`'s generated types and generic code;
//! * [`schema`]: the JSON Schema of the definition; [`number`]: how floats are written.
//!
//! `robot!` needs only this crate, so expanding a robot builds no XML writer, YAML parser, JSON
//! Schema validator or libc bindings. `robot-core` re-exports every module, so users and the
//! generated code name them `robot_core::model`, `robot_core::typed`, ...
#![warn(missing_docs)]

pub mod actuator;
pub mod bus_load;
pub mod controller_plan;
pub mod dynamics;
#[cfg(any(test, feature = "fixture"))]
pub mod fixture;
pub mod fourbar;
pub mod interface;
pub mod kinematics;
pub mod model;
mod number;
pub mod schema;
pub mod transmission;
pub mod typed;
pub mod validate;

pub use actuator::{Mit, RobstrideModel};
pub use interface::InterfaceKind;
pub use model::Robot;
pub use number::number;
pub use typed::{
    ContactState, ForceTorqueState, ImuState, Quaternion, RobotTypes, Values, Vector3,
};
