//! RobStride actuator models and what each can do.
//!
//! One row per model, from the official user manuals (the "manual family" of
//! `docs/robstride-protocol.md` §9: M-RSxx §4.1.2 text and §4.4 `#define`s, confirmed on hardware by
//! K-Scale's drivers and motorbridge PR #11). These ranges are both the private protocol's type-1 and
//! type-2 scaling and the ceiling a joint limit may not exceed: `robot_core::validate` checks a
//! joint's velocity and effort limits, its whole position range (through direction, zero offset
//! and four-bar) against the ±4π position span, and initial stiffness and damping commands against
//! the Kp and Kd ranges (through a four-bar, a joint gain K is the motor gain J²·K).
//!
//! # Continuous joints and the ±4π window
//!
//! The type-1 command and the type-2 feedback carry the motor angle as 16 bits over ±4π, and newer
//! firmware reports it looping within that window (docs/robstride-protocol.md §6). A continuous joint turns
//! without end, so it has no range to check and is not an error. What the RobStride backend does
//! with it (`backend_robstride::turns`):
//! * **state**: it counts the turns of a report that loops at the window's edge, so `position`
//!   is the joint's whole angle over any number of turns, counted from where it was first read;
//! * **command**: it sends a position target relative to the angle the motor last reported, so
//!   the MIT law's error, hence the torque, is the same after any number of turns; a target
//!   further ahead than the window's edge is sent as the edge, and the rest once the motor has
//!   looped.
//!
//! Turns made while no report arrives (an inactive bus asks nothing, so nothing answers) cannot
//! be counted: the next report takes the turn nearest the last angle known. Firmware that
//! saturates at ±4π instead of looping holds a continuous joint at the window's edge.
//!
//! # Current
//!
//! No current is checked against the model. The manuals, as docs/robstride-protocol.md cites them, state no peak
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

    /// The model's scaling ranges (manual family, docs/robstride-protocol.md §9).
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
