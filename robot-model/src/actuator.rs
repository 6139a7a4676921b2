//! RobStride actuator models and what each can do.
//!
//! The models and their ranges are the RobStride protocol crate's (`robstride-protocol`), one
//! table re-exported here: one row per model, from the official user manuals (the "manual family" of
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

pub use robstride_protocol::{Mit, ModelSpec, POSITION_SPAN, RobstrideModel};
