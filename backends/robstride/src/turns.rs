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
//! * **command** ([`Turns::command`]): the firmware's MIT law compares the target with its own
//!   looping angle, so an unwrapped target is sent relative to the last report,
//!   `reported + (target − unwrapped)`: the law's error, hence the torque, is the same after any
//!   number of turns. The firmware's law is used wherever it computes what the joint's law
//!   computes; where it cannot, the host applies the spring itself, as feed-forward torque with
//!   stiffness 0: `Kp·(target − predicted)`, `predicted` the report moved on by its velocity to
//!   the middle of the period the command acts in, clamped to the model's torque as the
//!   firmware clamps its law. The damping stays the firmware's (a velocity does not loop). The
//!   host's spring is used
//!   * where the target, relative to the report, lies beyond the window: the frame cannot carry
//!     it, and a target clamped to the edge would hold the motor there (a position-only lift
//!     stalled at the edge and then lurched a whole window once the error had grown);
//!   * where the motor could reach the edge within two periods at the model's top speed: the
//!     report a command is built on is a period old and the command acts for a period more, so
//!     the motor may loop before or while it acts, and the firmware would then compare a target
//!     near one edge with an angle near the other, an error of 8π, at full torque for a period.
//!
//!   With stiffness 0 the firmware's law has no target to act on; the position sent is the
//!   angle the motor is predicted at, looped into the window, so that even a spring the
//!   firmware kept would find its target at the motor, never across the window from it.
//! * **firmware that saturates** its report at ±4π instead of looping it cannot drive a counted
//!   joint past the edge: its report stays on the edge while the motor turns on, and the host
//!   would push a motor it cannot see move. While the report stays on one edge of the window,
//!   the travel its velocity reports outwards is summed ([`Turns::unwrap`]), forgiving a bias of
//!   [`FORGIVEN_SPEED`]; more than [`STUCK_TRAVEL`] of it is [`Saturated`], which fails the
//!   component naming the joint, and the loop switches the motors off. A looping motor on the
//!   edge leaves that count within a count's travel, a thousandth of [`STUCK_TRAVEL`].
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
//! turn that keeps the angle nearest the last one known. On firmware that saturates, a motor that
//! creeps past the edge slower than [`FORGIVEN_SPEED`] is not seen; a multi-turn joint found
//! beyond the edge is refused at its seed.
//!
//! Joints inside the window are not counted: a jump there means the motor was pushed past the
//! window's edge, and the component fails naming it.

use robot_runtime::Mit;
use robot_runtime::actuator::{LOOP, ModelSpec, MotorTravel, POSITION_SPAN, wrap};

/// How far a report taken on its nearest loop may lie from the motor's own count, rad. Far below
/// half a loop (4π), which would make the loop ambiguous; far above what separates two readings
/// of one motor: the 16-bit report's step (3.8e-4 rad), `mechPos`'s f32 step within the turn
/// counter (2.4e-4 rad), and what a switched-off motor moves between two round trips.
pub const SEED_TOLERANCE: f64 = 0.5;

/// How far a motor may turn outwards, by its reported velocity, while its reported angle stays
/// on the window's edge, before the report is taken for saturated, rad: 52 counts of the 16-bit
/// angle, 0.06 mm on a 40 mm lead. A looping report leaves the edge's count within one.
pub const STUCK_TRAVEL: f64 = 0.02;

/// The reported velocity, rad/s, that [`STUCK_TRAVEL`] forgives while a report stays on the
/// edge: a velocity feedback's bias at rest, so that a motor held on the edge is not taken for
/// one that moves on.
pub const FORGIVEN_SPEED: f64 = 0.02;

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

/// The motor's reported angle stayed on the window's edge while its reported velocity took it
/// more than [`STUCK_TRAVEL`] further: firmware that saturates its report instead of looping it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Saturated {
    /// The edge the report stays on, rad (±4π).
    pub edge: f64,
    /// How far past it the reported velocity took the motor meanwhile, rad.
    pub travel: f64,
    /// The report's unwrapped angle all the same, rad: where the host last saw the motor.
    pub angle: f64,
}

