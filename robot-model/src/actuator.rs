//! RobStride actuator models and what each can do.
//!
//! One row per model, from the official user manuals (the "manual family" of
//! `shared/robstride/PROTOCOL.md` §9: M-RSxx §4.1.2 text and §4.4 `#define`s, confirmed on hardware by
//! K-Scale's drivers and motorbridge PR #11). These ranges are both the private protocol's type-1 and
//! type-2 scaling and the ceiling a joint limit may not exceed: `robot_core::validate` checks a
//! joint's velocity and effort limits, its whole position range (through direction, zero offset
//! and four-bar) against the ±4π position span, and initial stiffness and damping commands against
//! the Kp and Kd ranges (through a four-bar, a joint gain K is the motor gain J²·K).
//!
//! # Continuous joints and the ±4π window
//!
//! The type-1 command and the type-2 feedback carry the motor angle as 16 bits over ±4π, and newer
//! firmware reports it looping within that window (PROTOCOL.md §6). A continuous joint turns
//! without end, so it has no range to check and is not an error. What the RobStride backend does
//! with it today:
//! * **state**: the angle as the motor reports it, within ±4π. It does **not** unwrap a report
//!   that loops at the window's edge yet, so past two turns either way the `position` state
//!   jumps by 8π (firmware that saturates instead reads ±4π);
//! * **command**: a position target is clamped to ±4π before it is encoded, and the clamp is
//!   counted in the statistics (`commands clamped`): a continuous joint driven past two turns is
//!   held at the window's edge, never sent a wrapped target.
//!
//! Drive a continuous joint by velocity and effort (stiffness 0), or keep its position within
//! ±4π. [`mit_position_target`] is the target the unwrapping this needs will send: relative to
//! the reported angle, so that the MIT law's error, hence the torque, is the same after any
//! number of turns.
//!
//! # Current
//!
//! No current is checked against the model. The manuals, as PROTOCOL.md cites them, state no peak
//! current; the only per-model currents are the ranges of the current-mode target `iq_ref`
//! (0x7006: RS00 ±16 A, RS01 ±23, RS03 ±43, RS04 ±90, RS05 ±11, RS06 ±57; the RS02 row of that
//! table looks copied from RS00), and lite_biped's published limits exceed two of them (RS05 14 A,
//! RS02 27 A), so they are no ceiling a limit must stay under. A joint's `current` limit is only
//! checked to be positive and is emitted as its `current_limit` param.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A RobStride actuator model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[allow(missing_docs)]
pub enum RobstrideModel {
    RS00,
    RS01,
    RS02,
    RS03,
    RS04,
    RS05,
    RS06,
}

/// The scaling ranges of one model: symmetric for position, velocity and torque, from zero for the
/// gains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelSpec {
    /// Position span ±, rad, of the motor's own angle from its mechanical zero (±4π on every
    /// model).
    pub position: f64,
    /// Velocity span ±, rad/s.
    pub velocity: f64,
    /// Torque span ±, N·m.
    pub torque: f64,
    /// Largest stiffness (Kp), N·m/rad.
    pub stiffness: f64,
    /// Largest damping (Kd), N·m·s/rad.
    pub damping: f64,
}

const FOUR_PI: f64 = 4.0 * std::f64::consts::PI;

/// The position span ± of the MIT frame, rad: 4π on every model.
pub const MIT_POSITION_SPAN: f64 = FOUR_PI;

/// The position to send in a type-1 frame to a motor that reports `reported` (rad, within ±4π)
/// and whose unwrapped angle is `unwrapped`, aiming at the unwrapped angle `target`: the target
/// relative to where the motor says it is, clamped to the ±4π span (see the module docs). For a
/// motor that never left the window, `reported == unwrapped` and this is `target`, clamped.
pub fn mit_position_target(reported: f64, unwrapped: f64, target: f64) -> f64 {
    (reported + (target - unwrapped)).clamp(-MIT_POSITION_SPAN, MIT_POSITION_SPAN)
}

impl RobstrideModel {
    /// Every model, in order.
    pub const ALL: [RobstrideModel; 7] = [
        RobstrideModel::RS00,
        RobstrideModel::RS01,
        RobstrideModel::RS02,
        RobstrideModel::RS03,
        RobstrideModel::RS04,
        RobstrideModel::RS05,
        RobstrideModel::RS06,
    ];

    /// The model's scaling ranges (manual family, PROTOCOL.md §9).
    pub const fn spec(self) -> ModelSpec {
        let (velocity, torque, stiffness, damping) = match self {
            RobstrideModel::RS00 => (33.0, 14.0, 500.0, 5.0),
            RobstrideModel::RS01 => (44.0, 17.0, 500.0, 5.0),
            RobstrideModel::RS02 => (44.0, 17.0, 500.0, 5.0),
            RobstrideModel::RS03 => (20.0, 60.0, 5000.0, 100.0),
            RobstrideModel::RS04 => (15.0, 120.0, 5000.0, 100.0),
            RobstrideModel::RS05 => (50.0, 5.5, 500.0, 5.0),
            RobstrideModel::RS06 => (50.0, 36.0, 5000.0, 100.0),
        };
        ModelSpec {
            position: FOUR_PI,
            velocity,
            torque,
            stiffness,
            damping,
        }
    }

    /// The model's name as written in a definition, `RS06`.
    pub const fn name(self) -> &'static str {
        match self {
            RobstrideModel::RS00 => "RS00",
            RobstrideModel::RS01 => "RS01",
            RobstrideModel::RS02 => "RS02",
            RobstrideModel::RS03 => "RS03",
            RobstrideModel::RS04 => "RS04",
            RobstrideModel::RS05 => "RS05",
            RobstrideModel::RS06 => "RS06",
        }
    }

    /// The model as the RobstrideSystem plugin's `model` param spells it, `rs-06`.
    pub const fn plugin_name(self) -> &'static str {
        match self {
            RobstrideModel::RS00 => "rs-00",
            RobstrideModel::RS01 => "rs-01",
            RobstrideModel::RS02 => "rs-02",
            RobstrideModel::RS03 => "rs-03",
            RobstrideModel::RS04 => "rs-04",
            RobstrideModel::RS05 => "rs-05",
            RobstrideModel::RS06 => "rs-06",
        }
    }

    /// The model named `RS06` (as in a definition) or `rs-06` (as in a plugin param).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == name || m.plugin_name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn a_target_is_sent_relative_to_the_reported_angle() {
        // Three turns on, the motor reports 6π − 8π = −2π; 0.5 rad ahead stays 0.5 rad ahead.
        let unwrapped = 6.0 * PI;
        let reported = unwrapped - 8.0 * PI;
        assert_eq!(
            mit_position_target(reported, unwrapped, unwrapped + 0.5),
            reported + 0.5
        );
        // Inside the window nothing changes; beyond it the target is clamped.
        assert_eq!(mit_position_target(1.0, 1.0, 2.0), 2.0);
        assert_eq!(mit_position_target(12.0, 12.0, 20.0), MIT_POSITION_SPAN);
    }
}
