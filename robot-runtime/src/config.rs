//! The runtime configuration: which backend, which OS interface each bus is on, per-joint
//! calibration and enable. None of this is part of the definition (`docs/runtime-configuration.md`: device names are
//! launch-time, not committed hardware truth). Its JSON Schema is `schema/config.schema.json`.
//!
//! ```yaml
//! # yaml-language-server: $schema=../../schema/config.schema.json
//! robot: lite_biped
//! backend: real
//! buses:
//!   left_leg: can0
//!   right_leg: can1
//! joints:
//!   left_knee_pitch:
//!     zero_offset: 0.0123
//!   right_ankle_roll:
//!     enabled: false
//! imus:
//!   base_imu: { port: /dev/ttyUSB0, baud: 460800 }   # or `port: sim`
//! sensors:   # force/torque and contact sensors, which the real path has no driver for
//!   left_ankle_ft: { topic: /left_ankle_ft/wrench }   # read from another process's topic
//!   right_ankle_ft: { undriven: true }                # or not driven, on purpose: NaN
//! mujoco:
//!   model: stand      # what the MuJoCo backend simulates: scene (default) | stand | file.xml
//! topic:
//!   joint_states_topic: /isaac_joint_states   # the topic backend's settings
//! ros:
//!   namespace: /robot1   # publish into the ROS 2 graph (as `--ros`), in this namespace
//! ```
//!
//! Each bus needs an interface of its own: the real backend runs one ros2_control component per
//! bus, and two components on one interface would each open a socket on it and see each other's
//! replies; the bus-load budget, too, is per wire.
//!
//! With the `config` feature (on by default), `load` reads such a file, validates it against
//! the schema, deserializes it and checks it against the robot, and reports every error at once,
//! one a line, each naming the file, the field and what was expected:
//!
//! ```text
//! configs/lite_biped.mock.yaml: joints.left_knee_pitch.enabled: expected a boolean, found "yes"
//! configs/lite_biped.mock.yaml: buses.left_lge: unknown bus; did you mean `left_leg`? lite_biped has left_leg, right_leg
//! ```

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::backend::Backend;
use crate::model::Joint;

#[cfg(feature = "load")]
mod check;
#[cfg(feature = "load")]
mod duplicate;
#[cfg(feature = "load")]
mod error;
mod imu;
#[cfg(feature = "load")]
mod load;
mod mujoco;
mod ros;
#[cfg(feature = "load")]
mod schema;
mod sensors;
mod topic;
#[cfg(feature = "load")]
mod yaml;

#[cfg(feature = "load")]
pub use error::{ConfigError, FieldError};
pub use imu::{
    DEFAULT_IMU_RATE_HZ, IMU_BAUD_RATES, IMU_RATES_HZ, ImuConfig, SIMULATED_IMU, SIMULATED_IMU_BAUD,
};
#[cfg(feature = "load")]
pub use load::{load, parse, peek_robot, robot_name_of, unknown_robot};
pub use mujoco::{MUJOCO_MODEL_WORDS, MujocoConfig, MujocoModel, MujocoModelError};
pub use ros::{
    DEFAULT_DIAGNOSTICS_HZ, DEFAULT_ROS_RATE_HZ, NAMESPACE_PATTERN, RosConfig, RosTopics,
};
pub use sensors::SensorConfig;
pub use topic::{TOPIC_NAME_PATTERN, TopicConfig};

