//! The `topic:` section of a runtime configuration: the topic backend's parameters, upstream's
//! (`joint_state_topic_hardware_interface`) plus what it lacks (`docs/ros2-topic-backend.md`).
//!
//! ```yaml
//! topic:
//!   joint_commands_topic: /robot_joint_commands
//!   joint_states_topic: /robot_joint_states
//!   trigger_joint_command_threshold: 0.00001   # -1: publish every cycle
//!   sum_wrapped_joint_states: false
//!   stale_after_ms: 50          # default: five loop periods, at least 50 ms
//!   imu_topic: /imu/data        # null: the IMU is not driven
//!   domain_id: 0                # default: the `ros:` section's, else ROS_DOMAIN_ID, else 0
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::backend::topic_defaults;

/// A ROS topic name as the schema checks it: `/`-separated parts, each a letter or `_` then
/// letters, digits and `_` (rcl's rules, without substitutions).
pub const TOPIC_NAME_PATTERN: &str = "^/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$";

/// Settings of the topic backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopicConfig {
    /// Where commands are published, as `sensor_msgs/JointState` (reliable, keep-last 1).
    #[serde(default = "commands_topic")]
    #[schemars(regex(pattern = TOPIC_NAME_PATTERN))]
    pub joint_commands_topic: String,
    /// Where states are read from, as `sensor_msgs/JointState` (best effort, keep-last 5).
    #[serde(default = "states_topic")]
    #[schemars(regex(pattern = TOPIC_NAME_PATTERN))]
    pub joint_states_topic: String,
    /// Commands are published when the summed |state − command| over the position, velocity
    /// and effort commands exceeds this; a negative value publishes every cycle.
    #[serde(default = "threshold")]
    pub trigger_joint_command_threshold: f64,
    /// Positions on the states topic wrap at ±2π (Isaac Sim): accumulate them into a
    /// continuous angle.
    #[serde(default)]
    pub sum_wrapped_joint_states: bool,
    /// States (and IMU readings) older than this end the run, ms. Default: five loop periods,
    /// at least 50 ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub stale_after_ms: Option<f64>,
    /// Where the IMU is read from, as `sensor_msgs/Imu`; `null`: the IMU is not driven (it
    /// reads NaN).
    #[serde(default = "imu_topic")]
    #[schemars(regex(pattern = TOPIC_NAME_PATTERN))]
    pub imu_topic: Option<String>,
    /// The DDS domain; when left out, the `ros:` section's, else `ROS_DOMAIN_ID`, else 0. A
    /// process is one DDS participant in one domain: a `ros:` section naming another is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 232))]
    pub domain_id: Option<u16>,
}

fn commands_topic() -> String {
    topic_defaults::JOINT_COMMANDS_TOPIC.to_string()
}

fn states_topic() -> String {
    topic_defaults::JOINT_STATES_TOPIC.to_string()
}

fn threshold() -> f64 {
    topic_defaults::TRIGGER_JOINT_COMMAND_THRESHOLD
}

fn imu_topic() -> Option<String> {
    Some(topic_defaults::IMU_TOPIC.to_string())
}

impl Default for TopicConfig {
    fn default() -> Self {
        TopicConfig {
            joint_commands_topic: commands_topic(),
            joint_states_topic: states_topic(),
            trigger_joint_command_threshold: threshold(),
            sum_wrapped_joint_states: topic_defaults::SUM_WRAPPED_JOINT_STATES,
            stale_after_ms: None,
            imu_topic: imu_topic(),
            domain_id: None,
        }
    }
}

impl TopicConfig {
    /// Whether every setting is the default (the section is then left out when written).
    pub fn is_default(&self) -> bool {
        *self == TopicConfig::default()
    }
}
