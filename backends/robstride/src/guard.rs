//! What a command goes through before it is encoded: a NaN field keeps the last value sent (a
//! controller that has nothing to say holds, never commands zero), every field is clamped to the
//! joint's limits in joint space and to the model's ranges in motor space, and every clamp is
//! counted, so the statistics show a controller that keeps asking for more than the robot can do.
//!
//! The peer `robstride` crate encodes a NaN field as `0x0000`, the bottom of the range: on the
//! torque field that is a full negative torque command. Here a NaN never reaches the encoder.

use robot_runtime::model::Joint;
use robot_runtime::{Mit, RobstrideModel};

/// The command guard of one joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommandGuard {
    position: (f64, f64),
    velocity: f64,
    torque: f64,
    model: RobstrideModel,
    last: Mit,
    clamps: u64,
}

impl CommandGuard {
    /// The guard of `joint`, driven by a `model`; the first command falls back on `hold` (the
    /// measured position with zero gains, as activation seeds it).
    pub fn new(joint: &Joint, model: RobstrideModel, hold: Mit) -> CommandGuard {
        let limits = joint.limits.as_ref();
        let spec = model.spec();
        CommandGuard {
            position: (
                limits.and_then(|l| l.lower).unwrap_or(f64::NEG_INFINITY),
                limits.and_then(|l| l.upper).unwrap_or(f64::INFINITY),
            ),
            velocity: limits.map_or(spec.velocity, |l| l.velocity),
            torque: limits.map_or(spec.torque, |l| l.effort),
            model,
            last: hold,
            clamps: 0,
        }
    }

    /// Clamps so far, in joint and motor space together.
    pub fn clamps(&self) -> u64 {
        self.clamps
    }

    /// The joint-space command to send: NaN fields replaced by the last command's, then each
    /// field clamped to the joint's limits (stiffness and damping to at least 0). An infinite
    /// field is clamped like any other out-of-range value.
    pub fn joint_command(&mut self, wanted: &Mit) -> Mit {
        let pick = |value: f64, last: f64| if value.is_nan() { last } else { value };
        let mut command = Mit {
            position: pick(wanted.position, self.last.position),
            velocity: pick(wanted.velocity, self.last.velocity),
            effort: pick(wanted.effort, self.last.effort),
            stiffness: pick(wanted.stiffness, self.last.stiffness),
            damping: pick(wanted.damping, self.last.damping),
        };
        let (lower, upper) = self.position;
        self.clamp(&mut command.position, lower, upper);
        self.clamp(&mut command.velocity, -self.velocity, self.velocity);
        self.clamp(&mut command.effort, -self.torque, self.torque);
        self.clamp(&mut command.stiffness, 0.0, f64::INFINITY);
        self.clamp(&mut command.damping, 0.0, f64::INFINITY);
        self.last = command;
        command
    }

    /// The motor-space command clamped to the model's ranges (±4π, velocity, torque, Kp, Kd).
    pub fn motor_command(&mut self, motor: &Mit) -> Mit {
        let spec = self.model.spec();
        let mut command = *motor;
        self.clamp(&mut command.position, -spec.position, spec.position);
        self.clamp(&mut command.velocity, -spec.velocity, spec.velocity);
        self.clamp(&mut command.effort, -spec.torque, spec.torque);
        self.clamp(&mut command.stiffness, 0.0, spec.stiffness);
        self.clamp(&mut command.damping, 0.0, spec.damping);
        command
    }

    fn clamp(&mut self, value: &mut f64, lower: f64, upper: f64) {
        // `joint_command` lets no NaN through; one from elsewhere (a transmission fault) becomes
        // 0 brought into range, and is counted, never passed to the encoder.
        let clamped = if value.is_nan() {
            0.0_f64.clamp(lower, upper)
        } else {
            value.clamp(lower, upper)
        };
        if clamped != *value {
            self.clamps += 1;
            *value = clamped;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn joint() -> Joint {
        robot_model::fixture::robot()
            .joints
            .iter()
            .find(|j| j.name == "ankle")
            .cloned()
            .unwrap()
    }

    fn guard() -> CommandGuard {
        CommandGuard::new(
            &joint(),
            RobstrideModel::RS00,
            Mit {
                position: 0.1,
                ..Mit::default()
            },
        )
    }

    #[test]
    fn nan_keeps_the_last_command_and_never_becomes_a_torque() {
        let mut g = guard();
        let first = g.joint_command(&Mit {
            position: f64::NAN,
            velocity: f64::NAN,
            effort: f64::NAN,
            stiffness: f64::NAN,
            damping: f64::NAN,
        });
        assert_eq!(
            first,
            Mit {
                position: 0.1,
                ..Mit::default()
            },
            "the hold it was seeded with"
        );
        g.joint_command(&Mit {
            position: 0.2,
            effort: 1.5,
            stiffness: 20.0,
            ..Mit::default()
        });
        let held = g.joint_command(&Mit {
            effort: f64::NAN,
            ..Mit::default()
        });
        assert_eq!(held.effort, 1.5, "the last torque, not a full negative one");
        assert_eq!(g.clamps(), 0);
    }

    #[test]
    fn out_of_range_fields_are_clamped_and_counted() {
        let mut g = guard();
        let limits = joint().limits.unwrap();
        let command = g.joint_command(&Mit {
            position: 100.0,
            velocity: -1e9,
            effort: f64::INFINITY,
            stiffness: -1.0,
            damping: 0.5,
        });
        assert_eq!(command.position, limits.upper.unwrap());
        assert_eq!(command.velocity, -limits.velocity);
        assert_eq!(command.effort, limits.effort);
        assert_eq!(command.stiffness, 0.0);
        assert_eq!(g.clamps(), 4);
        let spec = RobstrideModel::RS00.spec();
        let motor = g.motor_command(&Mit {
            position: 20.0,
            stiffness: 1e4,
            damping: 50.0,
            ..Mit::default()
        });
        assert_eq!(
            (motor.position, motor.stiffness, motor.damping),
            (spec.position, spec.stiffness, spec.damping)
        );
        assert_eq!(g.clamps(), 7);
    }
}
