//! `robot run --ros`: the running robot in the ROS 2 graph (crate `ros2-graph`), whatever the
//! backend: `/joint_states`, `/robot_description` (the backend's expanded URDF, as `emit` writes
//! it), `/tf` and `/tf_static`.

use robot_core::Backend;
use robot_core::typed::RobotTypes;
use ros2_graph::{GraphObserver, GraphOptions, RosGraph};

use crate::run::RunError;

pub use ros2_graph::DEFAULT_RATE_CAP_HZ;

/// How to join the graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RosRequest {
    /// The DDS domain (ROS_DOMAIN_ID).
    pub domain_id: u16,
    /// `/joint_states` and `/tf` at most this often, Hz.
    pub rate_cap_hz: f64,
}

impl Default for RosRequest {
    fn default() -> Self {
        RosRequest {
            domain_id: 0,
            rate_cap_hz: DEFAULT_RATE_CAP_HZ,
        }
    }
}

/// Joins the graph as robot `R` on `backend`. No DDS participant (no network, a port taken,
/// a domain out of range) is [`RunError::Ros`], before the loop starts.
pub fn start<R: RobotTypes>(
    request: &RosRequest,
    backend: Backend,
) -> Result<(RosGraph, GraphObserver<R>), RunError> {
    // The same text `emit` writes as `<robot>.<backend>.urdf`.
    let robot_description =
        robot_core::emit::urdf(R::DESCRIPTION, backend).map_err(|e| RunError::Backend {
            backend,
            reason: format!("cannot emit its URDF for /robot_description: {e}"),
        })?;
    Ok(RosGraph::start::<R>(GraphOptions {
        domain_id: request.domain_id,
        rate_cap_hz: request.rate_cap_hz,
        robot_description,
    })?)
}

/// The domain ROS 2 tools use here: `ROS_DOMAIN_ID`, 0 when unset or empty.
pub fn domain_from_env() -> Result<u16, String> {
    match std::env::var("ROS_DOMAIN_ID") {
        Ok(value) if !value.trim().is_empty() => value.trim().parse().map_err(|_| {
            format!("ROS_DOMAIN_ID is `{value}`, not a domain id (a whole number, 0 to 232)")
        }),
        _ => Ok(0),
    }
}
