//! Turn counting for joints whose motor leaves the ±4π window: the MIT frame carries the motor
//! angle as 16 bits over ±4π, and the firmware reports an angle that loops within that window
//! (docs/robstride-protocol.md §6, "Angle wrap"), so a motor that turns on is seen jumping by 8π
//! at the window's edge. Which joints are counted is [`MotorTravel`] (`robot_model::actuator`):
//! continuous ones, and multi-turn ones, whose range takes the motor past ±4π (a lead screw, a
//! belt, a high-ratio stage).
//!
//! * **state**: a jump of more than half the window (4π) between two reports is a pass over the
//!   edge, never motion: at the fastest model's 50 rad/s a motor turns 0.25 rad in a 5 ms cycle,
//!   and the component fails after a few missed replies, long before 4π could pass unseen. Each
//!   pass adds or takes one turn of 8π, and the unwrapped angle is the report plus the turns.
//! * **command**: the firmware's MIT law compares the target with its own looping angle, so an
//!   unwrapped target is sent relative to the last report, `reported + (target − unwrapped)`:
//!   the law's error, hence the torque, is the same after any number of turns. The window clamps
//!   what is sent: a target more than the distance to the edge ahead is sent as the edge, and
//!   the next cycle, after the motor has looped, sends the rest. Joint limits stay the guard's,
//!   in joint space.
//! * **at the edge** ([`Turns::command`]): the report a command is built on is a period old, and
//!   the command acts for a period more, so a motor near the edge may loop before or while it
//!   acts; the law would then compare a target near one edge with an angle near the other, an
//!   error of 8π, and push at full torque for a period (the simulated lift took 17 N·m, its
//!   motor's whole torque, at every loop). So while the motor could reach the edge within those
//!   two periods at the model's top speed, the host applies the spring itself: stiffness 0, and
//!   `Kp·(target − predicted)` added to the feed-forward torque, `predicted` the report moved on
//!   by its velocity to the middle of the period the command acts in, the target held at the
//!   window's edge as the firmware's would be unless the motor is predicted past it already. The
//!   damping stays the firmware's (a velocity does not loop). A report on the edge itself (its
//!   first or last count) from a motor not yet seen to loop may be one that saturates there: the
//!   firmware's spring then acts, on the target clamped to the edge, which holds such firmware at
//!   its edge instead of pushing a motor the host cannot see move.
//!
//! **Where the count starts.** A continuous joint has no range, so no turn to get wrong: it is
//! counted from where it was first read. A multi-turn joint's count decides where its range is,
//! and a report that loops every 8π cannot tell a lift at 10 mm from one at 170 mm: a wrong turn
//! would drive it into its end stop. So the count is never guessed; it is seeded
//! ([`Turns::seed`]) from the motor's own, parameter 0x7019 `mechPos`, the multi-turn angle the
//! firmware keeps since power-on (§8), read at configure and again at every activation (it counts
//! what the host could not see: turns made while the bus was inactive, a joint moved by hand).
//! The report is taken on the loop nearest that count, and must lie within [`SEED_TOLERANCE`] of
//! it. A motor whose count cannot be read, or whose report is not its count looped into the window
//! (firmware that saturates at ±4π, a report and a count from different zeros), is not switched
//! on, and the error names the joint; so is one whose seeded angle puts the joint beyond its range
//! (the component's start check). `mechPos` itself is only as right as where the motor was powered
//! on: it starts within one turn of the motor's zero (parameter `zero_sta`, §6), so a multi-turn
//! joint must be powered on in the turn of its zero, or zeroed there (`robot can set-zero`).
//!
//! What cannot be counted: for a continuous joint, turns made while no report arrives (an
//! inactive bus sends nothing, so nothing answers); the first report after such a gap takes the
//! turn that keeps the angle nearest the last one known. Firmware that saturates at ±4π instead
//! of looping never jumps, so a continuous joint's state then stops at the edge and targets past
//! it are held there; a multi-turn joint beyond the edge is refused at its seed.
//!
//! Joints inside the window are not counted: a jump there means the motor was pushed past the
//! window's edge, and the component fails naming it.

use robot_core::Mit;
use robot_core::actuator::{MotorTravel, POSITION_SPAN};

/// One whole loop of the reported angle, rad: the window's width, 8π.
pub const LOOP: f64 = 2.0 * POSITION_SPAN;