/// One report of a motor: its angle within ±4π and its velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// The angle, rad, within ±4π.
    pub angle: f64,
    /// The velocity, rad/s.
    pub velocity: f64,
    /// Time since the report before it, s: 0 where it is not known (a round trip of the
    /// lifecycle), which sums no travel on the edge.
    pub since_last: f64,
}

/// The turn count of one motor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turns {
    travel: MotorTravel,
    /// The fastest the motor turns, rad/s (its model's velocity range).
    top_speed: f64,
    /// The most torque the motor applies, N·m (its model's torque range).
    top_torque: f64,
    turns: i64,
    /// The last angle the motor reported, rad, within ±4π.
    reported: Option<f64>,
    /// Whether a multi-turn count was seeded from the motor's own.
    seeded: bool,
    /// Outward travel, rad, that the reported velocity gives while the report stays on one edge
    /// (less [`FORGIVEN_SPEED`]), and that edge.
    on_edge: Option<(f64, f64)>,
}

impl Turns {
    /// A counter for a motor that travels as `travel` says, with the ranges of `spec`: one that
    /// passes every angle through unchanged for [`MotorTravel::Window`].
    pub fn new(travel: MotorTravel, spec: &ModelSpec) -> Turns {
        Turns {
            travel,
            top_speed: spec.velocity,
            top_torque: spec.torque,
            turns: 0,
            reported: None,
            seeded: false,
            on_edge: None,
        }
    }

