//! Backend selection: the components that drive a robot on the backend a runtime configuration
//! (or a flag) names. Each backend crate plugs in here, so robot crates never match on backends.

use backend_mock::MockSystem;
use robot_core::Backend;
use robot_core::config::RuntimeConfig;
use robot_core::hardware::Component;
use robot_core::typed::RobotTypes;

use crate::run::RunError;

/// Whether this build can drive `backend`: an error that says why not, before anything runs.
pub fn available(backend: Backend) -> Result<(), RunError> {
    match backend {
        Backend::Mock => Ok(()),
        Backend::Real | Backend::Mujoco => Err(not_built(backend)),
    }
}

/// The components that drive robot `R` on `backend`, honouring the configuration's disabled
/// joints.
pub fn components<R: RobotTypes>(
    backend: Backend,
    config: Option<&RuntimeConfig>,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    match backend {
        Backend::Mock => Ok(vec![Box::new(
            MockSystem::<R>::new().with_disabled_joints(&disabled_joints::<R>(config)),
        )]),
        Backend::Real | Backend::Mujoco => Err(not_built(backend)),
    }
}

fn not_built(backend: Backend) -> RunError {
    RunError::Backend {
        backend,
        reason: format!(
            "not in this build yet: the {} backend comes with its own issue; run with `--backend mock`",
            if backend == Backend::Real {
                "RobStride (SocketCAN)"
            } else {
                "MuJoCo"
            }
        ),
    }
}

/// Indices (into [`robot_core::Robot::joints`]) of the joints the configuration disables.
pub fn disabled_joints<R: RobotTypes>(config: Option<&RuntimeConfig>) -> Vec<usize> {
    let robot = R::DESCRIPTION;
    match config {
        Some(config) => (0..robot.joints.len())
            .filter(|&i| !config.joint_enabled(&robot.joints[i].name))
            .collect(),
        None => Vec::new(),
    }
}
