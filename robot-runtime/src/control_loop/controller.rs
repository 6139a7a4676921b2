//! What runs every active cycle between `read` and `write`.

use std::borrow::Cow;

use crate::hardware::Clock;
use crate::typed::RobotTypes;

/// A controller: computes commands from the state, every active cycle.
///
/// Every method runs on the control thread and must not allocate, block or lock. A panic is
/// caught: the loop switches the hardware off and ends with [`super::LoopError::Cycle`].
pub trait Controller<R: RobotTypes>: Send {
    /// Called once the hardware is active and the commands hold safe values, before the first
    /// active update. An `Err` refuses to start: the hardware is switched off again.
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let _ = (clock, state, command);
        Ok(())
    }

    /// One control step. An `Err` (a limit crossed, an estimate lost) stops the robot: the loop
    /// switches the hardware off and ends with that reason.
    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError>;

    /// Called after the hardware was switched off (nothing this controller writes reaches it
    /// any more): the place to reset integrators or trajectories.
    fn on_deactivate(&mut self, clock: Clock, state: &R::State) {
        let _ = (clock, state);
    }
}

/// Why a controller refuses to go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct ControllerError {
    reason: Cow<'static, str>,
}

impl ControllerError {
    /// A refusal; a `&'static str` reason allocates nothing.
    pub fn new(reason: impl Into<Cow<'static, str>>) -> Self {
        ControllerError {
            reason: reason.into(),
        }
    }

    /// Why.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}
