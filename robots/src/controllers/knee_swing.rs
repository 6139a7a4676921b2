//! A slow swing of lite_biped's left knee, a controller whose claims are in its type: it claims
//! the left leg's bus (`lite_biped::LeftLegBus`) and is handed only those seven joints, so it
//! runs under the controller manager beside a controller of the right leg
//! (`robot run --controllers left_knee_swing,right_leg_trajectory_controller`). Writing a
//! right-leg joint here would not compile.

use std::f64::consts::PI;

use robot_core::control_loop::ControllerError;
use robot_core::controller_manager::TypedController;
use robot_core::hardware::Clock;

use crate::lite_biped::lite_biped::{LeftLegBus, LeftLegBusCommand};
use crate::lite_biped::{LiteBiped, LiteBipedState};

/// The swing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KneeSwing {
    /// The knee's deepest bend, rad (it swings between where it started and this).
    pub depth: f64,
    /// One swing, s.
    pub period: f64,
    /// The servo it holds the leg with: stiffness N·m/rad, damping N·m·s/rad.
    pub gains: (f64, f64),
    started: Option<(f64, f64)>,
}

impl Default for KneeSwing {
    fn default() -> Self {
        KneeSwing {
            depth: 0.6,
            period: 4.0,
            gains: (40.0, 2.0),
            started: None,
        }
    }
}

impl TypedController<LiteBiped> for KneeSwing {
    type Claims = LeftLegBus;

    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        command: LeftLegBusCommand<'_>,
    ) -> Result<(), ControllerError> {
        // The manager seeded every joint where it is measured: the swing starts there, and
        // every joint of the leg is held there by the servo.
        let knee = command.left_knee_pitch.position;
        if !knee.is_finite() {
            return Err(ControllerError::new(
                "the left knee's position is not known",
            ));
        }
        self.started = Some((clock.time.as_secs_f64(), knee));
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        command: LeftLegBusCommand<'_>,
    ) -> Result<(), ControllerError> {
        let Some((t0, from)) = self.started else {
            return Err(ControllerError::new("updated before it was activated"));
        };
        let phase = 2.0 * PI * (clock.time.as_secs_f64() - t0) / self.period;
        let bend = 0.5 * (1.0 - phase.cos()); // 0 → 1 → 0, smooth at both ends
        let (stiffness, damping) = self.gains;
        for joint in [
            &mut *command.left_hip_pitch,
            &mut *command.left_hip_roll,
            &mut *command.left_hip_yaw,
            &mut *command.left_knee_pitch,
            &mut *command.left_ankle_yaw,
            &mut *command.left_ankle_pitch,
            &mut *command.left_ankle_roll,
        ] {
            joint.stiffness = stiffness;
            joint.damping = damping;
            joint.velocity = 0.0;
            joint.effort = 0.0;
        }
        command.left_knee_pitch.position = from + (self.depth - from) * bend;
        Ok(())
    }
}
