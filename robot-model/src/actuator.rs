//! RobStride actuator models and what each can do.
//!
//! The models and their ranges are the RobStride protocol crate's (`robstride-protocol`), one
//! table re-exported here: one row per model, from the official user manuals (the "manual family" of
//! `docs/robstride-protocol.md` §9: M-RSxx §4.1.2 text and §4.4 `#define`s, confirmed on hardware by
//! K-Scale's drivers and motorbridge PR #11). These ranges are both the private protocol's type-1 and
//! type-2 scaling and the ceiling a joint limit may not exceed: `robot_core::validate` checks a
//! joint's velocity and effort limits, its whole position range (through direction, zero offset
//! and four-bar or lead) against what the turn counter holds (below), and initial stiffness and
//! damping commands against the Kp and Kd ranges (through a four-bar, a joint gain K is the motor
//! gain J²·K).
//!
//! # The ±4π window and the turn counter
//!
//! The type-1 command and the type-2 feedback carry the motor angle as 16 bits over ±4π, and newer
//! firmware reports it looping within that window (docs/robstride-protocol.md §6). How the
//! RobStride backend follows a joint's motor ([`MotorTravel`], `backend_robstride::turns`):
//!
//! * **window**: a joint whose whole range, through direction, zero offset and four-bar or lead
//!   ([`Transmission::motor_position`]), stays within ±4π is not counted: the report is the angle.
//!   A jump of more than half the window between two reports means the motor was pushed past
//!   the window's edge, and ends the run.
//! * **multi-turn**: a joint whose range takes its motor beyond ±4π (a lead screw, a belt, a
//!   high-ratio stage: a 300 mm lift on a 40 mm lead is 7.5 turns) has its turns counted. The
//!   count is seeded from the motor's own: parameter 0x7019 `mechPos`, the multi-turn angle the
//!   firmware keeps since power-on, read at configure and again at every activation; the looping
//!   report is taken on the loop nearest it (a report alone cannot tell a lift at 10 mm from one
//!   at 170 mm, and the wrong loop would drive it into its end stop: the count is never guessed).
//!   A motor whose count cannot be read, or whose report is not that count looped into the
//!   window (firmware that saturates at ±4π), or whose count puts the joint more than a quarter
//!   turn beyond its range, is not switched on, and the error names the joint. The count is only as right as where the
//!   motor was powered on: `mechPos` starts within one turn of the motor's zero (parameter
//!   `zero_sta`), so a multi-turn joint must be powered on in the turn of its zero (its zero pose,
//!   or an end stop the zero is set at), or zeroed there (`robot can set-zero`) before a run.
//! * **continuous**: a joint without a range, counted from where it was first read.
//!
//! Counted, a target is sent relative to the last report; where the frame cannot carry it (beyond
//! the window) or the motor may loop while a command acts (near the edge), the host applies the
//! spring itself as feed-forward torque; counted or not, the joint's limits are enforced in joint
//! space.
//!
//! **The rule** ([`within_turn_counter`]): every motor angle a joint's range takes its motor to
//! lies within ±[`TURN_COUNTER_SPAN`] = ±4096 rad (651.9 turns) of the motor's zero. The bound is
//! the motor's, not the host's (the host counts in i64 turns and f64 radians): `mechPos` is an
//! f32, and past 2¹² rad an f32 steps by 2⁻¹¹ = 4.9e-4 rad, coarser than one count of the
//! feedback's 16-bit angle (8π / 65535 = 3.8e-4 rad); within it, by 2.4e-4 rad at most. Beyond
//! it the definition is refused (`BeyondPositionRange`), and so is a runtime configuration's zero
//! offset (`robot_core::config`): one rule.
//!
//! # Current
//!
//! No current is checked against the model. The manuals, as docs/robstride-protocol.md cites them, state no peak
//! current; the only per-model currents are the ranges of the current-mode target `iq_ref`
//! (0x7006: RS00 ±16 A, RS01 ±23, RS03 ±43, RS04 ±90, RS05 ±11, RS06 ±57; the RS02 row of that
//! table looks copied from RS00), and lite_biped's published limits exceed two of them (RS05 14 A,
//! RS02 27 A), so they are no ceiling a limit must stay under. A joint's `current` limit is only
//! checked to be positive and is emitted as its `current_limit` param.

pub use robot_actuator::{LOOP, Mit, MitSlots, ModelSpec, POSITION_SPAN, RobstrideModel, wrap};

use crate::model::{Joint, JointKind};
use crate::transmission::Transmission;

/// How far from its zero a motor's angle can be counted, rad: 2¹², where the f32 of the motor's
/// multi-turn angle (`mechPos`) still steps finer than a count of its feedback (module docs).
pub const TURN_COUNTER_SPAN: f64 = 4096.0;

/// Relative slack on the window's edge: a range that ends exactly at ±4π (as computed) is inside.
const EDGE_SLACK: f64 = 1e-12;