/// How far a report taken on its nearest loop may lie from the motor's own count, rad. Far below
/// half a loop (4π), which would make the loop ambiguous; far above what separates two readings
/// of one motor: the 16-bit report's step (3.8e-4 rad), `mechPos`'s f32 step within the turn
/// counter (2.4e-4 rad), and what a switched-off motor moves between two round trips.
pub const SEED_TOLERANCE: f64 = 0.5;

/// Half a count of the 16-bit reported angle, rad: a report this close to ±4π is on the edge.
const HALF_COUNT: f64 = POSITION_SPAN / 65535.0;

/// Why a multi-turn joint's count could not be seeded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SeedError {
    /// No report to take on a loop yet.
    NoReport,
    /// The motor's count is not a number.
    NotANumber(f64),
    /// The report, on the loop nearest the count, is more than [`SEED_TOLERANCE`] from it.
    Disagrees {
        /// The angle the motor last reported, rad, within ±4π.
        reported: f64,
        /// The motor's own multi-turn angle, rad.
        count: f64,
    },
}

/// The turn count of one motor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turns {
    travel: MotorTravel,
    /// The fastest the motor turns, rad/s (its model's velocity range).
    top_speed: f64,
    turns: i64,
    /// The last angle the motor reported, rad, within ±4π.
    reported: Option<f64>,
    /// Whether a multi-turn count was seeded from the motor's own.
    seeded: bool,
    /// Whether the report was seen to loop (a pass counted, or a seed a loop away): the
    /// firmware loops, so a report on the edge is an angle there, not a saturated one.
    looped: bool,
}

impl Turns {
    /// A counter for a motor that travels as `travel` says, turning at `top_speed` rad/s at
    /// most: one that passes every angle through unchanged for [`MotorTravel::Window`].
    pub fn new(travel: MotorTravel, top_speed: f64) -> Turns {
        Turns {
            travel,
            top_speed,
            turns: 0,
            reported: None,
            seeded: false,
            looped: false,
        }
    }

    /// The unwrapped angle of a report of `reported` rad, counting a pass over the window's edge.
    pub fn unwrap(&mut self, reported: f64) -> f64 {
        if !self.counting() || !reported.is_finite() {
            return reported;
        }
        if let Some(last) = self.reported {
            let jump = reported - last;
            if jump > POSITION_SPAN {
                self.turns -= 1;
                self.looped = true;
            } else if jump < -POSITION_SPAN {
                self.turns += 1;
                self.looped = true;
            }
        }
        self.reported = Some(reported);
        self.unwrapped(reported)
    }

    /// Seeds the count from the motor's own multi-turn angle `count` (`mechPos`, rad): the last
    /// report taken on the loop nearest it, which must lie within [`SEED_TOLERANCE`] of it.
    /// Replaces whatever was counted before. Returns the unwrapped angle of the last report.
    pub fn seed(&mut self, count: f64) -> Result<f64, SeedError> {
        let reported = self.reported.ok_or(SeedError::NoReport)?;
        if !count.is_finite() {
            return Err(SeedError::NotANumber(count));
        }
        // Within the turn counter (±4096 rad, `robot!`'s rule) a loop count fits an i64 many
        // times over; a count beyond it saturates, and then disagrees below.
        let loops = ((count - reported) / LOOP).round() as i64;
        let unwrapped = reported + loops as f64 * LOOP;
        if (unwrapped - count).abs() > SEED_TOLERANCE {
            return Err(SeedError::Disagrees { reported, count });
        }
        self.turns = loops;
        self.seeded = true;
        self.looped |= loops != 0;
        Ok(unwrapped)
    }

    /// The angle to send for the unwrapped target `target`: relative to the last report, within
    /// the window. Before any report, or when not counting, `target` itself (the guard then
    /// clamps it to the window).
    pub fn target(&self, target: f64) -> f64 {
        match self.reported {
            Some(reported) if self.counting() => (reported + (target - self.unwrapped(reported)))
                .clamp(-POSITION_SPAN, POSITION_SPAN),
            _ => target,
        }
    }

