//! `ros2-graph`: the running robot in the ROS 2 graph, whatever its backend. A control loop
//! with a [`GraphObserver`] attached publishes what a ros2_control robot with
//! joint_state_broadcaster and robot_state_publisher publishes:
//!
//! * `/joint_states` (`sensor_msgs/JointState`): every movable joint in definition order, its
//!   position, velocity and effort (NaN where it has no such state), stamped with the cycle's
//!   time, at the loop's rate up to a cap;
//! * `/imu/data` (`sensor_msgs/Imu`) per IMU, as imu_sensor_broadcaster publishes it;
//! * `/<sensor>_broadcaster/wrench` (`geometry_msgs/WrenchStamped`) per force/torque sensor, as
//!   force_torque_sensor_broadcaster publishes it;
//! * `/robot_description` (`std_msgs/String`, reliable, transient-local, depth 1): the URDF;
//! * `/tf_static` (transient-local) for fixed joints and `/tf` for movable ones
//!   (`tf2_msgs/TFMessage`), parent link → child link, from the definition's own kinematics, so
//!   RViz needs no robot_state_publisher; a floating base as `world` → its root link, where the
//!   backend says it is (MuJoCo) or at its home pose;
//! * `/diagnostics` (`diagnostic_msgs/DiagnosticArray`, 1 Hz): the loop and each component.
//!
//! With a controller manager ([`GraphOptions::controllers`]), `/controller_manager` serves the
//! services `ros2 control` calls: `list_controllers`, `list_controller_types`,
//! `list_hardware_interfaces`, `switch_controller`.
//!
//! All in a namespace when asked ([`GraphOptions::namespace`]), each topic optional.
//!
//! The control thread only copies its state, command and base pose into a triple buffer
//! ([`GraphObserver`], taking `ros2-state`'s snapshots), and once a second each component's
//! lifecycle and counters into another; a publishing thread of this crate takes the newest when
//! it is due, fills preallocated messages (`ros2-state`) and hands them to the DDS thread
//! (`ros2-dds`). A snapshot the publisher
//! did not get to is replaced by the next, and counted; the cycle never waits.
#![warn(missing_docs)]

mod controller_manager;
mod diagnostics;
mod graph;
mod observer;
mod options;
pub mod parameters;
pub mod params_file;

pub use diagnostics::LoopWatch;
pub use graph::{GraphError, GraphReport, RosGraph};
pub use observer::GraphObserver;
pub use options::{
    DEFAULT_DIAGNOSTICS_HZ, DEFAULT_RATE_CAP_HZ, GraphOptions, LiveParameter, Topics,
};
