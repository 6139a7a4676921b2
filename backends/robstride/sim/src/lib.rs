//! Simulated RobStride actuators on an in-process CAN bus, so the whole real path runs with no
//! hardware: tests, benchmarks and runtime configurations whose bus is `sim` use it; the
//! component (`backend-robstride`) never does.
//!
//! * [`bus`]: the in-process bus, [`SimBus`], whose host end ([`SimHost`]) is a
//!   [`robstride_transport::Transport`], with the faults a real bus has (lost, late and
//!   foreign frames, send failures, silence);
//! * [`actuator`]: [`SimActuator`], the firmware's answers to the private protocol (operation
//!   control, enable and stop, zero, parameters, the CAN watchdog, faults) over
//!   [`motor`]'s model of the shaft;
//! * [`robot`]: one simulated actuator per joint of a robot's bus, calibrated as the robot is;
//! * [`wall_clock`]: the bus on wall-clock time, for running a controller in real time.
#![warn(missing_docs)]

pub mod actuator;
pub mod bus;
pub mod motor;
pub mod robot;
pub mod wall_clock;

pub use actuator::{AngleReport, Failure, SimActuator, SimLog};
pub use bus::{NodeId, SimBus, SimHost};