/// How the backend follows a joint's motor angle (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MotorTravel {
    /// The joint's whole range maps within ±4π: the report is the angle, nothing is counted.
    Window,
    /// The range takes the motor beyond ±4π: turns counted, seeded from the motor's own count.
    MultiTurn,
    /// No range: turns counted from where the joint was first read.
    Continuous,
}

impl MotorTravel {
    /// How `joint`'s motor is followed through `transmission` (the backend's, which may carry a
    /// runtime calibration's zero offset, or bypass a four-bar in calibration mode).
    pub fn of(joint: &Joint, transmission: &Transmission) -> MotorTravel {
        if joint.kind == JointKind::Continuous {
            return MotorTravel::Continuous;
        }
        let beyond_window = limit_angles(joint, transmission)
            .any(|end| end.motor.abs() > POSITION_SPAN * (1.0 + EDGE_SLACK));
        if beyond_window {
            MotorTravel::MultiTurn
        } else {
            MotorTravel::Window
        }
    }
}

/// The motor angle at one of a joint's position limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimitAngle {
    /// `lower` or `upper`.
    pub end: &'static str,
    /// The limit, rad or m.
    pub limit: f64,
    /// The motor's angle there, rad from its zero.
    pub motor: f64,
}

/// The motor angle at each of `joint`'s position limits through `transmission`, lower first:
/// nothing for a joint without both limits, and no end the four-bar cannot reach (its own rule
/// says so).
pub fn limit_angles(
    joint: &Joint,
    transmission: &Transmission,
) -> impl Iterator<Item = LimitAngle> + use<> {
    let both = joint
        .limits
        .filter(|_| joint.kind != JointKind::Continuous)
        .and_then(|l| l.lower.zip(l.upper));
    let transmission = *transmission;
    both.into_iter()
        .flat_map(|(lower, upper)| [("lower", lower), ("upper", upper)])
        .filter_map(move |(end, limit)| {
            let motor = transmission.motor_position(limit).ok()?;
            Some(LimitAngle { end, limit, motor })
        })
}

/// Whether the turn counter holds motor angle `motor`, rad: [`TURN_COUNTER_SPAN`] either way. A
/// non-finite angle is the finite-numbers rule's, so it passes here.
pub fn within_turn_counter(motor: f64) -> bool {
    !motor.is_finite() || motor.abs() <= TURN_COUNTER_SPAN
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::Limits;

    /// A prismatic lift of `travel` m on a 40 mm lead, its zero at the motor's `zero_offset`.
    fn lift(travel: f64, zero_offset: f64) -> (Joint, Transmission) {
        let mut joint = crate::fixture::robot()
            .joints
            .iter()
            .find(|j| j.name == "slider")
            .cloned()
            .unwrap();
        joint.limits = Some(Limits {
            lower: Some(0.0),
            upper: Some(travel),
            velocity: 0.1,
            effort: 100.0,
            current: None,
        });
        let actuator = joint.actuator.as_mut().unwrap();
        actuator.lead = Some(0.04);
        actuator.zero_offset = zero_offset;
        let transmission = Transmission::of(actuator);
        (joint, transmission)
    }

    #[test]
    fn a_range_beyond_the_window_is_counted_and_one_within_is_not() {
        // 300 mm on 40 mm a turn: 7.5 turns, 47.1 rad.
        let (joint, t) = lift(0.3, 0.0);
        assert_eq!(MotorTravel::of(&joint, &t), MotorTravel::MultiTurn);
        let ends: Vec<_> = limit_angles(&joint, &t).collect();
        assert_eq!(ends[0].motor, 0.0);
        assert!((ends[1].motor - 15.0 * std::f64::consts::PI).abs() < 1e-9);
        // 80 mm is 2 turns, 4π exactly: the window's edge is inside.
        let (joint, t) = lift(0.08, 0.0);
        assert_eq!(MotorTravel::of(&joint, &t), MotorTravel::Window);
        // The same 2 turns moved one radian on by the zero offset leave it.
        let (joint, t) = lift(0.08, 1.0);
        assert_eq!(MotorTravel::of(&joint, &t), MotorTravel::MultiTurn);
    }

    #[test]
    fn the_turn_counter_holds_4096_rad_either_way() {
        assert!(within_turn_counter(TURN_COUNTER_SPAN));
        assert!(within_turn_counter(-TURN_COUNTER_SPAN));
        assert!(!within_turn_counter(TURN_COUNTER_SPAN + 1e-6));
        // The reason: an f32 steps finer than a feedback count below 2¹² rad, coarser above it.
        let feedback_count = 2.0 * POSITION_SPAN / 65535.0;
        let step = |x: f32| f64::from(f32::from_bits(x.to_bits() + 1) - x);
        assert!(step(4095.9) < feedback_count, "{}", step(4095.9));
        assert!(step(4096.0) > feedback_count, "{}", step(4096.0));
    }
}
