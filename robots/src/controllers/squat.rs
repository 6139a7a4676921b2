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

use crate::lite_biped::{LiteBiped, LiteBipedCommand, LiteBipedState, lite_biped};

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

/// Every lite_biped joint's command: the five MIT interfaces. One type for all fourteen joints,
/// so one function sets any of them.
type Mit = lite_biped::PositionVelocityEffortStiffnessDampingCommand;

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
    /// The command seeded at activation (the measured positions), where the ramp starts.
    start: LiteBipedCommand,
    activated_at: Duration,
}

impl Default for Squat {
    fn default() -> Self {
        Squat {
            depth: 0.9,
            period: 4.0,
            ramp: 1.0,
            gains: SquatGains::default(),
            start: LiteBipedCommand::default(),
            activated_at: Duration::ZERO,
        }
    }
}

/// Hip, knee and ankle pitch for a squat fraction `s` in [0, 1].
fn pose(depth: f64, s: f64) -> (f64, f64, f64) {
    let knee = depth * s;
    (-knee / 2.0, knee, -knee / 2.0)
}

/// Sets one joint's MIT command: a position and velocity target under `(stiffness, damping)`,
/// no feed-forward torque.
fn set(joint: &mut Mit, position: f64, velocity: f64, (stiffness, damping): (f64, f64)) {
    joint.position = position;
    joint.velocity = velocity;
    joint.effort = 0.0;
    joint.stiffness = stiffness;
    joint.damping = damping;
}

impl Squat {
    /// Where the squat is at `t` seconds after the ramp: fraction in [0, 1] and its rate, 1/s.
    fn phase(&self, t: f64) -> (f64, f64) {
        let w = 2.0 * PI / self.period;
        ((1.0 - (w * t).cos()) / 2.0, w * (w * t).sin() / 2.0)
    }

    /// How far the ramp from the activation pose to standing is at `t` seconds since activation,
    /// eased: the fraction done in [0, 1] and its rate, 1/s.
    fn ramp_progress(&self, t: f64) -> (f64, f64) {
        if t >= self.ramp {
            return (1.0, 0.0);
        }
        let u = t / self.ramp;
        (
            (1.0 - (PI * u).cos()) / 2.0,
            PI * (PI * u).sin() / (2.0 * self.ramp),
        )
    }
}

impl Controller<LiteBiped> for Squat {
    fn on_activate(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        // The seeded position commands are the measured positions: start the ramp there, within
        // the joint's limits (a joint resting on its stop reads a hair past it: the feedback's
        // 16 bits cannot say 0 exactly, so a knee at its 0 stop reads -0.0002 rad).
        self.start = *command;
        for (definition, joint) in self.start.joints_mut::<Mit>() {
            if !joint.position.is_finite() {
                joint.position = 0.0;
            }
            if let Some(limits) = &definition.limits {
                let lower = limits.lower.unwrap_or(f64::NEG_INFINITY);
                let upper = limits.upper.unwrap_or(f64::INFINITY);
                joint.position = joint.position.clamp(lower, upper);
            }
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
        let g = self.gains;
        // Every joint ramps from where it was to standing (all zeros), then holds it.
        let (done, rate) = self.ramp_progress(t);
        let hold = (g.hold_stiffness, g.hold_damping);
        for ((_, start), (_, joint)) in self.start.joints::<Mit>().zip(command.joints_mut::<Mit>())
        {
            set(
                joint,
                start.position * (1.0 - done),
                -start.position * rate,
                hold,
            );
        }
        // Each leg's pitch chain is stiffer, and squats once the ramp is over.
        let (leg, ankle) = (
            (g.leg_stiffness, g.leg_damping),
            (g.ankle_stiffness, g.ankle_damping),
        );
        for side in command.leg() {
            for (joint, gains) in [
                (&mut *side.hip_pitch, leg),
                (&mut *side.knee_pitch, leg),
                (&mut *side.ankle_pitch, ankle),
            ] {
                (joint.stiffness, joint.damping) = gains;
            }
            if t >= self.ramp {
                let (s, ds) = self.phase(t - self.ramp);
                let (hip, knee, ankle) = pose(self.depth, s);
                let (dhip, dknee, dankle) = pose(self.depth, ds);
                set(side.hip_pitch, hip, dhip, leg);
                set(side.knee_pitch, knee, dknee, leg);
                set(
                    side.ankle_pitch,
                    ankle,
                    dankle,
                    (g.ankle_stiffness, g.ankle_damping),
                );
            }
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
        let mut seen = 0;
        for step in 0..=400 {
            let t = ramp + period * f64::from(step) / 400.0;
            for (joint, command) in run(&mut squat, t).joints::<Mit>() {
                let limits = joint.limits.unwrap();
                let q = command.position;
                assert!(
                    q >= limits.lower.unwrap() && q <= limits.upper.unwrap(),
                    "{} at {q}",
                    joint.name
                );
                seen += 1;
            }
        }
        assert_eq!(seen, 401 * 14, "every joint, every step");
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
