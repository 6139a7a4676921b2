//! The RobStride backend (`humanoid_devices_robstride/RobstrideSystem` in the emitted real-path
//! `<ros2_control>` blocks): one hardware component per CAN bus, speaking the private protocol
//! (`robstride-protocol`) over a [`transport::Transport`]: SocketCAN on a real robot, or the
//! in-process bus of simulated actuators (crate `robstride-sim`).
//!
//! [`component::RobstrideBus`] is the component of one bus; what a command goes through before
//! it is sent is [`guard`], and [`turns`] counts the turns of a motor that loops past the MIT
//! frame's window.
#![warn(missing_docs)]

pub mod component;
pub mod guard;
pub mod turns;

/// How frames reach a bus (crate `robstride-transport`, which the simulated bus implements too).
pub use robstride_transport as transport;
