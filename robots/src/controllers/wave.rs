//! A slow wave for `six_axis_arm`: every arm joint follows its own sine around zero at a fraction
//! of its range, the gripper opens and closes. Position-only, as the arm's interfaces are.

use std::f64::consts::PI;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;

use crate::six_axis_arm::{SixAxisArm, SixAxisArmCommand, SixAxisArmState, six_axis_arm};

/// Every six_axis_arm joint's command (the arm's six and the gripper): a position.
type Position = six_axis_arm::PositionCommand;

/// The wave controller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wave {
    /// Amplitude as a fraction of each joint's half-range (continuous joints: of π).
    pub amplitude: f64,
    /// Time of one full wave, s.
    pub period: f64,
    /// The command seeded at activation (the measured positions), so the wave starts there.
    start: SixAxisArmCommand,
    activated_at: f64,
}

impl Default for Wave {
    fn default() -> Self {
        Wave {
            amplitude: 0.3,
            period: 6.0,
            start: SixAxisArmCommand::default(),
            activated_at: 0.0,
        }
    }
}

impl Controller<SixAxisArm> for Wave {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &SixAxisArmState,
        command: &mut SixAxisArmCommand,
    ) -> Result<(), ControllerError> {
        self.start = *command;
        // From the measured pose, within the limits: a joint resting on its stop can read a hair
        // past it (the 16-bit feedback), which the backend would clamp and count.
        for (joint, start) in self.start.joints_mut::<Position>() {
            let (lower, upper) =
                joint
                    .limits
                    .as_ref()
                    .map_or((f64::NEG_INFINITY, f64::INFINITY), |l| {
                        (
                            l.lower.unwrap_or(f64::NEG_INFINITY),
                            l.upper.unwrap_or(f64::INFINITY),
                        )
                    });
            let measured = if start.position.is_finite() {
                start.position
            } else {
                0.0
            };
            start.position = measured.clamp(lower, upper);
        }
        self.activated_at = clock.time.as_secs_f64();
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &SixAxisArmState,
        command: &mut SixAxisArmCommand,
    ) -> Result<(), ControllerError> {
        let t = clock.time.as_secs_f64() - self.activated_at;
        // Fade in over the first second from the activation pose.
        let fade = (t / 1.0).clamp(0.0, 1.0);
        let joints = self
            .start
            .joints::<Position>()
            .zip(command.joints_mut::<Position>());
        for (index, ((_, start), (joint, target))) in joints.enumerate() {
            let (centre, half) = match joint.limits.as_ref().and_then(|l| l.lower.zip(l.upper)) {
                Some((lower, upper)) => ((lower + upper) / 2.0, (upper - lower) / 2.0),
                None => (0.0, PI),
            };
            let phase = 2.0 * PI * t / self.period + index as f64 * PI / 3.5;
            let wave = centre + self.amplitude * half * phase.sin();
            target.position = start.position * (1.0 - fade) + wave * fade;
        }
        Ok(())
    }
}
