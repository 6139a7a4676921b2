//! The RobStride backend (`humanoid_devices_robstride/RobstrideSystem` in the emitted real-path
//! `<ros2_control>` blocks): one hardware component per CAN bus, speaking the private protocol
//! (`robstride-protocol`) over a [`transport::Transport`]: SocketCAN on a real robot, or an
//! in-process bus with simulated actuators.
//!
//! [`component::RobstrideBus`] is the component of one bus.
#![warn(missing_docs)]

pub mod commission;
pub mod component;
pub mod guard;
pub mod inspect;
pub mod sim;
pub mod transmission;
pub mod transport;
pub mod turns;