/// A runtime configuration file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Runtime configuration")]
pub struct RuntimeConfig {
    /// The robot this file is for, by its ROS name (`lite_biped`).
    pub robot: String,
    /// The backend to run on.
    pub backend: Backend,
    /// OS network interface of each bus, by bus name (`left_leg: can0`). Needed for `real`. Each
    /// bus needs an interface of its own: two components on one would see each other's replies.
    /// `sim` is reserved: an in-process bus with simulated actuators, one per bus that names it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub buses: BTreeMap<String, String>,
    /// Per-joint calibration and enable, by joint name; joints not named keep the defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub joints: BTreeMap<String, JointConfig>,
    /// Serial port and settings of each IMU, by sensor name (`base_imu: { port: /dev/ttyUSB0,
    /// baud: 460800 }`). Needed for `real`, which refuses to run an IMU it cannot read. `sim` is
    /// reserved: a simulated device on a pseudo-terminal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub imus: BTreeMap<String, ImuConfig>,
    /// How the real path reads each force/torque and contact sensor, by sensor name: from a
    /// topic another process publishes (`left_ankle_ft: { topic: /left_ankle_ft/wrench }`), or
    /// undriven on purpose (`{ undriven: true }`). Needed for `real`, which refuses a sensor
    /// given neither.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sensors: BTreeMap<String, SensorConfig>,
    /// Settings of the MuJoCo backend (used when it runs, whichever backend the file names).
    #[serde(default, skip_serializing_if = "MujocoConfig::is_default")]
    pub mujoco: MujocoConfig,
    /// Settings of the topic backend (used when it runs, whichever backend the file names).
    #[serde(default, skip_serializing_if = "TopicConfig::is_default")]
    pub topic: TopicConfig,
    /// Publish the running robot into the ROS 2 graph (as `robot run --ros`), and how: its
    /// namespace, domain, rates and topics. Left out: only with `--ros`, with the defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // An object in the schema, not `anyOf [object, null]`: a bad field is then reported at
    // itself, not as the whole section matching neither.
    #[schemars(with = "RosConfig")]
    pub ros: Option<RosConfig>,
}

/// Calibration and enable of one joint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JointConfig {
    /// A disabled joint stays in every description but is never driven.
    #[serde(default = "enabled")]
    pub enabled: bool,
    /// Zero offset of the unit, rad, replacing the definition's; measured at commissioning.
    /// The joint's whole range through it stays within ±4096 rad, where turns are counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero_offset: Option<f64>,
}

fn enabled() -> bool {
    true
}

impl Default for JointConfig {
    fn default() -> Self {
        JointConfig {
            enabled: true,
            zero_offset: None,
        }
    }
}

impl RuntimeConfig {
    /// Whether the joint is driven: `false` only when the file disables it.
    pub fn joint_enabled(&self, name: &str) -> bool {
        self.joints.get(name).is_none_or(|j| j.enabled)
    }

    /// The joints the file disables, by name.
    pub fn disabled_joints(&self) -> impl Iterator<Item = &str> {
        self.joints
            .iter()
            .filter(|(_, j)| !j.enabled)
            .map(|(name, _)| name.as_str())
    }

    /// The zero offset of the joint's unit, rad: the file's, else the definition's
    /// (`actuator.zero_offset`); `0` for a joint without an actuator.
    pub fn zero_offset(&self, joint: &Joint) -> f64 {
        self.joints
            .get(joint.name.as_ref())
            .and_then(|j| j.zero_offset)
            .or_else(|| joint.actuator.as_ref().map(|a| a.zero_offset))
            .unwrap_or(0.0)
    }

    /// What the MuJoCo backend simulates: the file's `mujoco.model`, else the floor scene.
    pub fn mujoco_model(&self) -> MujocoModel {
        self.mujoco.model.clone()
    }

    /// The serial port and settings of the IMU `sensor`, when the file gives them.
    pub fn imu(&self, sensor: &str) -> Option<&ImuConfig> {
        self.imus.get(sensor)
    }

    /// How the real path reads force/torque or contact sensor `sensor`, when the file says.
    pub fn sensor(&self, sensor: &str) -> Option<&SensorConfig> {
        self.sensors.get(sensor)
    }

    /// The OS network interface of the bus (`can0`), when the file maps it.
    pub fn interface_of(&self, bus: &str) -> Option<&str> {
        self.buses.get(bus).map(String::as_str)
    }
}

#[cfg(all(test, feature = "load"))]
mod tests;

/// The reserved interface name that puts a bus of the real backend on an in-process bus with
/// simulated RobStride actuators instead of SocketCAN: the whole real path (protocol, timing,
/// faults) without hardware. Each bus that names it gets a simulated bus of its own, so it is the
/// one name several buses may share.
pub const SIMULATED_BUS: &str = "sim";

/// `schema/config.schema.json`: the JSON Schema of a runtime configuration file, generated from
/// [`RuntimeConfig`], the type it describes.
pub fn json_schema() -> String {
    crate::schema::generate::<RuntimeConfig>("config.schema.json")
}
