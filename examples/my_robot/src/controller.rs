//! The controller: the head looks around, each joint sweeping half its range.

use std::f64::consts::PI;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;

use crate::robot::{PanTilt, PanTiltCommand, PanTiltState, pan_tilt};

/// Both joints have the five MIT interfaces, so they share this type.
type Mit = pan_tilt::PositionVelocityEffortStiffnessDampingCommand;

/// Sweeps every joint around the middle of its range.
#[derive(Debug, Clone, Default)]
pub struct LookAround {
    started: f64,
}

impl Controller<PanTilt> for LookAround {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &PanTiltState,
        _command: &mut PanTiltCommand,
    ) -> Result<(), ControllerError> {
        self.started = clock.time.as_secs_f64();
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        state: &PanTiltState,
        command: &mut PanTiltCommand,
    ) -> Result<(), ControllerError> {
        if !state.tilt.position.is_finite() {
            return Err(ControllerError::new("tilt position is not a number"));
        }
        let t = clock.time.as_secs_f64() - self.started;
        for (joint, target) in command.joints_mut::<Mit>() {
            let Some((lower, upper)) = joint.limits.and_then(|l| l.lower.zip(l.upper)) else {
                continue;
            };
            let (middle, half) = ((lower + upper) / 2.0, (upper - lower) / 2.0);
            // Ramp in over the first second, so activation never jumps.
            let amplitude = half / 2.0 * t.min(1.0);
            target.position = middle + amplitude * (2.0 * PI * t / 4.0).sin();
            target.velocity = 0.0;
            target.effort = 0.0;
            target.stiffness = 10.0;
            target.damping = 0.5;
        }
        Ok(())
    }
}
