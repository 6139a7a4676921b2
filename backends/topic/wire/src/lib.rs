//! `ros2-wire`: ROS 2 on the wire with no ROS install — typed messages, their CDR encoding and
//! REP-2011 type hashes, QoS profiles, publishers and subscriptions over a pure-Rust DDS stack
//! (`rustdds`), with every DDS call on a thread of the participant's own.
//!
//! The rest of the workspace sees only this crate, never the DDS stack: the topic backend
//! (`backend-topic`) uses it for its commands and states, the runner for the ROS 2 graph. See
//! `docs/ros2-topic-backend.md` for the choices and what was measured.
//!
//! ```no_run
//! use ros2_wire::msg::JointState;
//! use ros2_wire::{Participant, QosProfile, TopicName};
//!
//! let mut builder = Participant::builder(0)?;
//! let topic = TopicName::new("/robot_joint_commands")?;
//! let mut commands = builder.publisher(&topic, QosProfile::reliable(1), JointState::default())?;
//! let states = TopicName::new("/robot_joint_states")?;
//! let mut states = builder.subscription::<JointState>(&states, QosProfile::SENSOR_DATA)?;
//! let participant = builder.start()?; // from here on, DDS runs on its own thread
//!
//! commands.message_mut().position = vec![0.1];
//! commands.publish(); // wait-free; the DDS thread sends it
//! if let Some(state) = states.take_latest() {
//!     println!("{:?}", state.message.position);
//! }
//! drop(participant); // stops and joins the thread
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Adding a message type is one [`ros_message!`] with its fields in `.msg` order; its DDS type
//! name and type hash follow from that declaration.
#![warn(missing_docs)]

pub mod cdr;
mod error;
pub mod message;
pub mod msg;
mod name;
mod outbox;
mod participant;
mod ports;
mod qos;
pub mod type_hash;

pub use error::WireError;
pub use message::{Byte, Field, FieldType, Message, RosType, TypeDescription};
pub use name::{MAX_LENGTH as MAX_TOPIC_NAME_LENGTH, TopicName, TopicNameError};
pub use participant::{
    EndpointCounters, MAX_DOMAIN_ID, OUTBOX_DEPTH, Participant, ParticipantBuilder, Publisher,
    Received, Subscription, domain_from_env,
};
pub use qos::{QosProfile, ReliabilityKind};
pub use type_hash::TypeHash;
