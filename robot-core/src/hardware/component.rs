//! One hardware component: the unit ros2_control loads from a `<ros2_control>` block.

use std::time::Duration;

use super::error::HardwareError;
use crate::typed::RobotTypes;

/// Time as the control loop gives it to every call of a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Since the loop started.
    pub time: Duration,
    /// Since the previous cycle started (the nominal period on the first cycle).
    pub period: Duration,
}

/// What a component drives: indices into the robot's `joints` and `sensors`. A [`super::System`]
/// refuses two components claiming the same item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Claims {
    /// Indices into [`crate::Robot::joints`].
    pub joints: Vec<usize>,
    /// Indices into [`crate::Robot::sensors`].
    pub sensors: Vec<usize>,
}

/// A hardware component driving part (or all) of robot `R`.
///
/// A component writes only the state slots of what it [`claims`](Component::claims), and reads
/// only their command slots. It resolves which slots those are once, in `on_init` or
/// `on_configure`, through [`RobotTypes::STATE_LAYOUT`] and [`RobotTypes::COMMAND_LAYOUT`].
pub trait Component<R: RobotTypes>: Send {
    /// The component's name, as its `<ros2_control>` block is called (`LiteBipedLeftLeg`).
    fn name(&self) -> &str;

    /// The joints and sensors this component drives.
    fn claims(&self) -> &Claims;

    /// Checks the definition against what the backend supports; opens nothing.
    fn on_init(&mut self) -> Result<(), HardwareError>;

    /// Opens the bus, loads the model; may block. Unconfigured → inactive.
    fn on_configure(&mut self) -> Result<(), HardwareError>;

    /// Releases what `on_configure` opened. Inactive → unconfigured. Also called on a component
    /// whose `on_configure` failed, so it must be safe on a half-opened component.
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        Ok(())
    }

    /// Enables the hardware. `command` already holds safe values
    /// ([`super::seed_safe_commands`]); a component may make its own slots safer still.
    /// Inactive → active.
    fn on_activate(
        &mut self,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError>;

    /// Disables the hardware (torque off). Active → inactive. Must be safe to call after a failed
    /// `read`, `write` or `on_activate` (the System calls it on a component whose activation
    /// failed, which may have enabled some motors already).
    fn on_deactivate(&mut self) -> Result<(), HardwareError>;

    /// Fills this component's slots of `state`. Inactive and active; never allocates or blocks.
    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError>;

    /// Sends this component's slots of `command`. Active only; never allocates or blocks.
    fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError>;
}
