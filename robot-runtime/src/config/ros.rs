//! The `ros:` section of a runtime configuration: how `robot run` shows the running robot in
//! the ROS 2 graph (crate `ros2-graph`), whatever the backend. Present, it turns publishing on
//! as `--ros` does; `--ros-rate` still overrides its rate.
//!
//! ```yaml
//! ros:
//!   namespace: /robot1        # before every topic; default: none
//!   domain_id: 0              # default: ROS_DOMAIN_ID, else 0
//!   rate_hz: 500              # joint_states, imu/data and tf at most this often
//!   diagnostics_hz: 1
//!   topics: { joint_states: true, imu: true, wrench: true, tf: true, robot_description: true, diagnostics: true }
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A namespace as the schema checks it: empty, or `/`-separated names (rcl's rules).
pub const NAMESPACE_PATTERN: &str = "^(/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*)?$";

/// joint_state_broadcaster's cap when the loop is faster, Hz.
pub const DEFAULT_ROS_RATE_HZ: f64 = 500.0;

/// diagnostic_updater's period, as a rate, Hz.
pub const DEFAULT_DIAGNOSTICS_HZ: f64 = 1.0;

/// How the running robot joins the ROS 2 graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RosConfig {
    /// Put before every topic (`/robot1` → `/robot1/joint_states`), as a node's namespace is;
    /// empty for none.
    #[serde(default)]
    #[schemars(regex(pattern = NAMESPACE_PATTERN))]
    pub namespace: String,
    /// The DDS domain; when left out, `ROS_DOMAIN_ID`, else 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 232))]
    pub domain_id: Option<u16>,
    /// `joint_states`, `imu/data` and `tf` at most this often, Hz; the loop's rate when slower.
    #[serde(default = "rate")]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub rate_hz: f64,
    /// `diagnostics` this often, Hz of loop time.
    #[serde(default = "diagnostics_rate")]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub diagnostics_hz: f64,
    /// Which topics to publish.
    #[serde(default)]
    pub topics: RosTopics,
}

/// Which topics to publish; every one unless turned off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RosTopics {
    /// `joint_states` (`sensor_msgs/JointState`).
    #[serde(default = "on")]
    pub joint_states: bool,
    /// `imu/data` (`sensor_msgs/Imu`), per IMU.
    #[serde(default = "on")]
    pub imu: bool,
    /// `<sensor>_broadcaster/wrench` (`geometry_msgs/WrenchStamped`), per force/torque sensor.
    #[serde(default = "on")]
    pub wrench: bool,
    /// `tf` and `tf_static` (`tf2_msgs/TFMessage`).
    #[serde(default = "on")]
    pub tf: bool,
    /// `robot_description` (`std_msgs/String`, transient-local).
    #[serde(default = "on")]
    pub robot_description: bool,
    /// `diagnostics` (`diagnostic_msgs/DiagnosticArray`).
    #[serde(default = "on")]
    pub diagnostics: bool,
}

fn on() -> bool {
    true
}

fn rate() -> f64 {
    DEFAULT_ROS_RATE_HZ
}

fn diagnostics_rate() -> f64 {
    DEFAULT_DIAGNOSTICS_HZ
}

impl Default for RosTopics {
    fn default() -> Self {
        RosTopics {
            joint_states: true,
            imu: true,
            wrench: true,
            tf: true,
            robot_description: true,
            diagnostics: true,
        }
    }
}

impl Default for RosConfig {
    fn default() -> Self {
        RosConfig {
            namespace: String::new(),
            domain_id: None,
            rate_hz: rate(),
            diagnostics_hz: diagnostics_rate(),
            topics: RosTopics::default(),
        }
    }
}
