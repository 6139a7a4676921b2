//! The gains a backend servoes with where the definition commands a position or a velocity
//! without the MIT gains (`stiffness`, `damping`) to go with it: a `position`-only joint is a
//! position servo, as ros2_control's position command interface means, and a `velocity`-only
//! joint a damper towards its velocity. Every torque-driven backend (MuJoCo, RobStride) uses
//! these, so a joint moves alike on each.

use crate::InterfaceKind;
use crate::model::Joint;

/// Stiffness and damping, for the joints whose definition commands a position or velocity
/// without the MIT gains to go with it.
///
/// The scale is the motor's: one radian of error at the motor asks for `stiffness_per_effort`
/// times the joint's effort limit, so a rotary joint's stiffness is `stiffness_per_effort` ×
/// effort (N·m/rad), and a prismatic joint's, whose metre is `2π / lead` motor radians, is that
/// divided by `lead / 2π` (N/m): a gripper on a 50 mm lead saturates at 0.8 mm of error, not at
/// 0.1 m. (A four-bar's ratio, about 1, is left out.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServoGains {
    /// How much of the joint's effort limit one radian of motor error asks for.
    pub stiffness_per_effort: f64,
    /// Damping as stiffness × this time constant, s.
    pub damping_time: f64,
    /// Damping of a velocity-commanded joint without a position command: how much of its effort
    /// limit one radian per second of motor velocity error asks for.
    pub velocity_damping_per_effort: f64,
}

impl Default for ServoGains {
    /// A servo that saturates at 0.1 rad of error, with a 50 ms damping time constant; a
    /// velocity servo that saturates at 1 rad/s of error.
    fn default() -> Self {
        ServoGains {
            stiffness_per_effort: 10.0,
            damping_time: 0.05,
            velocity_damping_per_effort: 1.0,
        }
    }
}

/// A joint's stand-in gains, in its own units (N·m/rad and N·m·s/rad, or N/m and N·s/m).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Gains {
    /// Stiffness where the joint declares no `stiffness` command, else 0 (unused).
    pub stiffness: f64,
    /// Damping where the joint declares no `damping` command, else 0 (unused).
    pub damping: f64,
}

impl ServoGains {
    /// The gains that stand in for the ones `joint` does not declare: scaled by its effort limit
    /// (1 without one) over its lead ratio (1 without a lead); a position servo if it is
    /// commanded by position, a damper if by velocity only, nothing otherwise.
    pub fn for_joint(&self, joint: &Joint) -> Gains {
        let commands = |kind| joint.command_interfaces.iter().any(|i| i.kind == kind);
        let servo = self.servo_for(joint);
        Gains {
            stiffness: if commands(InterfaceKind::Stiffness) {
                0.0
            } else {
                servo.stiffness
            },
            damping: if commands(InterfaceKind::Damping) {
                0.0
            } else {
                servo.damping
            },
        }
    }

    /// The servo these gains make of `joint`, whichever gains it declares: what a controller
    /// writes into a joint's own `stiffness` and `damping` to have that servo (the trajectory
    /// controller does, on an MIT joint).
    pub fn servo_for(&self, joint: &Joint) -> Gains {
        let commands = |kind| joint.command_interfaces.iter().any(|i| i.kind == kind);
        let ratio = joint
            .actuator
            .as_ref()
            .and_then(|a| a.lead_ratio())
            .filter(|r| r.is_finite() && *r > 0.0)
            .unwrap_or(1.0);
        let effort = joint
            .limits
            .map(|l| l.effort)
            .filter(|e| e.is_finite() && *e > 0.0)
            .unwrap_or(1.0)
            / ratio;
        let stiffness = if commands(InterfaceKind::Position) {
            self.stiffness_per_effort * effort
        } else {
            0.0
        };
        let damping = if commands(InterfaceKind::Position) {
            stiffness * self.damping_time
        } else if commands(InterfaceKind::Velocity) {
            self.velocity_damping_per_effort * effort
        } else {
            0.0
        };
        Gains { stiffness, damping }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robot_model::fixture;

    fn joint(name: &str) -> Joint {
        fixture::robot()
            .joints
            .iter()
            .find(|j| j.name == name)
            .cloned()
            .unwrap_or_else(|| panic!("no joint {name}"))
    }

    #[test]
    fn a_position_joint_is_a_servo_scaled_by_its_effort_limit_at_the_motor() {
        // The slider: position only, 5 N through 0.1 m a turn: 5 · 0.1/2π N·m at the motor.
        let gains = ServoGains::default().for_joint(&joint("slider"));
        let ratio = 0.1 / std::f64::consts::TAU;
        assert!((gains.stiffness - 50.0 / ratio).abs() < 1e-9, "{gains:?}");
        assert!((gains.damping - 2.5 / ratio).abs() < 1e-9, "{gains:?}");
        // So the motor, whose gain is the joint's times ratio², sees 10 × its own effort.
        assert!((gains.stiffness * ratio * ratio - 10.0 * 5.0 * ratio).abs() < 1e-9);
    }

    #[test]
    fn a_velocity_only_joint_is_a_damper_and_declared_gains_are_left_alone() {
        // The wheel: velocity only, 10 N·m.
        let gains = ServoGains::default().for_joint(&joint("wheel"));
        assert_eq!(
            gains,
            Gains {
                stiffness: 0.0,
                damping: 10.0
            }
        );
        // The ankle declares both gains: nothing stands in.
        assert_eq!(
            ServoGains::default().for_joint(&joint("ankle")),
            Gains::default()
        );
    }
}
