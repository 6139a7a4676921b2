//! `ros2-trajectory`: joint_trajectory_controller's topic interface on any backend. A
//! [`TrajectoryController`] follows `trajectory_msgs/JointTrajectory` on
//! `/<group>_trajectory_controller/joint_trajectory` for each trajectory group of the robot's
//! emitted `controllers.yaml`, so a ROS user's tools command the robot by the names they would
//! use with ros2_control:
//!
//! * joints by name, in any order; a goal naming a joint the group does not have is refused; a
//!   partial goal too, unless `allow_partial_joints_goal` (then the joints left out hold);
//! * `time_from_start` relative to the header stamp, a zero stamp meaning on receipt; a goal
//!   that ended before it arrived is refused;
//! * cubic interpolation where the points give velocities, linear otherwise; after the last
//!   point it holds it;
//! * a new goal replaces what is left of the current one from its start time, starting from
//!   where the group was meant to be then; an empty one stops and holds;
//! * NaN or infinite values, times that do not increase, positions beyond the joint's limits and
//!   arrays of the wrong length are refused with the reason on stderr, counted
//!   ([`TrajectoryStats`]), and the group keeps what it was doing.
//!
//! Each controller also serves joint_trajectory_controller's FollowJointTrajectory action on
//! `/<group>_trajectory_controller/follow_joint_trajectory` (what MoveIt executes through):
//! preemption, cancel, path and goal tolerances from the goal over the controller's
//! `constraints` ([`Constraints`]), feedback at 20 Hz, and `~/controller_state` at 100 Hz; see
//! `docs/follow-joint-trajectory.md`.
//!
//! Messages and goals are checked on an intake thread of this crate and handed to the control thread in
//! preallocated buffers ([`MAX_POINTS`] points) through lock-free rings; the cycle never
//! allocates, frees or waits.
#![warn(missing_docs)]

mod controller;
mod follow;
mod forward;
mod goals;
mod group;
mod intake;
mod report;
mod tolerance;
mod trajectory;
mod validate;

pub use controller::{Apply, LiveSetting, TrajectoryController, TrajectoryOptions};
pub use forward::{ForwardCommandController, ForwardError, ForwardStats};
pub use goals::ACTION_MONITOR_RATE_HZ;
pub use group::{Group, GroupJoint, groups};
pub use intake::{IntakeError, TrajectoryStats};
pub use report::SAMPLE_RATE_HZ;
pub use tolerance::{Constraints, StateTolerance, ToleranceError, Tolerances, for_goal};
pub use trajectory::{Hold, MAX_POINTS, Trajectory};
pub use validate::{Refusal, fill};
