//! Self-collision at the home pose ([`robot_collision`]), as a run and `emit` warn of it.
//!
//! On the MuJoCo backend the run leaves it to MuJoCo: its contact list after the initial state
//! (`backend_mujoco::overlap`) is reported with the run's statistics, the same pairs by the same
//! rules, and it is authoritative there. It sees the model actually simulated (a `--model` file
//! as well as the emitted scene) and its meshes, which the definition gives no size, and its
//! depth is the one the simulation pushes the links apart by. Printing this check too would
//! report each overlap twice, as two numbers.

use robot_core::{Backend, Robot};

/// The warnings of `robot`'s home pose for a run on `backend`, or for its descriptions (`None`):
/// each overlap, then the shapes left out. None on MuJoCo (see the module), and none for links
/// that are not one tree, which validation reports.
pub(crate) fn warnings(robot: &Robot, backend: Option<Backend>) -> Vec<String> {
    if backend == Some(Backend::Mujoco) {
        return Vec::new();
    }
    robot_collision::home_pose(robot)
        .map(|found| found.warnings())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use robot_core::Backend;

    robot_macros::robot! {
        robot Folded { update_rate: 100 Hz }
        bus b {}
        link base { collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } } }
        link upper {}
        link fore { collision box { size: [0.2, 0.04, 0.04], origin { xyz: [0.1, 0, 0.016] } } }
        joint shoulder: revolute {
            parent: base, child: upper, axis: [0, 0, 1],
            limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
            actuator { bus: b, can_id: 1, model: RS02 },
            command: [position], state: [position],
        }
        joint elbow: revolute {
            parent: upper, child: fore, axis: [0, 1, 0],
            limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
            actuator { bus: b, can_id: 2, model: RS02 },
            command: [position], state: [position],
        }
    }

    #[test]
    fn every_backend_but_mujoco_is_warned_mujoco_reports_its_own() {
        let warned = |backend| super::warnings(Folded::DESCRIPTION, backend).len();
        for backend in [Backend::Mock, Backend::Real, Backend::Topic] {
            assert_eq!(warned(Some(backend)), 1, "{backend}");
        }
        assert_eq!(warned(None), 1, "emit");
        assert_eq!(warned(Some(Backend::Mujoco)), 0);
    }
}
