//! `ros2-msg`: ROS 2 messages with no DDS and no ROS install: typed messages ([`msg`]), their CDR
//! encoding as ROS 2 puts it on the wire ([`cdr`]), REP-2011 type hashes ([`type_hash`]), topic
//! names and the QoS profiles rclcpp names.
//!
//! What carries them is `ros2-dds` (the participant and its thread); the robot's state as these
//! messages is `ros2-state`; a recording writes them without any network.
//!
//! Adding a message type is one [`ros_message!`] with its fields in `.msg` order; its DDS type
//! name and type hash follow from that declaration.
#![warn(missing_docs)]

pub mod action;
pub mod cdr;
pub mod control;
pub mod controller_manager;
pub mod message;
pub mod msg;
mod name;
pub mod parameters;
mod qos;
pub mod service;
pub mod type_hash;

pub use action::Action;
pub use message::{
    BoundedString, BoundedVec, Byte, Field, FieldType, Message, RosType, TypeDescription,
};
pub use name::{
    MAX_LENGTH as MAX_TOPIC_NAME_LENGTH, NodeName, NodeNameError, TopicName, TopicNameError,
};
pub use qos::{QosProfile, ReliabilityKind};
pub use service::Service;
pub use type_hash::TypeHash;
