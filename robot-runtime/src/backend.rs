//! Which plant a robot runs on, and how the emitted xacro selects it.
//!
//! The `.urdf.xacro` declares three booleans (`docs/backend-selection.md`): real hardware is the
//! fallback, `sim_mujoco` wins over `use_topic_hardware`, which wins over `use_mock_hardware`.
//!
//! | `sim_mujoco` | `use_topic_hardware` | `use_mock_hardware` | backend |
//! |---|---|---|---|
//! | false | false | false | real |
//! | false | false | true | mock |
//! | false | true | any | topic |
//! | true | any | any | MuJoCo |

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
    /// Whatever speaks `sensor_msgs/JointState` on two topics (a simulator such as Isaac Sim, a
    /// robot's own driver), over DDS: JointStateTopicSystem.
    Topic,
}

/// Name of the xacro arg that selects MuJoCo.
pub const SIM_MUJOCO_ARG: &str = "sim_mujoco";
/// Name of the xacro arg that selects the mock.
pub const USE_MOCK_HARDWARE_ARG: &str = "use_mock_hardware";
/// Name of the xacro arg that selects the topic backend.
pub const USE_TOPIC_HARDWARE_ARG: &str = "use_topic_hardware";

/// The values of the xacro booleans that select a backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct XacroArgs {
    /// `sim_mujoco`.
    pub sim_mujoco: bool,
    /// `use_topic_hardware`.
    pub use_topic_hardware: bool,
    /// `use_mock_hardware`.
    pub use_mock_hardware: bool,
}

impl XacroArgs {
    /// Every combination, `sim_mujoco` the slowest-changing.
    pub const ALL: [XacroArgs; 8] = {
        let mut all = [XacroArgs {
            sim_mujoco: false,
            use_topic_hardware: false,
            use_mock_hardware: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = XacroArgs {
                sim_mujoco: i & 4 != 0,
                use_topic_hardware: i & 2 != 0,
                use_mock_hardware: i & 1 != 0,
            };
            i += 1;
        }
        all
    };

    /// `(name, value)` of each arg, in declaration order.
    pub const fn pairs(self) -> [(&'static str, bool); 3] {
        [
            (SIM_MUJOCO_ARG, self.sim_mujoco),
            (USE_TOPIC_HARDWARE_ARG, self.use_topic_hardware),
            (USE_MOCK_HARDWARE_ARG, self.use_mock_hardware),
        ]
    }
}

/// The topic backend's parameters as the emitted descriptions give them: upstream's defaults
/// (`joint_state_topic_hardware_interface`), which the runtime configuration's `topic:` section
/// starts from too.
pub mod topic_defaults {
    /// `joint_commands_topic`.
    pub const JOINT_COMMANDS_TOPIC: &str = "/robot_joint_commands";
    /// `joint_states_topic`.
    pub const JOINT_STATES_TOPIC: &str = "/robot_joint_states";
    /// `trigger_joint_command_threshold`.
    pub const TRIGGER_JOINT_COMMAND_THRESHOLD: f64 = 1e-5;
    /// `sum_wrapped_joint_states`.
    pub const SUM_WRAPPED_JOINT_STATES: bool = false;
    /// Where the topic backend reads the IMU (ours; upstream has no sensors).
    pub const IMU_TOPIC: &str = "/imu/data";
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 4] = [
        Backend::Real,
        Backend::Mujoco,
        Backend::Mock,
        Backend::Topic,
    ];

    /// The lowercase name used in file names and configs: `real`, `mujoco`, `mock`, `topic`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Real => "real",
            Backend::Mujoco => "mujoco",
            Backend::Mock => "mock",
            Backend::Topic => "topic",
        }
    }

    /// The ros2_control plugin of the backend's joint blocks.
    pub const fn plugin(self) -> &'static str {
        match self {
            Backend::Real => "humanoid_devices_robstride/RobstrideSystem",
            Backend::Mujoco => "mujoco_ros2_control/MujocoSystem",
            Backend::Mock => "mock_components/GenericSystem",
            Backend::Topic => "joint_state_topic_hardware_interface/JointStateTopicSystem",
        }
    }

    /// The backend the xacro selects for these arg values.
    pub const fn from_xacro_args(args: XacroArgs) -> Backend {
        if args.sim_mujoco {
            Backend::Mujoco
        } else if args.use_topic_hardware {
            Backend::Topic
        } else if args.use_mock_hardware {
            Backend::Mock
        } else {
            Backend::Real
        }
    }

    /// The arg values that select this backend, each other arg false.
    pub const fn xacro_args(self) -> XacroArgs {
        let none = XacroArgs {
            sim_mujoco: false,
            use_topic_hardware: false,
            use_mock_hardware: false,
        };
        match self {
            Backend::Real => none,
            Backend::Mujoco => XacroArgs {
                sim_mujoco: true,
                ..none
            },
            Backend::Mock => XacroArgs {
                use_mock_hardware: true,
                ..none
            },
            Backend::Topic => XacroArgs {
                use_topic_hardware: true,
                ..none
            },
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
    fn sim_mujoco_wins_then_topic_then_mock_and_real_is_the_fallback() {
        let selected: Vec<Backend> = XacroArgs::ALL
            .into_iter()
            .map(Backend::from_xacro_args)
            .collect();
        use Backend::*;
        // (sim_mujoco, use_topic_hardware, use_mock_hardware) counting up from all false.
        assert_eq!(
            selected,
            [Real, Mock, Topic, Topic, Mujoco, Mujoco, Mujoco, Mujoco]
        );
        for backend in Backend::ALL {
            assert_eq!(Backend::from_xacro_args(backend.xacro_args()), backend);
        }
    }
}
