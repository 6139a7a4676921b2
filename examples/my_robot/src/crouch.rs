//! A controller for the strider: both legs bend into a crouch and back, the hips and ankles
//! keeping the feet flat, written once for a leg through the limb's per-side view.

use std::f64::consts::PI;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;

use crate::strider::{Strider, StriderCommand, StriderState};

/// Crouches to `depth` rad of knee and back up every `period` seconds.
#[derive(Debug, Clone)]
pub struct Crouch {
    /// Knee bend at the bottom, rad.
    pub depth: f64,
    /// One down and up, s.
    pub period: f64,
    started: f64,
}

impl Default for Crouch {
    fn default() -> Self {
        Crouch {
            depth: 0.8,
            period: 4.0,
            started: 0.0,
        }
    }
}

impl Controller<Strider> for Crouch {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &StriderState,
        _command: &mut StriderCommand,
    ) -> Result<(), ControllerError> {
        self.started = clock.time.as_secs_f64();
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &StriderState,
        command: &mut StriderCommand,
    ) -> Result<(), ControllerError> {
        let t = clock.time.as_secs_f64() - self.started;
        // A raised cosine from 0 to `depth` and back; it starts at rest, so no jump.
        let knee = self.depth * (1.0 - (2.0 * PI * t / self.period).cos()) / 2.0;
        for leg in command.leg() {
            // left, then right: the same code for both legs.
            leg.hip_pitch.position = -knee / 2.0;
            leg.knee_pitch.position = knee;
            leg.ankle_pitch.position = -knee / 2.0;
            for joint in [leg.hip_pitch, leg.knee_pitch, leg.ankle_pitch] {
                joint.velocity = 0.0;
                joint.effort = 0.0;
                joint.stiffness = 20.0;
                joint.damping = 0.5;
            }
        }
        Ok(())
    }
}
