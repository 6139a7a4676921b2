//! Turn counting for continuous joints: the MIT frame carries the motor angle as 16 bits over
//! ±4π, and the firmware reports an angle that loops within that window (docs/robstride-protocol.md §6, "Angle
//! wrap"), so a joint that turns without end is seen jumping by 8π at the window's edge.
//!
//! * **state**: a jump of more than half the window (4π) between two reports is a pass over the
//!   edge, never motion: at the fastest model's 50 rad/s a motor turns 0.25 rad in a 5 ms cycle,
//!   and the component fails after a few missed replies, long before 4π could pass unseen. Each
//!   pass adds or takes one turn of 8π, and the unwrapped angle is the report plus the turns.
//! * **command**: the firmware's MIT law compares the target with its own looping angle, so an
//!   unwrapped target is sent relative to the last report, `reported + (target − unwrapped)`:
//!   the law's error, hence the torque, is the same after any number of turns. The window clamps
//!   what is sent: a target more than the distance to the edge ahead is sent as the edge, and
//!   the next cycle, after the motor has looped, sends the rest.
//!
//! What cannot be counted: turns made while no report arrives (an inactive bus sends nothing, so
//! nothing answers; a motor moved by hand while switched off). The first report after such a gap
//! takes the turn that keeps the angle nearest the last one known. Firmware that saturates at
//! ±4π instead of looping never jumps, so the state then stops at the edge and targets past it
//! are held there.
//!
//! Revolute joints stay inside the window (`robot!` checks their whole range through direction,
//! zero offset and linkage), so they are not counted: a jump there means the motor was pushed
//! past the window's edge, and the component fails naming it.

use robot_core::actuator::POSITION_SPAN;

/// One whole loop of the reported angle, rad: the window's width, 8π.
pub const LOOP: f64 = 2.0 * POSITION_SPAN;

/// The turn count of one motor.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Turns {
    counting: bool,
    turns: i64,
    /// The last angle the motor reported, rad, within ±4π.
    reported: Option<f64>,
}

impl Turns {
    /// A counter for a continuous joint's motor (`counting`), or one that passes every angle
    /// through unchanged.
    pub fn new(counting: bool) -> Turns {
        Turns {
            counting,
            ..Turns::default()
        }
    }

    /// The unwrapped angle of a report of `reported` rad, counting a pass over the window's edge.
    pub fn unwrap(&mut self, reported: f64) -> f64 {
        if !self.counting || !reported.is_finite() {
            return reported;
        }
        if let Some(last) = self.reported {
            let jump = reported - last;
            if jump > POSITION_SPAN {
                self.turns -= 1;
            } else if jump < -POSITION_SPAN {
                self.turns += 1;
            }
        }
        self.reported = Some(reported);
        self.unwrapped(reported)
    }

    /// The angle to send for the unwrapped target `target`: relative to the last report, within
    /// the window. Before any report, or when not counting, `target` itself (the guard then
    /// clamps it to the window).
    pub fn target(&self, target: f64) -> f64 {
        match self.reported {
            Some(reported) if self.counting => (reported + (target - self.unwrapped(reported)))
                .clamp(-POSITION_SPAN, POSITION_SPAN),
            _ => target,
        }
    }

    /// Whether this counter counts turns (a continuous joint's motor).
    pub fn counting(&self) -> bool {
        self.counting
    }

    /// Whole loops counted so far (positive: past +4π).
    pub fn turns(&self) -> i64 {
        self.turns
    }

    fn unwrapped(&self, reported: f64) -> f64 {
        reported + self.turns as f64 * LOOP
    }
}

/// `angle` brought into the window `[-4π, 4π)` by whole loops: what looping firmware reports for
/// an angle of `angle` from its zero.
pub fn wrap(angle: f64) -> f64 {
    (angle + POSITION_SPAN).rem_euclid(LOOP) - POSITION_SPAN
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn a_report_that_loops_is_counted_in_turns_both_ways() {
        let mut turns = Turns::new(true);
        // Three turns forward in small steps (past +4π once), then back to three turns the other
        // way (back over +4π, then past −4π).
        let path = (0..=600)
            .map(|i| f64::from(i) * 0.01 * PI)
            .chain((0..=1200).map(|i| 6.0 * PI - f64::from(i) * 0.01 * PI));
        for angle in path {
            let unwrapped = turns.unwrap(wrap(angle));
            assert!((unwrapped - angle).abs() < 1e-9, "{unwrapped} for {angle}");
        }
        assert_eq!(turns.turns(), -1);
    }

    #[test]
    fn a_target_is_sent_relative_to_the_report_and_within_the_window() {
        let mut turns = Turns::new(true);
        for i in 0..=300 {
            turns.unwrap(wrap(f64::from(i) * 0.02 * PI));
        }
        // Three turns on (6π), the motor reports 6π − 8π = −2π; 0.5 rad ahead stays 0.5 ahead.
        assert_eq!(turns.turns(), 1);
        assert!((turns.target(6.0 * PI + 0.5) - (-2.0 * PI + 0.5)).abs() < 1e-9);
        // Further ahead than the window reaches: sent as the edge.
        assert_eq!(turns.target(6.0 * PI + 20.0), POSITION_SPAN);
        assert_eq!(turns.target(-20.0), -POSITION_SPAN);
    }

    #[test]
    fn a_revolute_joints_motor_is_not_counted() {
        let mut turns = Turns::new(false);
        assert_eq!(turns.unwrap(12.0), 12.0);
        assert_eq!(turns.unwrap(-12.0), -12.0);
        assert_eq!(turns.target(20.0), 20.0);
        assert_eq!(turns.turns(), 0);
    }

    #[test]
    fn before_any_report_a_target_passes_through_and_nan_is_not_counted() {
        let mut turns = Turns::new(true);
        assert_eq!(turns.target(1.5), 1.5);
        assert!(turns.unwrap(f64::NAN).is_nan());
        assert_eq!(turns.unwrap(12.0), 12.0);
        assert_eq!(turns.turns(), 0);
    }

    #[test]
    fn wrap_brings_an_angle_into_the_window() {
        assert_eq!(wrap(0.0), 0.0);
        assert!((wrap(5.0 * PI) - (-3.0 * PI)).abs() < 1e-12);
        assert!((wrap(-5.0 * PI) - 3.0 * PI).abs() < 1e-12);
        assert_eq!(wrap(-POSITION_SPAN), -POSITION_SPAN);
    }
}
