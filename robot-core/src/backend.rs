//! Which plant a robot runs on, and how the emitted xacro selects it.
//!
//! The `.urdf.xacro` declares two booleans (`docs/backend-selection.md`): real hardware is the fallback and
//! `sim_mujoco` wins over `use_mock_hardware`.
//!
//! | `sim_mujoco` | `use_mock_hardware` | backend |
//! |---|---|---|
//! | false | false | real |
//! | false | true | mock |
//! | true | any | MuJoCo |

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A hardware backend.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    /// RobStride actuators over SocketCAN, one component per bus.
    Real,
    /// The MuJoCo simulator.
    Mujoco,
    /// No hardware: commands mirrored to states.
    Mock,
}

/// Name of the xacro arg that selects MuJoCo.
pub const SIM_MUJOCO_ARG: &str = "sim_mujoco";
/// Name of the xacro arg that selects the mock.
pub const USE_MOCK_HARDWARE_ARG: &str = "use_mock_hardware";

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 3] = [Backend::Real, Backend::Mujoco, Backend::Mock];

    /// The lowercase name used in file names and configs: `real`, `mujoco`, `mock`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Real => "real",
            Backend::Mujoco => "mujoco",
            Backend::Mock => "mock",
        }
    }

    /// The ros2_control plugin of the backend's joint blocks.
    pub const fn plugin(self) -> &'static str {
        match self {
            Backend::Real => "humanoid_devices_robstride/RobstrideSystem",
            Backend::Mujoco => "mujoco_ros2_control/MujocoSystem",
            Backend::Mock => "mock_components/GenericSystem",
        }
    }

    /// The backend the xacro selects for these arg values.
    pub const fn from_xacro_args(sim_mujoco: bool, use_mock_hardware: bool) -> Backend {
        match (sim_mujoco, use_mock_hardware) {
            (true, _) => Backend::Mujoco,
            (false, true) => Backend::Mock,
            (false, false) => Backend::Real,
        }
    }

    /// Arg values `(sim_mujoco, use_mock_hardware)` that select this backend.
    pub const fn xacro_args(self) -> (bool, bool) {
        match self {
            Backend::Real => (false, false),
            Backend::Mujoco => (true, false),
            Backend::Mock => (false, true),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_mujoco_wins_and_real_is_the_fallback() {
        assert_eq!(Backend::from_xacro_args(false, false), Backend::Real);
        assert_eq!(Backend::from_xacro_args(false, true), Backend::Mock);
        assert_eq!(Backend::from_xacro_args(true, false), Backend::Mujoco);
        assert_eq!(Backend::from_xacro_args(true, true), Backend::Mujoco);
        for backend in Backend::ALL {
            let (sim, mock) = backend.xacro_args();
            assert_eq!(Backend::from_xacro_args(sim, mock), backend);
        }
    }
}
