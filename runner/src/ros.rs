//! `robot run --ros`, or a configuration's `ros:` section: the running robot in the ROS 2 graph
//! (crate `ros2-graph`), whatever the backend: `/joint_states`, `/imu/data`, `/tf`,
//! `/tf_static`, `/robot_description` (the backend's expanded URDF, as `emit` writes it) and
//! `/diagnostics`.

use robot_core::Backend;
use robot_core::config::{RosConfig, RuntimeConfig};
use robot_core::typed::RobotTypes;
use ros2_dds::Participant;
use ros2_graph::{GraphObserver, GraphOptions, LiveParameter, RosGraph, Topics};

use crate::run::error::RunError;

pub use ros2_graph::{DEFAULT_DIAGNOSTICS_HZ, DEFAULT_RATE_CAP_HZ};

/// How to join the graph.
#[derive(Debug, Clone, PartialEq)]
pub struct RosRequest {
    /// The DDS domain (ROS_DOMAIN_ID).
    pub domain_id: u16,
    /// Before every topic; empty for none.
    pub namespace: String,
    /// Which topics.
    pub topics: Topics,
    /// `/joint_states`, `/imu/data` and `/tf` at most this often, Hz.
    pub rate_cap_hz: f64,
    /// `/diagnostics` this often, Hz of loop time.
    pub diagnostics_hz: f64,
    /// The parameters a ROS user may set while the robot runs (the trajectory controllers'
    /// `allow_partial_joints_goal`); every other one is read-only.
    pub live: Vec<LiveParameter>,
    /// The controller manager whose services `/controller_manager` serves, when the run has one.
    pub controllers: Option<robot_core::controller_manager::ManagerHandle>,
}

impl Default for RosRequest {
    fn default() -> Self {
        RosRequest {
            domain_id: 0,
            namespace: String::new(),
            topics: Topics::default(),
            rate_cap_hz: DEFAULT_RATE_CAP_HZ,
            diagnostics_hz: DEFAULT_DIAGNOSTICS_HZ,
            live: Vec::new(),
            controllers: None,
        }
    }
}

/// What `--ros`, `--ros-rate` and the configuration's `ros:` section ask for together: `None`
/// when neither the flag nor the section is there. The domain is the section's, else
/// `ROS_DOMAIN_ID`'s, else 0; the rate is the flag's, else the section's, else 500 Hz.
pub fn request(
    flag: bool,
    rate_hz: Option<u32>,
    config: Option<&RuntimeConfig>,
) -> Result<Option<RosRequest>, String> {
    let section = config.and_then(|c| c.ros.as_ref());
    if !flag && section.is_none() {
        return match rate_hz {
            Some(_) => Err(
                "--ros-rate sets how often the ROS 2 graph is published: give --ros too, or a \
                 config with a `ros:` section"
                    .to_string(),
            ),
            None => Ok(None),
        };
    }
    let section = section.cloned().unwrap_or_default();
    let RosConfig {
        namespace,
        domain_id,
        rate_hz: section_rate,
        diagnostics_hz,
        topics,
    } = section;
    Ok(Some(RosRequest {
        domain_id: match domain_id {
            Some(domain) => domain,
            None => domain_from_env()?,
        },
        namespace,
        topics: Topics {
            joint_states: topics.joint_states,
            imu: topics.imu,
            wrench: topics.wrench,
            tf: topics.tf,
            robot_description: topics.robot_description,
            diagnostics: topics.diagnostics,
        },
        rate_cap_hz: rate_hz.map_or(section_rate, f64::from),
        diagnostics_hz,
        live: Vec::new(),
        controllers: None,
    }))
}

/// Publishes robot `R` on `backend` into the graph, on the run's `participant`, its nodes
/// serving the parameters of `controllers.yaml`, on simulated time when `use_sim_time`. An
/// endpoint that cannot be made is [`RunError::Ros`], before the loop starts.
///
/// The topic backend reads its IMU from a topic (`/imu/data` by default): when that is the
/// topic the graph would publish the IMU on, the graph leaves the IMU out, rather than echo the
/// readings back to the backend's own subscription (the simulator publishes them already).
pub fn start<R: RobotTypes>(
    request: &RosRequest,
    backend: Backend,
    config: Option<&RuntimeConfig>,
    participant: &Participant,
    use_sim_time: bool,
    rate: u32,
    progress: &mut dyn std::io::Write,
) -> Result<(RosGraph, GraphObserver<R>), RunError> {
    // The same text `emit` writes as `<robot>.<backend>.urdf`.
    let robot_description =
        robot_core::emit::urdf(R::DESCRIPTION, backend).map_err(|e| RunError::Backend {
            backend,
            reason: format!("cannot emit its URDF for /robot_description: {e}"),
        })?;
    let parameters_file =
        robot_core::emit::controllers_yaml(R::DESCRIPTION).map_err(|e| RunError::Backend {
            backend,
            reason: format!("cannot emit controllers.yaml for the controllers' parameters: {e}"),
        })?;
    let mut options = GraphOptions {
        namespace: request.namespace.clone(),
        topics: request.topics,
        rate_cap_hz: request.rate_cap_hz,
        diagnostics_hz: request.diagnostics_hz,
        parameters_file,
        use_sim_time,
        live: request.live.clone(),
        controllers: request.controllers.clone(),
        update_rate: Some(rate),
        hardware_plugin: backend.plugin().to_string(),
        ..GraphOptions::new(robot_description)
    };
    if backend == Backend::Topic && options.topics.imu {
        let imu_in = config.map_or_else(
            || Some(robot_core::backend::topic_defaults::IMU_TOPIC.to_string()),
            |c| c.topic.imu_topic.clone(),
        );
        let echoes = ros2_state::ImuChannel::of(R::DESCRIPTION, &R::STATE_LAYOUT)
            .iter()
            .any(|imu| {
                options.resolve(&imu.topic).ok().map(|t| t.to_string())
                    == imu_in
                        .as_deref()
                        .map(|t| format!("/{}", t.trim_start_matches('/')))
            });
        if echoes {
            options.topics.imu = false;
            let _ = writeln!(
                progress,
                "note: the topic backend reads the IMU from {}: the ROS 2 graph does not publish it again",
                imu_in.unwrap_or_default()
            );
        }
    }
    Ok(RosGraph::start::<R>(options, participant)?)
}

/// The domain ROS 2 tools use here: `ROS_DOMAIN_ID`, 0 when unset or empty.
pub use ros2_dds::domain_from_env;
