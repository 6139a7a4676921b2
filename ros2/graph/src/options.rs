//! What the graph publishes and where: the topics, the namespace, the rates, the parameters and
//! the controller manager it serves.

use std::sync::Arc;

use robot_runtime::controller_manager::ManagerHandle;
use ros2_msg::TopicName;

use crate::graph::GraphError;
use crate::parameters::Apply;

/// joint_state_broadcaster's rate when the loop is faster: 500 Hz.
pub const DEFAULT_RATE_CAP_HZ: f64 = 500.0;

/// `/diagnostics`' rate: diagnostic_updater's default period is one second.
pub const DEFAULT_DIAGNOSTICS_HZ: f64 = 1.0;

/// Which topics to publish; all by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topics {
    /// `joint_states`.
    pub joint_states: bool,
    /// `imu/data` (one per IMU of the definition; none without one).
    pub imu: bool,
    /// `<sensor>_broadcaster/wrench`, one per force/torque sensor.
    pub wrench: bool,
    /// `tf` and `tf_static`.
    pub tf: bool,
    /// `robot_description`.
    pub robot_description: bool,
    /// `diagnostics`.
    pub diagnostics: bool,
}

impl Default for Topics {
    fn default() -> Self {
        Topics {
            joint_states: true,
            imu: true,
            wrench: true,
            tf: true,
            robot_description: true,
            diagnostics: true,
        }
    }
}

/// What to publish, and where (the domain is the participant's).
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOptions {
    /// Put before every topic, as a node's namespace is (`/robot1` → `/robot1/joint_states`);
    /// empty for none.
    pub namespace: String,
    /// Which topics.
    pub topics: Topics,
    /// `joint_states`, `imu/data` and `tf` at most this often (Hz); the loop's rate when slower.
    pub rate_cap_hz: f64,
    /// `diagnostics` this often, in loop time (Hz).
    pub diagnostics_hz: f64,
    /// The URDF `robot_description` carries (the backend's expanded URDF).
    pub robot_description: String,
    /// The parameters file of the controllers (`controllers.yaml`): the nodes of every
    /// controller it names are made and serve its parameters ([`crate::parameters`]); empty
    /// for none.
    pub parameters_file: String,
    /// Whether the nodes run on simulated time (`use_sim_time`).
    pub use_sim_time: bool,
    /// The parameters that may be set while the robot runs, and what applies them; every
    /// other one is read-only.
    pub live: Vec<LiveParameter>,
    /// The controller manager `/controller_manager` serves the services of (`ros2 control`),
    /// when the run has one.
    pub controllers: Option<ManagerHandle>,
    /// The loop's rate (Hz), the controllers' update rate; the robot's when `None`.
    pub update_rate: Option<u32>,
    /// The ros2_control plugin the backend's joint components stand for
    /// (`list_hardware_components`); empty when not said.
    pub hardware_plugin: String,
}

/// A parameter that may be set while the robot runs.
#[derive(Clone)]
pub struct LiveParameter {
    /// Its node's name (`left_leg_trajectory_controller`).
    pub node: String,
    /// Its name (`allow_partial_joints_goal`).
    pub name: String,
    /// What applies a new value.
    pub apply: Apply,
}

impl std::fmt::Debug for LiveParameter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LiveParameter({}.{})", self.node, self.name)
    }
}

impl PartialEq for LiveParameter {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node && self.name == other.name && Arc::ptr_eq(&self.apply, &other.apply)
    }
}

impl GraphOptions {
    /// Every topic, in no namespace, at the default rates.
    pub fn new(robot_description: String) -> Self {
        GraphOptions {
            namespace: String::new(),
            topics: Topics::default(),
            rate_cap_hz: DEFAULT_RATE_CAP_HZ,
            diagnostics_hz: DEFAULT_DIAGNOSTICS_HZ,
            robot_description,
            parameters_file: String::new(),
            use_sim_time: false,
            live: Vec::new(),
            controllers: None,
            update_rate: None,
            hardware_plugin: String::new(),
        }
    }

    /// The full name of `topic` in the namespace.
    pub fn resolve(&self, topic: &str) -> Result<TopicName, GraphError> {
        let namespace = self.namespace.trim_end_matches('/');
        let full = match namespace {
            "" => format!("/{topic}"),
            ns if ns.starts_with('/') => format!("{ns}/{topic}"),
            ns => format!("/{ns}/{topic}"),
        };
        TopicName::new(&full).map_err(|source| GraphError::Namespace {
            namespace: self.namespace.clone(),
            source,
        })
    }
}