    /// The operation-control command to send for `command`, a motor-space command whose
    /// position is unwrapped, given the last report's `velocity` (rad/s) and the loop's `period`
    /// (s): its target relative to the report, within the window ([`Turns::target`]); and, where
    /// the motor could loop before the next command, its spring applied by the host (module
    /// docs). Unchanged but for the target on a motor whose turns are not counted.
    pub fn command(&self, command: &Mit, velocity: f64, period: f64) -> Mit {
        let mut sent = Mit {
            position: self.target(command.position),
            ..*command
        };
        let Some(reported) = self.reported.filter(|_| self.counting()) else {
            return sent;
        };
        // How far the motor can turn from the report until the next command: a period old, and
        // a period to go.
        let from_edge = POSITION_SPAN - reported.abs();
        let saturated = from_edge < HALF_COUNT && !self.looped;
        if from_edge > 2.0 * period * self.top_speed || saturated {
            return sent;
        }
        // In the report's loop: where the motor is predicted while this command acts (the
        // middle of the next period), and the spring's target, held at the edge as the
        // firmware's would be, or where the motor is predicted past it.
        let predicted = reported + 1.5 * velocity * period;
        let target = (reported + (command.position - self.unwrapped(reported)))
            .min(POSITION_SPAN.max(predicted))
            .max((-POSITION_SPAN).min(predicted));
        sent.effort += command.stiffness * (target - predicted);
        sent.stiffness = 0.0;
        sent
    }

    /// Whether this counter counts turns (a continuous or multi-turn joint's motor).
    pub fn counting(&self) -> bool {
        self.travel != MotorTravel::Window
    }

    /// Whether the count must be seeded from the motor's own before the motor is switched on:
    /// a multi-turn joint's.
    pub fn needs_seed(&self) -> bool {
        self.travel == MotorTravel::MultiTurn
    }

