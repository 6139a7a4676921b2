//! `ros2-state`: the running robot's state as ROS 2 messages, with no DDS: what the graph
//! (`ros2-graph`) publishes and a recording (`ros2-record`) keeps, each from the same cycles.
//!
//! * [`snapshot`]: what an observer of the control loop takes on the control thread, allocating
//!   nothing: each cycle's [`Snapshot`], every so often a [`Health`] ([`CycleTaker`]);
//! * `sensor_msgs/JointState` ([`JointStateLayout`]), `sensor_msgs/Imu` ([`ImuChannel`]),
//!   `geometry_msgs/WrenchStamped` ([`WrenchChannel`]), `tf2_msgs/TFMessage` ([`Frames`]) and
//!   `diagnostic_msgs/DiagnosticArray` ([`diagnostic_array`]) filled from them, in preallocated
//!   messages.
#![warn(missing_docs)]

pub mod diagnostics;
mod frames;
mod imu;
mod joint_states;
pub mod snapshot;
mod wrench;

pub use diagnostics::diagnostic_array;
pub use frames::{BaseFrame, Frames, JointFrame, WORLD_FRAME, ros_transform};
pub use imu::ImuChannel;
pub use joint_states::JointStateLayout;
pub use snapshot::{ComponentHealth, CycleTaker, Health, Snapshot};
pub use wrench::WrenchChannel;
