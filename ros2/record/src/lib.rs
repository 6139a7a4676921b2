//! `ros2-record`: every run recorded as a rosbag2 MCAP file that `ros2 bag play`, Foxglove and
//! PlotJuggler open, whatever the backend and with or without the ROS 2 graph.
//!
//! A control loop with a [`RecordObserver`] attached records, every cycle:
//!
//! * `/joint_states` (`sensor_msgs/JointState`), as ros2-graph publishes it;
//! * `/joint_commands` (`control_msgs/DynamicJointState`): every command interface of every
//!   joint, by its ros2_control name;
//! * `/tf` (`tf2_msgs/TFMessage`) for movable joints, and the floating base when a backend
//!   knows its pose;
//! * `/imu/data` (`sensor_msgs/Imu`) of each IMU, as ros2-graph names it;
//! * `/<sensor>_broadcaster/wrench` (`geometry_msgs/WrenchStamped`) of each force/torque sensor;
//!
//! once a second of loop time `/diagnostics` (`diagnostic_msgs/DiagnosticArray`, as ros2-graph
//! builds it: each component's lifecycle and counters); and once, before the first cycle,
//! `/tf_static` and `/robot_description` (the URDF).
//!
//! The control thread only copies its state and command into a bounded ring ([`observer`]);
//! this crate's thread encodes them as CDR and writes them ([`writer`]): zstd-compressed chunks
//! of at most 768 KiB, each written whole, so memory stays bounded and a killed run leaves a
//! file readable up to its last complete chunk. [`read`] reads a recording back; [`recover`]
//! makes a file cut short whole again, for the readers that need its summary.
#![warn(missing_docs)]

pub mod observer;
pub mod read;
mod recorder;
pub mod recover;
pub mod rosbag2;
pub mod schema;
pub mod topics;
pub mod writer;

pub use observer::RecordObserver;
pub use recorder::{DEFAULT_CAPACITY, RecordFile, RecordOptions, RecordReport, Recorder};
pub use writer::{McapRecording, RecordError};
