//! The runtime configuration: which backend, which OS interface each bus is on, per-joint
//! calibration and enable. None of this is part of the definition (seed `004`: device names are
//! launch-time, not committed hardware truth). Its JSON Schema is `schema/config.schema.json`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::backend::Backend;

/// A runtime configuration file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Runtime configuration")]
pub struct RuntimeConfig {
    /// The robot this file is for, by its ROS name (`lite_biped`).
    pub robot: String,
    /// The backend to run on.
    pub backend: Backend,
    /// OS network interface of each bus, by bus name (`left_leg: can0`). Needed for `real`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub buses: BTreeMap<String, String>,
    /// Per-joint calibration and enable, by joint name; joints not named keep the defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub joints: BTreeMap<String, JointConfig>,
}

/// Calibration and enable of one joint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JointConfig {
    /// A disabled joint stays in every description but is never driven.
    #[serde(default = "enabled")]
    pub enabled: bool,
    /// Zero offset of the unit, rad, replacing the definition's; measured at commissioning.
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
