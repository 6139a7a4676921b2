//! Joint space ↔ motor space for one actuated joint: the actuator's direction and zero offset,
//! and the four-bar linkage where the joint is driven through one, or the lead that turns a
//! prismatic joint's motor rotation into travel. The one statement of that mapping: the
//! definition's rules ([`crate::validate`]) check a joint's range through it, the runtime
//! configuration's check its calibration, and the RobStride backend and its simulated actuators
//! drive the motors with it.
//!
//! With `d` the direction (±1), `z` the zero offset (the definition's, or the runtime
//! calibration's, which replaces it) and θ the linkage's motor angle:
//!
//! | | joint → motor |
//! |---|---|
//! | position | `θ_m = z + d·θ(q)`, with `θ(q) = q` direct, `q / J` through a lead, or the four-bar's inverse kinematics |
//! | velocity | `θ̇_m = d·q̇ / J`, `J = dq/dθ` the linkage's ratio (1 direct, `lead / 2π` m/rad through a lead) |
//! | torque | `τ_m = d·J·τ_q` (lossless: `τ_q·q̇ = τ_m·θ̇_m`) |
//! | stiffness, damping | `K_m = J²·K_q` (a joint spring `K_q` seen through the ratio: [`motor_gain`]) |
//!
//! and motor → joint the inverse. J is taken at the joint's current pose for the gains and at the
//! target for the feed-forward, so the law the motor runs is the joint's law linearised where it
//! acts.
//!
//! **Calibration mode** bypasses the four-bar (`θ(q) = q`, `J = 1`; lite_description's
//! `use_linkage: false`): the joint's interfaces then read and command the raw actuator angle,
//! for commissioning a four-bar joint before its zero is known. A lead stays: it is the joint's
//! unit (metres), not a pose to calibrate.

use crate::fourbar::{FourBar, FourBarError};
use crate::model::Actuator;
pub use robot_actuator::Mit;

/// How one joint's quantities become its actuator's and back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transmission {
    sign: f64,
    zero_offset: f64,
    four_bar: Option<FourBar>,
    /// A lead's `dq/dθ`, m/rad.
    lead: Option<f64>,
}

/// A joint's gain (stiffness or damping) as its motor's, through a ratio `J = dq/dθ`: `J²·K`.
/// A joint spring `K` resists a joint motion `dq = J·dθ` with a joint torque `K·J·dθ`, which is
/// a motor torque `J·K·J·dθ`.
#[inline]
pub fn motor_gain(joint_gain: f64, ratio: f64) -> f64 {
    ratio * ratio * joint_gain
}

impl Transmission {
    /// The transmission of `actuator` as the definition gives it: its direction, its zero
    /// offset, and its four-bar or lead.
    pub fn of(actuator: &Actuator) -> Transmission {
        Transmission {
            sign: actuator.direction.sign(),
            zero_offset: actuator.zero_offset,
            four_bar: actuator.four_bar,
            lead: actuator.lead_ratio(),
        }
    }

    /// The same with another zero offset: a runtime calibration's, which replaces the
    /// definition's (`RuntimeConfig::zero_offset`).
    pub fn with_zero_offset(self, zero_offset: f64) -> Transmission {
        Transmission {
            zero_offset,
            ..self
        }
    }

    /// The same in calibration mode: the four-bar bypassed. A lead stays: it is the joint's unit
    /// (metres), not a pose to calibrate.
    pub fn without_linkage(self) -> Transmission {
        Transmission {
            four_bar: None,
            ..self
        }
    }

    /// Whether a linkage sits between motor and joint.
    pub fn has_linkage(&self) -> bool {
        self.four_bar.is_some()
    }

    /// Whether a lead turns the motor's rotation into travel (the joint is prismatic).
    pub fn has_lead(&self) -> bool {
        self.lead.is_some()
    }

    /// The motor's angle for joint position `q`.
    pub fn motor_position(&self, q: f64) -> Result<f64, FourBarError> {
        let theta = match (&self.four_bar, self.lead) {
            (Some(fb), _) => fb.joint_to_motor(q)?,
            (None, Some(r)) => q / r,
            (None, None) => q,
        };
        Ok(self.zero_offset + self.sign * theta)
    }

    /// The joint position for motor angle `motor`.
    pub fn joint_position(&self, motor: f64) -> Result<f64, FourBarError> {
        let theta = self.sign * (motor - self.zero_offset);
        match (&self.four_bar, self.lead) {
            (Some(fb), _) => fb.motor_to_joint(theta),
            (None, Some(r)) => Ok(r * theta),
            (None, None) => Ok(theta),
        }
    }

    /// `J = dq/dθ` at joint position `q` (1 without a linkage, `lead / 2π` through a lead).
    pub fn ratio(&self, q: f64) -> Result<f64, FourBarError> {
        match (&self.four_bar, self.lead) {
            (Some(fb), _) => fb.ratio(q),
            (None, Some(r)) => Ok(r),
            (None, None) => Ok(1.0),
        }
    }

    /// A joint command as its motor's, linearised at the joint's measured position `at`.
    pub fn command_to_motor(&self, command: &Mit, at: f64) -> Result<Mit, FourBarError> {
        let j_here = self.ratio(at)?;
        let j_target = self.ratio(command.position)?;
        Ok(Mit {
            position: self.motor_position(command.position)?,
            velocity: self.sign * command.velocity / j_target,
            effort: self.sign * j_target * command.effort,
            stiffness: motor_gain(command.stiffness, j_here),
            damping: motor_gain(command.damping, j_here),
        })
    }

