//! What a [`crate::MujocoSystem`] is built with: which model, how finely the physics steps, and
//! the gains of joints that have no MIT gains of their own.

use std::path::PathBuf;
use std::time::Duration;

/// What is simulated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ModelSource {
    /// The robot on the floor: its emitted `<robot>.scene.xml` (`robot_emit::scene`) with
    /// the `<robot>.mjcf.xml` it includes, both rendered from the definition, so no file has to
    /// be found. A floating base is free and starts at key `home`, its feet on the floor.
    #[default]
    Scene,
    /// Hanging on a test stand: the emitted `<robot>.stand.scene.xml`, the root held by a weld
    /// 5 cm above where it would stand (`robot_emit::STAND_CLEARANCE`), the feet in the
    /// air. A fixed-base robot has no stand scene (it stands on its base): the floor scene.
    Stand,
    /// A user's MJCF file (a scene including the robot, a tuned model), simulated as it is,
    /// whose joint, actuator and sensor names match the definition's.
    File(PathBuf),
}

pub use robot_runtime::hardware::ServoGains;

/// Everything a [`crate::MujocoSystem`] is configured with.
#[derive(Debug, Clone, PartialEq)]
pub struct MujocoOptions {
    /// The model.
    pub model: ModelSource,
    /// The control loop's period; the physics steps `substeps` times per period. By default the
    /// robot's update rate's.
    pub period: Option<Duration>,
    /// Physics steps per loop period: the timestep is `period / substeps`, so it always divides
    /// the period. The MIT law is computed again before every one of them.
    pub substeps: u32,
    /// Gains of position- or velocity-commanded joints without MIT gains.
    pub servo: ServoGains,
    /// Joints (indices into the robot's `joints`) the runtime configuration disables: read, never
    /// driven (no torque).
    pub disabled_joints: Vec<usize>,
    /// End the run when the robot falls ([`crate::fall`]): `read` fails saying when and how. A
    /// fall is reported at the end of the run either way.
    pub stop_on_fall: bool,
}

/// Physics steps per loop period by default: at lite_biped's 200 Hz a 1 ms timestep, which keeps
/// the explicitly applied MIT damping stable on its lightest joints (an ankle roll's rotor and
/// foot, about 1.5·10⁻³ kg·m², under 0.5 N·m·s/rad: the damping's stability bound is
/// 2·I/dt = 0.6 at 5 ms and 3 at 1 ms).
pub const DEFAULT_SUBSTEPS: u32 = 5;

impl Default for MujocoOptions {
    fn default() -> Self {
        MujocoOptions {
            model: ModelSource::default(),
            period: None,
            substeps: DEFAULT_SUBSTEPS,
            servo: ServoGains::default(),
            disabled_joints: Vec::new(),
            stop_on_fall: false,
        }
    }
}
