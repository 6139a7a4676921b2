//! The `sensors:` section of a runtime configuration: how the real path reads a force/torque or
//! contact sensor, which it has no device driver for. Each is read from a ROS 2 topic another
//! process publishes (the sensor vendor's driver), or declared undriven on purpose:
//!
//! ```yaml
//! sensors:
//!   left_ankle_ft: { topic: /left_ankle_ft/wrench }   # geometry_msgs/WrenchStamped
//!   left_sole: { topic: /left_sole/contact }          # std_msgs/Bool
//!   right_ankle_ft: { undriven: true }                # reads NaN, and the run says so
//! ```
//!
//! A sensor the real path is to run without appears here, one way or the other: without, the
//! run is refused, since a controller must not take a NaN for a reading unawares.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::topic::TOPIC_NAME_PATTERN;

/// How the real path reads one force/torque or contact sensor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SensorConfig {
    /// Read from this topic, which another process publishes: a force/torque sensor as
    /// `geometry_msgs/WrenchStamped` (force and torque in the sensor's frame), a contact sensor
    /// as `std_msgs/Bool` (in contact or not; its `normal_force` then reads NaN). Best effort,
    /// keep-last 5, as the topic backend takes its states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = TOPIC_NAME_PATTERN))]
    pub topic: Option<String>,
    /// Not driven, on purpose: its states read NaN, and the run's summary says it is undriven.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undriven: bool,
    /// A reading older than this ends the run, ms. Default: as the topic backend's states, five
    /// loop periods, at least 50 ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub stale_after_ms: Option<f64>,
}

impl SensorConfig {
    /// The topic it is read from, unless it is undriven.
    pub fn topic(&self) -> Option<&str> {
        self.topic.as_deref().filter(|_| !self.undriven)
    }
}