    /// A motor's feedback (position, velocity, torque) as its joint's.
    pub fn state_to_joint(&self, motor: &Mit) -> Result<Mit, FourBarError> {
        let q = self.joint_position(motor.position)?;
        let j = self.ratio(q)?;
        Ok(Mit {
            position: q,
            velocity: self.sign * j * motor.velocity,
            effort: self.sign * motor.effort / j,
            stiffness: 0.0,
            damping: 0.0,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::model::{Direction, Joint, JointKind};

    /// The fixture robot's four-bar joint (`ankle`, lite_biped's ankle linkage).
    fn four_bar_joint() -> Joint {
        let robot = robot_model_fixture();
        robot
            .joints
            .iter()
            .find(|j| j.actuator.as_ref().is_some_and(|a| a.four_bar.is_some()))
            .cloned()
            .expect("a four-bar joint in the fixture")
    }

    fn robot_model_fixture() -> crate::Robot {
        crate::fixture::robot()
    }

    fn direct(direction: Direction) -> Joint {
        let mut joint = four_bar_joint();
        let actuator = joint.actuator.as_mut().unwrap();
        actuator.four_bar = None;
        actuator.direction = direction;
        joint
    }

    #[test]
    fn direct_joints_apply_direction_and_zero_offset() {
        let t = Transmission::of(direct(Direction::Reversed).actuator.as_ref().unwrap())
            .with_zero_offset(0.25);
        assert_eq!(t.motor_position(0.5).unwrap(), 0.25 - 0.5);
        assert_eq!(t.joint_position(-0.25).unwrap(), 0.5);
        let motor = t
            .command_to_motor(
                &Mit {
                    position: 0.5,
                    velocity: 2.0,
                    effort: 3.0,
                    stiffness: 40.0,
                    damping: 1.0,
                },
                0.0,
            )
            .unwrap();
        assert_eq!(
            motor,
            Mit {
                position: -0.25,
                velocity: -2.0,
                effort: -3.0,
                stiffness: 40.0,
                damping: 1.0
            }
        );
        let joint = t.state_to_joint(&motor).unwrap();
        assert_eq!(
            (joint.position, joint.velocity, joint.effort),
            (0.5, 2.0, 3.0)
        );
    }

    #[test]
    fn through_a_four_bar_velocity_and_torque_go_by_j_and_gains_by_j_squared() {
        let t = Transmission::of(four_bar_joint().actuator.as_ref().unwrap()).with_zero_offset(0.0);
        let q = 0.3;
        let j = t.ratio(q).unwrap();
        assert!(
            (j - 1.0).abs() > 0.01,
            "a ratio that shows the scaling: {j}"
        );
        let command = Mit {
            position: q,
            velocity: 1.0,
            effort: 2.0,
            stiffness: 10.0,
            damping: 0.5,
        };
        let motor = t.command_to_motor(&command, q).unwrap();
        assert!((t.joint_position(motor.position).unwrap() - q).abs() < 1e-9);
        assert!((motor.velocity - 1.0 / j).abs() < 1e-12);
        assert!((motor.effort - 2.0 * j).abs() < 1e-12);
        assert!((motor.stiffness - 10.0 * j * j).abs() < 1e-12);
        assert!((motor.damping - 0.5 * j * j).abs() < 1e-12);
        // Power is conserved: τ_q·q̇ = τ_m·θ̇_m.
        assert!((command.effort * command.velocity - motor.effort * motor.velocity).abs() < 1e-12);
        // And a small motor motion moves the joint by J times as much.
        let h = 1e-7;
        let dq = t.joint_position(motor.position + h).unwrap() - q;
        assert!((dq / h - j).abs() < 1e-5, "{} vs {j}", dq / h);
        let back = t.state_to_joint(&motor).unwrap();
        assert!((back.velocity - 1.0).abs() < 1e-9 && (back.effort - 2.0).abs() < 1e-9);
    }

    #[test]
    fn through_a_lead_travel_is_lead_per_turn_and_force_is_torque_over_the_ratio() {
        let mut joint = direct(Direction::Forward);
        joint.kind = JointKind::Prismatic;
        joint.actuator.as_mut().unwrap().lead = Some(0.05);
        let t = Transmission::of(joint.actuator.as_ref().unwrap())
            .with_zero_offset(0.5)
            .without_linkage();
        assert!(t.has_lead());
        let r = 0.05 / std::f64::consts::TAU;
        // 25 mm of travel is half a turn of the motor, from its zero offset.
        assert!((t.motor_position(0.025).unwrap() - (0.5 + std::f64::consts::PI)).abs() < 1e-12);
        assert!((t.joint_position(0.5 + std::f64::consts::PI).unwrap() - 0.025).abs() < 1e-12);
        let command = Mit {
            position: 0.025,
            velocity: 0.1,
            effort: 20.0,
            stiffness: 1000.0,
            damping: 10.0,
        };
        let motor = t.command_to_motor(&command, 0.0).unwrap();
        assert!((motor.velocity - 0.1 / r).abs() < 1e-9);
        assert!((motor.effort - 20.0 * r).abs() < 1e-12, "N·m for N");
        assert!((motor.stiffness - 1000.0 * r * r).abs() < 1e-12);
        assert!((motor.damping - 10.0 * r * r).abs() < 1e-12);
        let back = t.state_to_joint(&motor).unwrap();
        assert!((back.position - 0.025).abs() < 1e-12);
        assert!((back.velocity - 0.1).abs() < 1e-12 && (back.effort - 20.0).abs() < 1e-9);
    }

    #[test]
    fn calibration_mode_bypasses_the_linkage() {
        let t = Transmission::of(four_bar_joint().actuator.as_ref().unwrap())
            .with_zero_offset(0.1)
            .without_linkage();
        assert!(!t.has_linkage());
        assert_eq!(t.ratio(0.3).unwrap(), 1.0);
        assert!((t.joint_position(0.4).unwrap() - 0.3).abs() < 1e-15);
    }
}
