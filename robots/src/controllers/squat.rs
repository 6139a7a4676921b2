//! A slow squat for `lite_biped`: both legs bend and straighten on a smooth (raised-cosine)
//! trajectory, through the MIT interfaces with stiffness and damping.
//!
//! The squat pose keeps the foot parallel to the pelvis: hip, knee and ankle pitch axes are
//! parallel, so `hip + knee + ankle = 0` holds the sole level. The knee only bends positive in
//! lite_biped's URDF (0 … 2.356 rad), so hip and ankle go negative. Every other joint holds zero.
//! On activation the controller first moves from wherever the legs are to the standing pose over
//! `ramp` seconds, so switching it on never jumps.

use std::f64::consts::PI;
use std::time::Duration;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;

use crate::lite_biped::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// Stiffness and damping per joint group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SquatGains {
    /// Hip and knee pitch stiffness, N·m/rad.
    pub leg_stiffness: f64,
    /// Hip and knee pitch damping, N·m·s/rad.
    pub leg_damping: f64,
    /// Ankle stiffness, N·m/rad.
    pub ankle_stiffness: f64,
    /// Ankle damping, N·m·s/rad.
    pub ankle_damping: f64,
    /// Every other joint's stiffness (they hold zero), N·m/rad.
    pub hold_stiffness: f64,
    /// Every other joint's damping, N·m·s/rad.
    pub hold_damping: f64,
}

impl Default for SquatGains {
    fn default() -> Self {
        SquatGains {
            leg_stiffness: 40.0,
            leg_damping: 1.0,
            ankle_stiffness: 20.0,
            ankle_damping: 0.5,
            hold_stiffness: 20.0,
            hold_damping: 0.5,
        }
    }
}

/// The squat controller.
#[derive(Debug, Clone)]
pub struct Squat {
    /// Knee bend at the bottom of the squat, rad.
    pub depth: f64,
    /// Time of one down-and-up, s.
    pub period: f64,
    /// Time to reach the standing pose after activation, s.
    pub ramp: f64,
    /// Gains.
    pub gains: SquatGains,
    /// Positions at activation, in command order, for the ramp.
    start: [f64; JOINTS],
    activated_at: Duration,
}

/// The 14 joints, in declaration order.
const JOINTS: usize = 14;

impl Default for Squat {
    fn default() -> Self {
        Squat {
            depth: 0.9,
            period: 4.0,
            ramp: 1.0,
            gains: SquatGains::default(),
            start: [0.0; JOINTS],
            activated_at: Duration::ZERO,
        }
    }
}

/// Hip, knee and ankle pitch for a squat fraction `s` in [0, 1].
fn pose(depth: f64, s: f64) -> (f64, f64, f64) {
    let knee = depth * s;
    (-knee / 2.0, knee, -knee / 2.0)
}

/// Sets one joint's MIT command.
fn set(
    c: &mut (impl MitCommand + ?Sized),
    position: f64,
    velocity: f64,
    stiffness: f64,
    damping: f64,
) {
    c.set(position, velocity, 0.0, stiffness, damping);
}

/// The five MIT command interfaces every lite_biped joint has.
trait MitCommand {
    fn set(&mut self, position: f64, velocity: f64, effort: f64, stiffness: f64, damping: f64);
    fn position(&self) -> f64;
}

macro_rules! mit_command {
    ($($ty:ident),* $(,)?) => {$(
        impl MitCommand for crate::lite_biped::lite_biped::$ty {
            fn set(&mut self, position: f64, velocity: f64, effort: f64, stiffness: f64, damping: f64) {
                self.position = position;
                self.velocity = velocity;
                self.effort = effort;
                self.stiffness = stiffness;
                self.damping = damping;
            }
            fn position(&self) -> f64 {
                self.position
            }
        }
    )*};
}

mit_command!(
    LeftHipPitchCommand,
    LeftHipRollCommand,
    LeftHipYawCommand,
    LeftKneePitchCommand,
    LeftAnkleYawCommand,
    LeftAnklePitchCommand,
    LeftAnkleRollCommand,
    RightHipPitchCommand,
    RightHipRollCommand,
    RightHipYawCommand,
    RightKneePitchCommand,
    RightAnkleYawCommand,
    RightAnklePitchCommand,
    RightAnkleRollCommand,
);

/// Every joint's command, in declaration order.
fn joints(c: &mut LiteBipedCommand) -> [&mut dyn MitCommand; JOINTS] {
    [
        &mut c.left_hip_pitch,
        &mut c.left_hip_roll,
        &mut c.left_hip_yaw,
        &mut c.left_knee_pitch,
        &mut c.left_ankle_yaw,
        &mut c.left_ankle_pitch,
        &mut c.left_ankle_roll,
        &mut c.right_hip_pitch,
        &mut c.right_hip_roll,
        &mut c.right_hip_yaw,
        &mut c.right_knee_pitch,
        &mut c.right_ankle_yaw,
        &mut c.right_ankle_pitch,
        &mut c.right_ankle_roll,
    ]
}

/// Index of each joint in [`joints`], by role.
const HIP_PITCH: [usize; 2] = [0, 7];
const KNEE_PITCH: [usize; 2] = [3, 10];
const ANKLE_PITCH: [usize; 2] = [5, 12];

