//! A slow wave for `six_axis_arm`: every arm joint follows its own sine around zero at a fraction
//! of its range, the gripper opens and closes. Position-only, as the arm's interfaces are.

use std::f64::consts::PI;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;

use crate::six_axis_arm::{SixAxisArm, SixAxisArmCommand, SixAxisArmState};

/// The wave controller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wave {
    /// Amplitude as a fraction of each joint's half-range (continuous joints: of π).
    pub amplitude: f64,
    /// Time of one full wave, s.
    pub period: f64,
    /// Seeded positions at activation, so the wave starts there.
    start: [f64; 7],
    activated_at: f64,
}

impl Default for Wave {
    fn default() -> Self {
        Wave {
            amplitude: 0.3,
            period: 6.0,
            start: [0.0; 7],
            activated_at: 0.0,
        }
    }
}

fn positions(c: &mut SixAxisArmCommand) -> [&mut f64; 7] {
    [
        &mut c.shoulder_yaw.position,
        &mut c.shoulder_pitch.position,
        &mut c.elbow.position,
        &mut c.wrist_pitch.position,
        &mut c.wrist_yaw.position,
        &mut c.wrist_roll.position,
        &mut c.gripper.position,
    ]
}

impl Controller<SixAxisArm> for Wave {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &SixAxisArmState,
        command: &mut SixAxisArmCommand,
    ) -> Result<(), ControllerError> {
        for (start, position) in self.start.iter_mut().zip(positions(command)) {
            *start = if position.is_finite() { *position } else { 0.0 };
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
        let robot = SixAxisArm::DESCRIPTION;
        let mut joints = robot.actuated_joints();
        for (index, position) in positions(command).into_iter().enumerate() {
            let Some(joint) = joints.next() else { break };
            let limits = joint.limits.as_ref();
            let (centre, half) = match limits.and_then(|l| l.lower.zip(l.upper)) {
                Some((lower, upper)) => ((lower + upper) / 2.0, (upper - lower) / 2.0),
                None => (0.0, PI),
            };
            let phase = 2.0 * PI * t / self.period + index as f64 * PI / 3.5;
            let wave = centre + self.amplitude * half * phase.sin();
            *position = self.start[index] * (1.0 - fade) + wave * fade;
        }
        Ok(())
    }
}