    /// Whether a multi-turn count was seeded ([`Turns::seed`]).
    pub fn seeded(&self) -> bool {
        self.seeded
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
        let mut turns = Turns::new(MotorTravel::Continuous, 44.0);
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
        let mut turns = Turns::new(MotorTravel::Continuous, 44.0);
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
    fn near_the_edge_the_host_applies_the_spring_and_away_from_it_the_firmware_does() {
        let mut turns = Turns::new(MotorTravel::Continuous, 44.0);
        let command = |position| Mit {
            position,
            velocity: 20.0,
            effort: 0.5,
            stiffness: 30.0,
            damping: 1.0,
        };
        // At 3 rad: 8.8 rad from the edge, farther than 44 rad/s reaches in two 5 ms periods.
        turns.unwrap(3.0);
        assert_eq!(turns.command(&command(3.1), 20.0, 0.005), command(3.1));
        // At 12.3 rad, 0.27 rad from the edge: the spring, on the angle predicted for the
        // middle of the next period (12.3 + 1.5 · 20 · 0.005 = 12.45), becomes torque; the
        // damping stays the firmware's.
        turns.unwrap(12.3);
        let sent = turns.command(&command(12.5), 20.0, 0.005);
        assert_eq!(sent.stiffness, 0.0);
        assert!((sent.effort - (0.5 + 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        assert_eq!((sent.velocity, sent.damping), (20.0, 1.0));
        assert!((sent.position - 12.5).abs() < 1e-9);
        // A target past the edge pulls to the edge, as the firmware's clamped target would...
        let sent = turns.command(&command(13.0), 20.0, 0.005);
        assert!((sent.effort - (0.5 + 30.0 * (POSITION_SPAN - 12.45))).abs() < 1e-9);
        assert_eq!(sent.position, POSITION_SPAN);
        // ... unless the motor is predicted past it already (12.5 + 0.15): then it neither
        // pulls back nor pushes on past where the motor is predicted.
        turns.unwrap(12.5);
        let sent = turns.command(&command(12.7), 20.0, 0.005);
        assert!((sent.effort - 0.5).abs() < 1e-9, "{sent:?}");
        let sent = turns.command(&command(12.6), 20.0, 0.005);
        assert!((sent.effort - (0.5 - 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        // Past the edge, counted: the same on the other side of it.
        turns.unwrap(wrap(12.7));
        assert_eq!(turns.turns(), 1);
        let sent = turns.command(&command(12.9), 20.0, 0.005);
        assert_eq!(sent.stiffness, 0.0);
        assert!((sent.effort - (0.5 + 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        // On the edge itself, once the report was seen to loop: an angle there, the host's.
        turns.unwrap(-POSITION_SPAN);
        assert_eq!(turns.command(&command(12.6), 20.0, 0.005).stiffness, 0.0);
        // A joint inside the window keeps its law whole, edge or not.
        let mut window = Turns::new(MotorTravel::Window, 44.0);
        window.unwrap(12.5);
        assert_eq!(window.command(&command(12.55), 20.0, 0.005), command(12.55));
    }

    #[test]
    fn a_report_on_the_edge_itself_keeps_the_firmwares_spring_on_the_edge() {
        // Firmware that saturates: its report stays at 4π however far the motor goes.
        let mut turns = Turns::new(MotorTravel::Continuous, 44.0);
        turns.unwrap(12.0);
        turns.unwrap(f64::from(POSITION_SPAN as f32));
        let command = Mit {
            position: 20.0,
            stiffness: 30.0,
            ..Mit::default()
        };
        let sent = turns.command(&command, 5.0, 0.005);
        assert_eq!(sent.stiffness, 30.0);
        assert_eq!(sent.position, POSITION_SPAN);
        assert_eq!(sent.effort, 0.0);
    }

    #[test]
    fn a_joint_inside_the_window_is_not_counted() {
        let mut turns = Turns::new(MotorTravel::Window, 44.0);
        assert_eq!(turns.unwrap(12.0), 12.0);
        assert_eq!(turns.unwrap(-12.0), -12.0);
        assert_eq!(turns.target(20.0), 20.0);
        assert_eq!(turns.turns(), 0);
        assert!(!turns.needs_seed());
    }

    #[test]
    fn before_any_report_a_target_passes_through_and_nan_is_not_counted() {
        let mut turns = Turns::new(MotorTravel::Continuous, 44.0);
        assert_eq!(turns.target(1.5), 1.5);
        assert!(turns.unwrap(f64::NAN).is_nan());
        assert_eq!(turns.unwrap(12.0), 12.0);
        assert_eq!(turns.turns(), 0);
    }

    #[test]
    fn a_multi_turn_count_is_seeded_on_the_loop_nearest_the_motors_own() {
        // A 300 mm lift on a 40 mm lead at 170 mm: 26.7 rad, reported as 26.7 − 8π = 1.57.
        let angle = 0.17 / 0.04 * std::f64::consts::TAU;
        let mut turns = Turns::new(MotorTravel::MultiTurn, 44.0);
        assert!(turns.needs_seed() && !turns.seeded());
        assert_eq!(turns.seed(angle), Err(SeedError::NoReport));
        // Alone, the report reads 10 mm.
        assert!((turns.unwrap(wrap(angle)) - (angle - LOOP)).abs() < 1e-12);
        // The motor's count (an f32 on the wire) puts it a loop on.
        let seeded = turns.seed(f64::from(angle as f32)).unwrap();
        assert!((seeded - angle).abs() < 1e-9, "{seeded}");
        assert!(turns.seeded());
        assert_eq!(turns.turns(), 1);
        // Counted from there as a continuous joint is, and sent relative to the report.
        assert!((turns.unwrap(wrap(angle + 0.1)) - (angle + 0.1)).abs() < 1e-9);
        assert!((turns.target(angle + 0.3) - wrap(angle + 0.3)).abs() < 1e-9);
        // A later seed replaces the count: turns made while nothing was reported.
        turns.unwrap(wrap(angle + 3.0 * LOOP));
        assert_eq!(turns.turns(), 1, "a gap of whole loops is invisible");
        let seeded = turns.seed(angle + 3.0 * LOOP).unwrap();
        assert!((seeded - (angle + 3.0 * LOOP)).abs() < 1e-9);
        assert_eq!(turns.turns(), 4);
    }

    #[test]
    fn a_count_the_report_does_not_loop_with_is_refused() {
        let mut turns = Turns::new(MotorTravel::MultiTurn, 44.0);
        // Firmware that saturates: the report stays at the edge while the motor is at 20 rad.
        turns.unwrap(POSITION_SPAN);
        assert_eq!(
            turns.seed(20.0),
            Err(SeedError::Disagrees {
                reported: POSITION_SPAN,
                count: 20.0
            })
        );
        assert!(!turns.seeded());
        assert!(matches!(turns.seed(f64::NAN), Err(SeedError::NotANumber(c)) if c.is_nan()));
        // Within the tolerance: a motor that moved a little between the two readings.
        turns.unwrap(1.0);
        assert!((turns.seed(1.0 + LOOP + 0.4).unwrap() - (1.0 + LOOP)).abs() < 1e-12);
    }

    #[test]
    fn wrap_brings_an_angle_into_the_window() {
        assert_eq!(wrap(0.0), 0.0);
        assert!((wrap(5.0 * PI) - (-3.0 * PI)).abs() < 1e-12);
        assert!((wrap(-5.0 * PI) - 3.0 * PI).abs() < 1e-12);
        assert_eq!(wrap(-POSITION_SPAN), -POSITION_SPAN);
    }
}
