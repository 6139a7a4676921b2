//! Simulated RobStride actuators, for the in-process bus: the firmware's answers to the private
//! protocol over a simple motor model, and the failures real motors have.

pub mod actuator;
pub mod motor;
pub mod robot;
pub mod wall_clock;

pub use actuator::{AngleReport, Failure, SimActuator, SimLog};
