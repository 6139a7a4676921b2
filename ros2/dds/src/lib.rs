//! `ros2-dds`: the DDS participant of a process and its thread, over a pure-Rust DDS stack
//! (`rustdds`): publishers and subscriptions of `ros2-msg`'s messages, every DDS call on the
//! participant's own thread. The only crate of the workspace that names the DDS stack.
//!
//! Services both ways: a node's servers ([`Node::service`]) and clients ([`Node::client`]), paired
//! as rmw_fastrtps pairs them ([`service`], [`client`]).
//!
//! A ROS 2 process is one participant, whatever its nodes: the runner makes one and hands it to
//! everything that speaks ROS 2 (the topic backend, the graph, the trajectory controller). See
//! `docs/ros2-topic-backend.md` for the choices and what was measured.
//!
//! ```no_run
//! use ros2_dds::Participant;
//! use ros2_msg::msg::JointState;
//! use ros2_msg::{QosProfile, TopicName};
//!
//! let participant = Participant::join(0)?; // from here on, DDS runs on its own thread
//! let topic = TopicName::new("/robot_joint_commands")?;
//! let mut commands =
//!     participant.publisher(&topic, QosProfile::reliable(1), JointState::default())?;
//! let states = TopicName::new("/robot_joint_states")?;
//! let mut states = participant.subscription::<JointState>(&states, QosProfile::SENSOR_DATA)?;
//!
//! commands.message_mut().position = vec![0.1];
//! commands.publish(); // wait-free; the DDS thread sends it
//! if let Some(state) = states.take_latest() {
//!     println!("{:?}", state.message.position);
//! }
//! drop((commands, states)); // deleted on the DDS thread
//! drop(participant); // the last handle: stops and joins the thread
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod action;
mod action_client;
mod adapters;
pub mod client;
pub mod discovery;
mod error;
mod node;
mod nodes;
mod outbox;
mod participant;
mod ports;
mod qos;
pub mod service;
mod topics;

pub use action::ActionServer;
pub use action_client::{ActionClient, new_goal_id};
pub use client::{CallError, ServiceClient};
pub use discovery::{Discovery, DiscoveryRange};
pub use error::WireError;
pub use node::Node;
pub use participant::{
    EndpointCounters, MAX_DOMAIN_ID, OUTBOX_DEPTH, Participant, domain_from_env,
};
pub use service::{Reply, ServiceCounters, ServiceServer};
pub use topics::{Publisher, Received, Subscription};
