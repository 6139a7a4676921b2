//! `calculate_dynamics`: GenericSystem's integration and differentiation of one joint per read
//! (`generic_system.cpp`, `GenericSystem::read`).
//!
//! Each read starts from the joint's declared position, velocity and acceleration states (NaN for
//! those it does not declare, so an undeclared state carries nothing from one read to the next)
//! and its commands of the same names (NaN where not declared), then, with `dt` the period:
//!
//! * **acceleration mode**: a missing velocity is 0; a finite acceleration command becomes the
//!   acceleration; `v += a·dt`, then `p += v·dt` (the new velocity: semi-implicit Euler, which the
//!   source calls backward Euler);
//! * **velocity mode**: a finite velocity command becomes the velocity and
//!   `a = (v − v_old)/dt` (a missing old velocity counts as 0); then `p += v·dt`;
//! * **position mode**: a finite position command gives `p = command + offset`,
//!   `v = (p − p_old)/dt`, `a = (v − v_old)/dt`;
//!
//! and every result that is finite is stored in the declared state of its name. A NaN command
//! changes nothing but the integration of what is already there.
//!
//! One departure: in the acceleration and velocity modes the source adds the following offset to
//! the position *only when the velocity is not finite* (`cond ? v·dt : 0.0 + offset`, an operator
//! precedence slip), which would shift the position by the offset on every read before the first
//! velocity. Here the offset reaches those positions only through `on_configure`, as the source's
//! own tests (`simple_dynamics_vel_control_modes_interfaces_with_offset`) expect.

use crate::options::CommandMode;
use crate::plan::DynamicsJoint;

const P: usize = 0;
const V: usize = 1;
const A: usize = 2;

/// One read of one joint: updates `state` (the robot's state slots) from `command`.
#[inline]
pub(crate) fn step(
    joint: &DynamicsJoint,
    state: &mut [f64],
    command: &[f64],
    dt: f64,
    position_offset: f64,
) {
    let mut s = [f64::NAN; 3];
    let mut c = [f64::NAN; 3];
    for i in 0..3 {
        if let Some(slot) = joint.state[i] {
            s[i] = state[slot];
        }
        if let Some(slot) = joint.command[i] {
            c[i] = command[slot];
        }
    }
    match joint.mode {
        CommandMode::Acceleration => {
            if s[V].is_nan() {
                s[V] = 0.0;
            }
            if c[A].is_finite() {
                s[A] = c[A];
            }
            if !s[A].is_nan() {
                s[V] += s[A] * dt;
            }
            if s[V].is_finite() {
                s[P] += s[V] * dt;
            }
        }
        CommandMode::Velocity => {
            if c[V].is_finite() {
                let old_velocity = if s[V].is_finite() { s[V] } else { 0.0 };
                s[V] = c[V];
                s[A] = (s[V] - old_velocity) / dt;
            }
            if s[V].is_finite() {
                s[P] += s[V] * dt;
            }
        }
        CommandMode::Position => {
            if c[P].is_finite() {
                let old_position = s[P];
                let old_velocity = if s[V].is_finite() { s[V] } else { 0.0 };
                s[P] = c[P] + position_offset;
                s[V] = (s[P] - old_position) / dt;
                s[A] = (s[V] - old_velocity) / dt;
            }
        }
    }
    for (slot, value) in joint.state.into_iter().zip(s) {
        if let Some(slot) = slot
            && value.is_finite()
        {
            state[slot] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 0.01;

    fn joint(mode: CommandMode) -> DynamicsJoint {
        DynamicsJoint {
            mode,
            state: [Some(0), Some(1), Some(2)],
            command: [Some(0), Some(1), Some(2)],
        }
    }

    #[test]
    fn acceleration_mode_integrates_velocity_then_position() {
        let mut state = [2.78, 0.0, 0.0];
        let command = [f64::NAN, f64::NAN, 3.5];
        step(
            &joint(CommandMode::Acceleration),
            &mut state,
            &command,
            DT,
            0.0,
        );
        let v = 3.5 * DT;
        assert_eq!(state, [2.78 + v * DT, v, 3.5]);
        step(
            &joint(CommandMode::Acceleration),
            &mut state,
            &command,
            DT,
            0.0,
        );
        assert!((state[1] - 2.0 * v).abs() < 1e-15);
        assert!((state[0] - (2.78 + v * DT + 2.0 * v * DT)).abs() < 1e-15);
    }

    #[test]
    fn position_mode_differentiates_twice() {
        let mut state = [3.45, 0.0, 0.0];
        let command = [0.11, f64::NAN, f64::NAN];
        step(&joint(CommandMode::Position), &mut state, &command, DT, 0.0);
        let v = (0.11 - 3.45) / DT;
        assert_eq!(state, [0.11, v, v / DT]);
        step(&joint(CommandMode::Position), &mut state, &command, DT, 0.0);
        assert_eq!(state, [0.11, 0.0, -v / DT]);
    }

    #[test]
    fn a_zero_period_changes_no_derived_state() {
        let mut state = [1.0, 0.5, 0.0];
        step(
            &joint(CommandMode::Position),
            &mut state,
            &[2.0, f64::NAN, f64::NAN],
            0.0,
            0.0,
        );
        assert_eq!(
            state,
            [2.0, 0.5, 0.0],
            "infinite differences are not stored"
        );
    }

    #[test]
    fn velocity_mode_without_a_velocity_command_keeps_integrating_the_last_velocity() {
        let mut state = [0.0, 2.0, 0.0];
        step(
            &joint(CommandMode::Velocity),
            &mut state,
            &[f64::NAN; 3],
            DT,
            -3.0,
        );
        assert_eq!(state, [2.0 * DT, 2.0, 0.0], "and never adds the offset");
    }
}