    /// The unwrapped angle of `report`, counting a pass over the window's edge. Fails when the
    /// report stays on an edge while the motor's velocity takes it on ([`Saturated`], which
    /// carries the angle all the same).
    pub fn unwrap(&mut self, report: Report) -> Result<f64, Saturated> {
        let reported = report.angle;
        if !self.counting() || !reported.is_finite() {
            return Ok(reported);
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
        let angle = self.unwrapped(reported);
        self.watch_edge(report, angle).map(|()| angle)
    }

    /// Sums the outward travel the velocity reports while the angle stays on one edge.
    fn watch_edge(&mut self, report: Report, angle: f64) -> Result<(), Saturated> {
        let edge = POSITION_SPAN.copysign(report.angle);
        if POSITION_SPAN - report.angle.abs() >= HALF_COUNT || !report.velocity.is_finite() {
            self.on_edge = None;
            return Ok(());
        }
        let before = match self.on_edge {
            Some((travel, last_edge)) if last_edge == edge => travel,
            _ => 0.0,
        };
        let dt = report.since_last.max(0.0);
        let outward = report.velocity * edge.signum();
        let travel = (before + (outward - FORGIVEN_SPEED) * dt).max(0.0);
        self.on_edge = Some((travel, edge));
        if travel > STUCK_TRAVEL {
            return Err(Saturated {
                edge,
                travel,
                angle,
            });
        }
        Ok(())
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
        Ok(unwrapped)
    }

    /// The operation-control command to send for `command`, a motor-space command whose
    /// position is unwrapped, given the last report's `velocity` (rad/s) and the loop's `period`
    /// (s): its target relative to the report, for the firmware's law; or, where that law
    /// cannot compute the joint's, the spring applied by the host (module docs). Unchanged on a
    /// motor whose turns are not counted, and before any report.
    pub fn command(&self, command: &Mit, velocity: f64, period: f64) -> Mit {
        let Some(reported) = self.reported.filter(|_| self.counting()) else {
            return *command;
        };
        let relative = reported + (command.position - self.unwrapped(reported));
        // How far the motor can turn from the report until the next command: a period old, and
        // a period to go.
        let may_loop = POSITION_SPAN - reported.abs() <= 2.0 * period * self.top_speed;
        if relative.abs() <= POSITION_SPAN && !may_loop {
            return Mit {
                position: relative,
                ..*command
            };
        }
        // Where the motor is predicted while this command acts: the middle of the next period.
        let predicted = reported + 1.5 * velocity * period;
        let spring = command.stiffness * (relative - predicted) + command.effort;
        // What the torque field cannot carry goes into the damping's velocity target, where the
        // firmware adds it as it would have its spring, before it clamps the sum.
        let effort = spring.clamp(-self.top_torque, self.top_torque);
        let velocity = match spring - effort {
            0.0 => command.velocity,
            beyond if command.damping > 0.0 => {
                (command.velocity + beyond / command.damping).clamp(-self.top_speed, self.top_speed)
            }
            _ => command.velocity,
        };
        Mit {
            position: wrap(predicted),
            velocity,
            effort,
            stiffness: 0.0,
            damping: command.damping,
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use robot_runtime::RobstrideModel;
    use std::f64::consts::PI;

    /// An RS02's counter: 44 rad/s, 17 N·m.
    fn counter(travel: MotorTravel) -> Turns {
        Turns::new(travel, &RobstrideModel::RS02.spec())
    }

    /// A report of `angle` at rest, its time since the last unknown.
    fn at(angle: f64) -> Report {
        Report {
            angle,
            velocity: 0.0,
            since_last: 0.0,
        }
    }

    fn command(position: f64) -> Mit {
        Mit {
            position,
            velocity: 20.0,
            effort: 0.5,
            stiffness: 30.0,
            damping: 1.0,
        }
    }

    #[test]
    fn a_report_that_loops_is_counted_in_turns_both_ways() {
        let mut turns = counter(MotorTravel::Continuous);
        // Three turns forward in small steps (past +4π once), then back to three turns the other
        // way (back over +4π, then past −4π).
        let path = (0..=600)
            .map(|i| f64::from(i) * 0.01 * PI)
            .chain((0..=1200).map(|i| 6.0 * PI - f64::from(i) * 0.01 * PI));
        for angle in path {
            let unwrapped = turns.unwrap(at(wrap(angle))).unwrap();
            assert!((unwrapped - angle).abs() < 1e-9, "{unwrapped} for {angle}");
        }
        assert_eq!(turns.turns(), -1);
    }

    #[test]
    fn away_from_the_edge_a_target_is_sent_relative_to_the_report_for_the_firmwares_law() {
        let mut turns = counter(MotorTravel::Continuous);
        for i in 0..=300 {
            turns.unwrap(at(wrap(f64::from(i) * 0.02 * PI))).unwrap();
        }
        // Three turns on (6π), the motor reports 6π − 8π = −2π; 0.5 rad ahead stays 0.5 ahead,
        // and the rest of the command is the joint's.
        assert_eq!(turns.turns(), 1);
        let sent = turns.command(&command(6.0 * PI + 0.5), 20.0, 0.005);
        assert!((sent.position - (-2.0 * PI + 0.5)).abs() < 1e-9, "{sent:?}");
        assert_eq!(
            Mit {
                position: 0.0,
                ..sent
            },
            Mit {
                position: 0.0,
                ..command(0.0)
            }
        );
    }

    #[test]
    fn a_target_beyond_the_window_is_the_hosts_spring_never_the_edge() {
        let mut turns = counter(MotorTravel::Continuous);
        turns.unwrap(at(-2.0 * PI)).unwrap();
        // 20 rad ahead of a motor at −2π: past +4π, which the frame cannot carry. The spring
        // acts on the whole error, from where the motor is predicted (−2π + 1.5 · 2 · 0.005).
        let far = command(-2.0 * PI + 20.0);
        let sent = turns.command(
            &Mit {
                stiffness: 0.5,
                ..far
            },
            2.0,
            0.005,
        );
        assert_eq!(sent.stiffness, 0.0);
        assert!(
            (sent.effort - (0.5 + 0.5 * (20.0 - 0.015))).abs() < 1e-9,
            "{sent:?}"
        );
        assert!(
            (sent.position - (-2.0 * PI + 0.015)).abs() < 1e-9,
            "{sent:?}"
        );
        assert_eq!((sent.velocity, sent.damping), (20.0, 1.0));
    }

    #[test]
    fn near_the_edge_the_host_applies_the_spring_and_away_from_it_the_firmware_does() {
        let mut turns = counter(MotorTravel::Continuous);
        // At 3 rad: 9.6 rad from the edge, farther than 44 rad/s reaches in two 5 ms periods.
        turns.unwrap(at(3.0)).unwrap();
        assert_eq!(turns.command(&command(3.1), 20.0, 0.005), command(3.1));
        // At 12.3 rad, 0.27 rad from the edge: the spring, on the angle predicted for the
        // middle of the next period (12.3 + 1.5 · 20 · 0.005 = 12.45), becomes torque; the
        // damping stays the firmware's; the position sent is that predicted angle.
        turns.unwrap(at(12.3)).unwrap();
        let sent = turns.command(&command(12.5), 20.0, 0.005);
        assert_eq!(sent.stiffness, 0.0);
        assert!((sent.effort - (0.5 + 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        assert_eq!((sent.velocity, sent.damping), (20.0, 1.0));
        assert!((sent.position - 12.45).abs() < 1e-9);
        // A target past the edge pulls on past it: the error is the joint's, not the edge's.
        let sent = turns.command(&command(13.0), 20.0, 0.005);
        assert!((sent.effort - (0.5 + 30.0 * 0.55)).abs() < 1e-9, "{sent:?}");
        // Predicted past the edge: the position sent is that angle looped, the other edge.
        turns.unwrap(at(12.5)).unwrap();
        let sent = turns.command(&command(12.6), 20.0, 0.005);
        assert!((sent.effort - (0.5 - 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        assert!((sent.position - wrap(12.65)).abs() < 1e-9, "{sent:?}");
        // Past the edge, counted: the same on the other side of it.
        turns.unwrap(at(wrap(12.7))).unwrap();
        assert_eq!(turns.turns(), 1);
        let sent = turns.command(&command(12.9), 20.0, 0.005);
        assert_eq!(sent.stiffness, 0.0);
        assert!((sent.effort - (0.5 + 30.0 * 0.05)).abs() < 1e-9, "{sent:?}");
        // A joint inside the window keeps its law whole, edge or not.
        let mut window = counter(MotorTravel::Window);
        window.unwrap(at(12.5)).unwrap();
        assert_eq!(window.command(&command(12.55), 20.0, 0.005), command(12.55));
    }

    #[test]
    fn a_spring_beyond_the_torque_field_goes_on_through_the_damping() {
        let mut turns = counter(MotorTravel::Continuous);
        turns.unwrap(at(12.3)).unwrap();
        // 30 N·m/rad on 1.15 rad of error, with 0.5 N·m fed forward: 35 N·m, past the RS02's
        // 17. The torque field carries 17; the 18 left raise the damping's velocity target by
        // 18 / 1 rad/s, so the firmware adds them before it clamps the sum, as its spring's.
        let sent = turns.command(&command(13.6), 20.0, 0.005);
        assert_eq!(sent.effort, 17.0);
        assert!((sent.velocity - (20.0 + 18.0)).abs() < 1e-9, "{sent:?}");
        // Beyond the velocity field too: clamped there, the law saturated as the firmware's is.
        let sent = turns.command(&command(14.6), 20.0, 0.005);
        assert_eq!((sent.effort, sent.velocity), (17.0, 44.0));
        // Without damping there is no velocity target to carry it: the torque saturates.
        let undamped = Mit {
            damping: 0.0,
            ..command(13.6)
        };
        let sent = turns.command(&undamped, 20.0, 0.005);
        assert_eq!((sent.effort, sent.velocity), (17.0, 20.0));
    }

    #[test]
    fn a_report_held_on_the_edge_while_the_motor_turns_on_is_a_saturated_one() {
        let edge = f64::from(POSITION_SPAN as f32);
        let mut turns = counter(MotorTravel::Continuous);
        turns.unwrap(at(12.0)).unwrap();
        let on_edge = |velocity| Report {
            angle: edge,
            velocity,
            since_last: 0.005,
        };
        // Held on the edge: a velocity bias of the forgiven speed sums to nothing.
        for _ in 0..10_000 {
            turns.unwrap(on_edge(FORGIVEN_SPEED)).unwrap();
        }
        // Turning on at 2 rad/s while the report stays: 0.01 rad a cycle, less the forgiven.
        for _ in 0..2 {
            turns.unwrap(on_edge(2.0)).unwrap();
        }
        let stuck = turns.unwrap(on_edge(2.0)).unwrap_err();
        assert_eq!(stuck.edge, POSITION_SPAN);
        assert!((stuck.travel - 3.0 * (2.0 - FORGIVEN_SPEED) * 0.005).abs() < 1e-12);
        assert_eq!(stuck.angle, edge);
        // Turning back in (the report then leaves the edge) sums nothing; nor does the other
        // edge, nor a round trip's report, whose time since the last is not known.
        turns.unwrap(at(12.0)).unwrap();
        turns.unwrap(on_edge(-5.0)).unwrap();
        let other = Report {
            angle: -edge,
            velocity: -5.0,
            since_last: 0.0,
        };
        for _ in 0..100 {
            turns.unwrap(other).unwrap();
        }
        // A looping report passing the edge at speed is never held on it.
        let mut looping = counter(MotorTravel::MultiTurn);
        for i in 0..=2000 {
            let angle = f64::from(i) * 0.02;
            let report = Report {
                angle: wrap(angle),
                velocity: 4.0,
                since_last: 0.005,
            };
            assert!(looping.unwrap(report).is_ok(), "at {angle}");
        }
    }

    #[test]
    fn a_joint_inside_the_window_is_not_counted() {
        let mut turns = counter(MotorTravel::Window);
        assert_eq!(turns.unwrap(at(12.0)), Ok(12.0));
        assert_eq!(turns.unwrap(at(-12.0)), Ok(-12.0));
        assert_eq!(turns.command(&command(20.0), 0.0, 0.005), command(20.0));
        assert_eq!(turns.turns(), 0);
        assert!(!turns.needs_seed());
    }

    #[test]
    fn before_any_report_a_command_passes_through_and_nan_is_not_counted() {
        let mut turns = counter(MotorTravel::Continuous);
        assert_eq!(turns.command(&command(1.5), 0.0, 0.005), command(1.5));
        assert!(turns.unwrap(at(f64::NAN)).unwrap().is_nan());
        assert_eq!(turns.unwrap(at(12.0)), Ok(12.0));
        assert_eq!(turns.turns(), 0);
    }

    #[test]
    fn a_multi_turn_count_is_seeded_on_the_loop_nearest_the_motors_own() {
        // A 300 mm lift on a 40 mm lead at 170 mm: 26.7 rad, reported as 26.7 − 8π = 1.57.
        let angle = 0.17 / 0.04 * std::f64::consts::TAU;
        let mut turns = counter(MotorTravel::MultiTurn);
        assert!(turns.needs_seed() && !turns.seeded());
        assert_eq!(turns.seed(angle), Err(SeedError::NoReport));
        // Alone, the report reads 10 mm.
        assert!((turns.unwrap(at(wrap(angle))).unwrap() - (angle - LOOP)).abs() < 1e-12);
        // The motor's count (an f32 on the wire) puts it a loop on.
        let seeded = turns.seed(f64::from(angle as f32)).unwrap();
        assert!((seeded - angle).abs() < 1e-9, "{seeded}");
        assert!(turns.seeded());
        assert_eq!(turns.turns(), 1);
        // Counted from there as a continuous joint is, and sent relative to the report.
        assert!((turns.unwrap(at(wrap(angle + 0.1))).unwrap() - (angle + 0.1)).abs() < 1e-9);
        let sent = turns.command(&command(angle + 0.3), 0.0, 0.005);
        assert!((sent.position - wrap(angle + 0.3)).abs() < 1e-9);
        // A later seed replaces the count: turns made while nothing was reported.
        turns.unwrap(at(wrap(angle + 3.0 * LOOP))).unwrap();
        assert_eq!(turns.turns(), 1, "a gap of whole loops is invisible");
        let seeded = turns.seed(angle + 3.0 * LOOP).unwrap();
        assert!((seeded - (angle + 3.0 * LOOP)).abs() < 1e-9);
        assert_eq!(turns.turns(), 4);
    }

    #[test]
    fn a_count_the_report_does_not_loop_with_is_refused() {
        let mut turns = counter(MotorTravel::MultiTurn);
        // Firmware that saturates: the report stays at the edge while the motor is at 20 rad.
        turns.unwrap(at(POSITION_SPAN)).unwrap();
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
        turns.unwrap(at(1.0)).unwrap();
        assert!((turns.seed(1.0 + LOOP + 0.4).unwrap() - (1.0 + LOOP)).abs() < 1e-12);
    }
}
