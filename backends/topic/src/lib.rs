//! `backend-topic`: the topic backend, ros2_control's
//! `joint_state_topic_hardware_interface/JointStateTopicSystem` in our contract: commands go out
//! as `sensor_msgs/JointState` on one topic, states come back on another, over DDS from pure
//! Rust (crates `ros2-msg` and `ros2-dds`), so the same typed controller drives anything that speaks
//! `JointState` — Isaac Sim, a simulator on another machine, a robot's own driver.
//!
//! Every DDS call runs on the participant's own thread; `read` and `write` only exchange
//! preallocated messages with it, wait-free (states through a triple buffer, commands through
//! a queue, so every command goes out), so the control thread never
//! waits on the network and allocates nothing (`tests/no_alloc.rs`). What it does, the upstream
//! defects it fixes and every difference are in `docs/ros2-topic-backend.md`; in short:
//!
//! * **parameters**: `joint_commands_topic` (`/robot_joint_commands`), `joint_states_topic`
//!   (`/robot_joint_states`), `trigger_joint_command_threshold` (1e-5; −1 publishes every
//!   cycle), `sum_wrapped_joint_states`; and, new here, a stale age, the IMU topic
//!   (`/imu/data`) and the DDS domain ([`TopicOptions`]);
//! * **QoS** as upstream: commands reliable, keep-last 1, volatile; states best effort,
//!   keep-last 5 (SensorDataQoS);
//! * **read**: joints matched by name, unknown names skipped, a joint not named keeps its
//!   value, non-finite values skipped, wrapped positions accumulated, mimic joints from the
//!   definition (position = offset + multiplier × the followed joint's, velocity ×
//!   multiplier); a message with an array neither empty nor as long as `name`, or a joint named
//!   twice, is refused whole and counted; states older than the stale age fail `read` with
//!   [`ErrorKind::Timeout`](robot_runtime::hardware::ErrorKind::Timeout), and the loop switches
//!   everything off;
//! * **write**: published when the summed |state − command| over the position, velocity and
//!   effort commands exceeds the threshold; every non-empty array lines up with `name`; a NaN
//!   command is sent as the held (measured) state, never NaN; `stiffness` and `damping` have no
//!   place in a `JointState` and are not sent (upstream warns and skips them too);
//! * **lifecycle**: `on_configure` joins the domain and waits for the first state;
//!   `on_deactivate`, `on_cleanup` and drop stop and join the DDS thread.
//!
//! [`SensorTopic`] is the same rule for one force/torque or contact sensor on the real path,
//! which has no device driver for either: read from the topic its vendor's driver publishes
//! (`geometry_msgs/WrenchStamped`, or `std_msgs/Bool` for a contact switch), one component per
//! sensor named as its `<ros2_control>` block; `on_configure` waits for the first reading
//! (naming the topic when none comes), a reading older than the stale age fails `read`, and a
//! message with a value that is not finite keeps the last reading and counts as none.
#![warn(missing_docs)]

mod intake;
mod link;
mod options;
mod plan;
mod sensors;
mod system;

pub use intake::Refusal;
pub use link::{COMMANDS_QOS, Endpoints, STATES_QOS};
pub use options::{
    DEFAULT_COMMANDS_TOPIC, DEFAULT_FIRST_STATE_TIMEOUT, DEFAULT_IMU_TOPIC, DEFAULT_STALE_PERIODS,
    DEFAULT_STATES_TOPIC, DEFAULT_THRESHOLD, MIN_DEFAULT_STALE_AGE, OptionsError, TopicOptions,
    TopicSettings,
};
pub use sensors::{FIRST_READING_TIMEOUT, SensorTopic, SensorTopicError, SensorTopicOptions};
pub use system::{OpenEndpoints, TopicSystem};