impl Squat {
    /// Where the squat is at `t` seconds after the ramp: fraction in [0, 1] and its rate, 1/s.
    fn phase(&self, t: f64) -> (f64, f64) {
        let w = 2.0 * PI / self.period;
        ((1.0 - (w * t).cos()) / 2.0, w * (w * t).sin() / 2.0)
    }

    /// The target of every joint at `t` seconds since activation: (position, velocity).
    fn targets(&self, t: f64) -> [(f64, f64); JOINTS] {
        let mut targets = [(0.0, 0.0); JOINTS];
        if t < self.ramp {
            // Straight-line ramp from the activation pose to standing (all zeros), eased.
            let u = t / self.ramp;
            let ease = (1.0 - (PI * u).cos()) / 2.0;
            let rate = PI * (PI * u).sin() / (2.0 * self.ramp);
            for (target, &start) in targets.iter_mut().zip(&self.start) {
                *target = (start * (1.0 - ease), -start * rate);
            }
            return targets;
        }
        let (s, ds) = self.phase(t - self.ramp);
        let (hip, knee, ankle) = pose(self.depth, s);
        let (dhip, dknee, dankle) = pose(self.depth, ds);
        for side in 0..2 {
            targets[HIP_PITCH[side]] = (hip, dhip);
            targets[KNEE_PITCH[side]] = (knee, dknee);
            targets[ANKLE_PITCH[side]] = (ankle, dankle);
        }
        targets
    }

    /// The gains of joint `index`.
    fn gains(&self, index: usize) -> (f64, f64) {
        let g = &self.gains;
        if HIP_PITCH.contains(&index) || KNEE_PITCH.contains(&index) {
            (g.leg_stiffness, g.leg_damping)
        } else if ANKLE_PITCH.contains(&index) {
            (g.ankle_stiffness, g.ankle_damping)
        } else {
            (g.hold_stiffness, g.hold_damping)
        }
    }
}

impl Controller<LiteBiped> for Squat {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        // The seeded position commands are the measured positions: start the ramp there.
        for (start, joint) in self.start.iter_mut().zip(joints(command)) {
            let position = joint.position();
            *start = if position.is_finite() { position } else { 0.0 };
        }
        self.activated_at = clock.time;
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        let t = clock.time.saturating_sub(self.activated_at).as_secs_f64();
        let targets = self.targets(t);
        for (index, joint) in joints(command).into_iter().enumerate() {
            let (position, velocity) = targets[index];
            let (stiffness, damping) = self.gains(index);
            set(joint, position, velocity, stiffness, damping);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(squat: &mut Squat, t: f64) -> LiteBipedCommand {
        let mut command = LiteBipedCommand::default();
        let clock = Clock {
            time: Duration::from_secs_f64(t),
            period: Duration::from_millis(5),
        };
        squat
            .update(clock, &LiteBipedState::default(), &mut command)
            .unwrap();
        command
    }

    #[test]
    fn it_ramps_from_the_activation_pose_then_squats_within_the_limits() {
        let mut squat = Squat::default();
        let mut seeded = LiteBipedCommand::default();
        seeded.left_knee_pitch.position = 0.4;
        squat
            .on_activate(Clock::default(), &LiteBipedState::default(), &mut seeded)
            .unwrap();
        let (ramp, period) = (squat.ramp, squat.period);
        assert!(
            (run(&mut squat, 0.0).left_knee_pitch.position - 0.4).abs() < 1e-12,
            "starts where the leg is"
        );
        assert!(
            run(&mut squat, ramp).left_knee_pitch.position.abs() < 1e-12,
            "standing after the ramp"
        );
        let bottom = run(&mut squat, ramp + period / 2.0);
        assert!((bottom.left_knee_pitch.position - squat.depth).abs() < 1e-9);
        assert!((bottom.right_hip_pitch.position + squat.depth / 2.0).abs() < 1e-9);
        // Every target stays inside its joint's limits, all the way down and up.
        let robot = LiteBiped::DESCRIPTION;
        for step in 0..=400 {
            let t = ramp + period * f64::from(step) / 400.0;
            let command = run(&mut squat, t);
            let positions: Vec<f64> = robot_core::Values::as_slice(&command)
                .chunks(5)
                .map(|c| c[0])
                .collect();
            for (joint, q) in robot.actuated_joints().zip(positions) {
                let limits = joint.limits.unwrap();
                assert!(
                    q >= limits.lower.unwrap() && q <= limits.upper.unwrap(),
                    "{} at {q}",
                    joint.name
                );
            }
        }
    }

    #[test]
    fn velocity_targets_are_the_derivative_of_position_targets() {
        let mut squat = Squat::default();
        squat
            .on_activate(
                Clock::default(),
                &LiteBipedState::default(),
                &mut LiteBipedCommand::default(),
            )
            .unwrap();
        let t = squat.ramp + 0.7;
        let h = 1e-6;
        let (a, b, c) = (
            run(&mut squat, t - h),
            run(&mut squat, t + h),
            run(&mut squat, t),
        );
        let numeric = (b.left_knee_pitch.position - a.left_knee_pitch.position) / (2.0 * h);
        assert!((numeric - c.left_knee_pitch.velocity).abs() < 1e-6);
        assert_eq!(c.left_knee_pitch.stiffness, 40.0);
        assert_eq!(c.left_hip_roll.position, 0.0);
    }
}
