//! What a [`crate::MockSystem`] is told at construction: GenericSystem's parameters plus the few
//! settings our typed model has no place for.

use robot_runtime::InterfaceKind;
use robot_runtime::model::MockParams;

/// Which command of a joint drives its states when `calculate_dynamics` is on.
///
/// GenericSystem learns this from the controller manager (`perform_command_mode_switch`, when a
/// controller claims `joint/position`, `joint/velocity` or `joint/acceleration`). Our controllers
/// claim nothing, so the mode is fixed when the mock is built: by default the lowest derivative
/// the joint declares as a command (position, else velocity, else acceleration), which is what a
/// controller claiming that interface would switch to; [`crate::MockSystem::with_command_mode`]
/// overrides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandMode {
    /// `position` command: velocity and acceleration are finite differences.
    Position,
    /// `velocity` command: position is integrated, acceleration is a finite difference.
    Velocity,
    /// `acceleration` command: velocity, then position, are integrated.
    Acceleration,
}

impl CommandMode {
    /// The command interface the mode follows.
    pub const fn interface(self) -> InterfaceKind {
        match self {
            CommandMode::Position => InterfaceKind::Position,
            CommandMode::Velocity => InterfaceKind::Velocity,
            CommandMode::Acceleration => InterfaceKind::Acceleration,
        }
    }
}

/// Everything a [`crate::MockSystem`] is configured with.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MockOptions {
    /// GenericSystem's parameters, as the definition's `mock { .. }` block gives them.
    pub params: MockParams,
    /// GenericSystem's `custom_interface_with_following_offset`: when set, mirrored position
    /// commands plus `position_state_following_offset` go to this state interface instead, and
    /// the position state gets no offset. Only a non-standard state interface may be named, which
    /// in our vocabulary is `current` or `temperature`. Not part of [`MockParams`] (the model has
    /// no such field), hence here.
    pub custom_interface_with_following_offset: Option<InterfaceKind>,
    /// Joints (indices into the robot's `joints`) the runtime configuration disables: they stay
    /// in the state at their initial values and their commands are never read.
    pub disabled_joints: Vec<usize>,
    /// Per-joint overrides of the [`CommandMode`] used with `calculate_dynamics`.
    pub command_modes: Vec<(usize, CommandMode)>,
}

impl MockOptions {
    /// These parameters and nothing else.
    pub fn new(params: MockParams) -> Self {
        MockOptions {
            params,
            ..MockOptions::default()
        }
    }

    /// Whether the runtime configuration disables that joint.
    pub fn is_disabled(&self, joint: usize) -> bool {
        self.disabled_joints.contains(&joint)
    }

    /// The override for that joint, if any (the last one given wins).
    pub fn command_mode_of(&self, joint: usize) -> Option<CommandMode> {
        self.command_modes
            .iter()
            .rev()
            .find(|(j, _)| *j == joint)
            .map(|&(_, mode)| mode)
    }
}
