//! A lift of 300 mm on a 40 mm lead: 7.5 turns, 47.1 rad of motor travel, far past the MIT
//! frame's ±4π. The simulated motor reports its angle looping within the window, as newer firmware
//! does, and counts its own turns in `mechPos`; the component seeds the joint's count from that
//! count at configure and at activation, counts the loops of the report from there, and sends
//! targets relative to the report (`backend_robstride::turns`). The lift runs its whole travel up
//! and back from a start at the bottom, the middle and the top; a count the component cannot
//! trust switches nothing on.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::f64::consts::{PI, TAU};

use backend_robstride::component::RobstrideBus;
use common::{CLOCK, rig};
use robot_core::actuator::POSITION_SPAN;
use robot_core::hardware::{Component, ErrorKind};
use robot_core::model::Dynamics;
use robot_core::transmission::motor_gain;
use robot_macros::robot;
use robstride_protocol::{Command, Request, RobstrideModel};
use robstride_sim::motor::MotorModel;
use robstride_sim::{AngleReport, Failure, SimActuator, SimBus};

robot! {
    robot Lift { update_rate: 200 Hz }
    bus base {}
    link base {}
    link carriage {
        inertial { mass: 5.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    /// A vertical lift on a lead screw, position-commanded with a velocity feed-forward: the
    /// servo's default gains (`robot_core::hardware::ServoGains`).
    joint lift: prismatic {
        parent: base,
        child: carriage,
        axis: [0, 0, 1],
        limits { lower: 0, upper: 300 mm, velocity: 0.2, effort: 500 },
        // An RS02's rotor, about 0.001 kg·m² at its output, is 0.001 / (0.04 / 2π)² ≈ 25 kg at
        // the carriage.
        dynamics { damping: 20, friction: 10, armature: 25 },
        actuator { bus: base, can_id: 1, model: RS02, lead: 40 mm },
        command: [position, velocity],
        state: [position, velocity, effort],
    }
}

const LEAD: f64 = 0.04;
/// The lift's ends, m.
const BOTTOM: f64 = 0.0;
const TOP: f64 = 0.3;
const MIDDLE: f64 = 0.15;

/// The motor angle of lift height `q` m: a turn per 40 mm.
fn motor_angle(q: f64) -> f64 {
    q / LEAD * TAU
}

/// The lift's motor at rest at height `q`, carrying the joint's friction and damping through the
/// lead, as `robstride_sim::robot` refers them.
fn motor_at(q: f64) -> SimActuator {
    let r = LEAD / TAU;
    let dynamics = Dynamics {
        damping: motor_gain(20.0, r),
        friction: 10.0 * r,
        armature: motor_gain(25.0, r),
    };
    SimActuator::new(
        RobstrideModel::RS02,
        1,
        MotorModel::new(RobstrideModel::RS02, Some(&dynamics)),
        motor_angle(q),
    )
}

struct Rig {
    sim: SimBus,
    motor: robstride_sim::NodeId,
    bus: RobstrideBus<Lift>,
    state: LiftState,
    command: LiftCommand,
}

impl Rig {
    /// Configured and read once, not activated.
    fn configured(motor: SimActuator) -> Rig {
        let (sim, nodes, mut bus) = rig::<Lift>("base", None, [motor]);
        bus.on_init().unwrap();
        bus.on_configure().unwrap();
        let mut state = LiftState::default();
        bus.read(CLOCK, &mut state).unwrap();
        Rig {
            sim,
            motor: nodes[0],
            bus,
            state,
            command: LiftCommand::default(),
        }
    }

    /// Activated where the lift stands: its command holds the measured height.
    fn activate(&mut self) -> Result<(), robot_core::hardware::HardwareError> {
        self.command.lift.position = f64::NAN;
        self.command.lift.velocity = f64::NAN;
        self.bus.on_activate(&self.state, &mut self.command)
    }

    fn cycle(&mut self) {
        self.bus.write(CLOCK, &self.command).unwrap();
        self.sim.advance(CLOCK.period);
        self.bus.read(CLOCK, &mut self.state).unwrap();
    }

    /// The lift's height where the simulated motor is, over any number of turns.
    fn height(&self) -> f64 {
        self.with_motor(|m| m.position()) / TAU * LEAD
    }

    fn with_motor<T>(&self, f: impl FnOnce(&mut SimActuator) -> T) -> T {
        self.sim.with_node(self.motor, f).unwrap()
    }

    fn turns(&self) -> i64 {
        self.bus.turns("lift").unwrap()
    }
}

/// What a run measured.
#[derive(Debug, Default)]
struct Run {
    /// Largest |commanded − actual| height over the run, m.
    tracking: f64,
    /// Largest |reported − actual| height over the run, m: the state is the reply to the last
    /// cycle's command, one period old.
    state_lag: f64,
    /// Largest torque the motor applied, N·m.
    largest_torque: f64,
    /// Largest |position| sent to the motor, rad.
    largest_sent: f64,
    /// Lowest and highest height reached, m.
    lowest: f64,
    highest: f64,
    /// Turn count (8π loops) at the top.
    turns_at_top: i64,
}

/// Drives the lift from where it stands through `waypoints` on half-cosine moves at 0.1 m/s on
/// average (0.157 m/s at most, under the joint's 0.2), holding 0.5 s at each.
fn drive(rig: &mut Rig, waypoints: &[f64]) -> Run {
    let period = CLOCK.period.as_secs_f64();
    let mut run = Run {
        lowest: f64::INFINITY,
        highest: f64::NEG_INFINITY,
        ..Run::default()
    };
    let mut from = rig.state.lift.position;
    for &to in waypoints {
        let duration = ((to - from).abs() / 0.1).max(0.5);
        let moving = (duration / period).round() as u32;
        let holding = (0.5 / period).round() as u32;
        for k in 1..=moving + holding {
            let s = (f64::from(k.min(moving)) / f64::from(moving)).min(1.0);
            let (position, velocity) = if k <= moving {
                (
                    from + (to - from) * (1.0 - (PI * s).cos()) / 2.0,
                    (to - from) * PI / (2.0 * duration) * (PI * s).sin(),
                )
            } else {
                (to, 0.0)
            };
            rig.command.lift.position = position;
            rig.command.lift.velocity = velocity;
            rig.sim.take_sent();
            rig.cycle();
            let sent = rig
                .sim
                .sent()
                .iter()
                .filter_map(
                    |f| match Request::decode(f, RobstrideModel::RS02).ok()?.command {
                        Command::Mit(mit) => Some(mit.mit().position.abs()),
                        _ => None,
                    },
                )
                .fold(0.0, f64::max);
            let height = rig.height();
            run.largest_sent = run.largest_sent.max(sent);
            run.tracking = run.tracking.max((position - height).abs());
            // The state read now is the motor's answer to this cycle's command, sent before it
            // moved: one period behind the motor.
            let lag = (rig.state.lift.position - height).abs();
            run.largest_torque = run
                .largest_torque
                .max(rig.with_motor(|m| m.shaft().torque.abs()));
            run.state_lag = run.state_lag.max(lag);
            run.lowest = run.lowest.min(height);
            run.highest = run.highest.max(height);
            if (height - TOP).abs() < 1e-4 {
                run.turns_at_top = rig.turns();
            }
        }
        from = to;
    }
    run
}

/// The checks every whole run keeps: it reached both ends, tracked its command, never read a
/// jump, sent nothing outside the window, and clamped nothing. Prints the figures
/// (`--nocapture`).
fn assert_whole_run(start: &str, rig: &Rig, run: &Run) {
    eprintln!(
        "from the {start}: tracking {:.3} mm, state lag {:.3} mm, torque {:.2} N·m at most, \
         {} loops of 8π counted at the top, motor {:.2} rad ({:.2} turns) at the top",
        run.tracking * 1e3,
        run.state_lag * 1e3,
        run.largest_torque,
        run.turns_at_top,
        motor_angle(run.highest),
        run.highest / LEAD
    );
    assert!(run.lowest < BOTTOM + 1e-4, "{run:?}");
    assert!(run.highest > TOP - 1e-4, "{run:?}");
    assert!(
        run.highest < TOP + 1e-3 && run.lowest > BOTTOM - 1e-3,
        "{run:?}"
    );
    // A servo of the default gains (0.1 motor rad of error, 0.64 mm, asks for the whole effort)
    // with the velocity fed forward.
    assert!(run.tracking < 1e-3, "tracking {:.3} mm", run.tracking * 1e3);
    // At 0.157 m/s a period is 0.8 mm: the state is never a loop (8π, 160 mm) off.
    assert!(
        run.state_lag < 1.5e-3,
        "state lag {:.3} mm",
        run.state_lag * 1e3
    );
    assert!(run.largest_sent <= POSITION_SPAN + 1e-3, "{run:?}");
    // Passing the window's edge (at 80 and 240 mm) never takes the joint's whole effort, 500 N
    // (3.18 N·m through the lead), let alone the motor's 17 N·m (a law 8π off for a period).
    assert!(
        run.largest_torque < 500.0 * LEAD / TAU,
        "{:.2} N·m",
        run.largest_torque
    );
    assert_eq!(rig.bus.clamps(), 0, "targets past the window are no clamps");
    // 47.1 rad at the top: its report looped twice past +4π (at 12.6 and 37.7 rad).
    assert_eq!(run.turns_at_top, 2, "{run:?}");
}

#[test]
fn from_the_bottom_the_lift_runs_its_whole_travel_up_and_back() {
    let mut rig = Rig::configured(motor_at(BOTTOM));
    assert!(rig.state.lift.position.abs() < 1e-4);
    rig.activate().unwrap();
    let run = drive(&mut rig, &[TOP, BOTTOM]);
    assert_whole_run("bottom", &rig, &run);
    assert_eq!(
        rig.turns(),
        0,
        "back at the bottom, the report back in its first loop"
    );
    assert!((rig.state.lift.position - BOTTOM).abs() < 2e-4);
}

#[test]
fn from_the_middle_the_count_is_the_motors_not_the_reports() {
    // 150 mm is 23.6 rad, which the motor reports as 23.6 − 8π = −1.57 rad: −10 mm from the
    // report alone, below the range.
    let mut rig = Rig::configured(motor_at(MIDDLE));
    assert!(
        (rig.state.lift.position - MIDDLE).abs() < 1e-4,
        "configure seeds the count: {} m",
        rig.state.lift.position
    );
    assert_eq!(rig.turns(), 1);
    rig.activate().unwrap();
    // Enabling holds where it stands.
    for _ in 0..100 {
        rig.cycle();
    }
    assert!((rig.height() - MIDDLE).abs() < 1e-4, "{}", rig.height());
    let run = drive(&mut rig, &[TOP, BOTTOM, MIDDLE]);
    assert_whole_run("middle", &rig, &run);
    assert!((rig.state.lift.position - MIDDLE).abs() < 2e-4);
}

#[test]
fn from_the_top_the_lift_runs_down_and_back() {
    // 300 mm is 47.1 rad, reported as 47.1 − 16π = −3.14: −20 mm from the report alone.
    let mut rig = Rig::configured(motor_at(TOP));
    assert!((rig.state.lift.position - TOP).abs() < 1e-4);
    assert_eq!(rig.turns(), 2);
    rig.activate().unwrap();
    let run = drive(&mut rig, &[BOTTOM, TOP]);
    assert_whole_run("top", &rig, &run);
    assert!((rig.state.lift.position - TOP).abs() < 2e-4);
}

#[test]
fn turns_made_while_the_bus_was_inactive_are_counted_at_activation() {
    let mut rig = Rig::configured(motor_at(BOTTOM));
    // Cranked up by hand to 200 mm (31.4 rad, five turns) while nothing was asked: the report
    // alone would put it at 40 mm (31.4 − 8π rad).
    rig.with_motor(|m| m.turn_by_hand(motor_angle(0.2)));
    rig.activate().unwrap();
    assert_eq!(rig.turns(), 1);
    for _ in 0..100 {
        rig.cycle();
    }
    assert!(
        (rig.state.lift.position - 0.2).abs() < 1e-4,
        "{}",
        rig.state.lift.position
    );
    assert!(
        (rig.height() - 0.2).abs() < 1e-4,
        "held where it stands: {}",
        rig.height()
    );
}

#[test]
fn held_where_its_motor_sits_on_the_windows_edge_the_lift_stays_put() {
    // 80 mm is 4π: the motor's report flips between +4π and −4π as it settles.
    let edge = 0.08;
    let mut rig = Rig::configured(motor_at(edge - 0.002));
    rig.activate().unwrap();
    let mut largest_torque: f64 = 0.0;
    for k in 0..800 {
        rig.command.lift.position = edge;
        rig.command.lift.velocity = 0.0;
        rig.cycle();
        if k > 200 {
            assert!(
                (rig.height() - edge).abs() < 1e-4,
                "cycle {k}: {}",
                rig.height()
            );
            largest_torque = largest_torque.max(rig.with_motor(|m| m.shaft().torque.abs()));
        }
    }
    assert!(largest_torque < 0.2, "{largest_torque} N·m");
    assert!((rig.state.lift.position - edge).abs() < 1e-4);
}

#[test]
fn the_guard_holds_a_target_past_the_top_at_the_top() {
    let mut rig = Rig::configured(motor_at(0.29));
    rig.activate().unwrap();
    for _ in 0..400 {
        rig.command.lift.position = 0.35;
        rig.command.lift.velocity = 0.0;
        rig.cycle();
    }
    assert!((rig.height() - TOP).abs() < 2e-4, "{}", rig.height());
    assert!(
        rig.bus.clamps() >= 400,
        "every cycle's target clamped, in joint space"
    );
}

#[test]
fn on_firmware_that_saturates_the_lift_stops_at_the_windows_edge() {
    // From the bottom, inside the window, report and count agree: nothing tells this firmware
    // apart until the motor reaches 4π (80 mm) and its report stays there while it turns on.
    let mut rig = Rig::configured(motor_at(BOTTOM).with_angle_report(AngleReport::Saturating));
    rig.activate().unwrap();
    let period = CLOCK.period.as_secs_f64();
    let error = (1..=2000)
        .find_map(|k| {
            // Up at 0.1 m/s, the velocity fed forward.
            rig.command.lift.position = (f64::from(k) * period * 0.1).min(TOP);
            rig.command.lift.velocity = 0.1;
            rig.bus.write(CLOCK, &rig.command).unwrap();
            rig.sim.advance(CLOCK.period);
            rig.bus.read(CLOCK, &mut rig.state).err()
        })
        .expect("the run ends");
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert!(
        error.message().starts_with(
            "joint lift (bus base, id 1) reports its motor's angle held at the ±4π window's edge \
             (12.566 rad)"
        ),
        "{error}"
    );
    // Seen within a cycle or two of passing the edge at 0.1 m/s (0.5 mm a cycle).
    let past = rig.height() - 0.08;
    assert!((0.0..1.5e-3).contains(&past), "{past} m past the edge");
    // The loop then switches the bus off.
    rig.bus.on_deactivate().unwrap();
    assert!(!rig.with_motor(|m| m.enabled()));
}

/// Configures the lift on `motor`, which must fail before anything is switched on; returns the
/// error.
fn refused_at_configure(motor: SimActuator) -> robot_core::hardware::HardwareError {
    let (sim, nodes, mut bus) = rig::<Lift>("base", None, [motor]);
    bus.on_init().unwrap();
    let error = bus.on_configure().unwrap_err();
    assert!(
        sim.sent()
            .iter()
            .all(|f| (f.extended_id().unwrap() >> 24) as u8 != 3),
        "no enable went out"
    );
    assert!(
        !sim.with_node(nodes[0], |m: &mut SimActuator| m.enabled())
            .unwrap()
    );
    error
}

#[test]
fn firmware_that_saturates_its_report_is_refused_with_the_reason() {
    // At 150 mm the motor counts 23.6 rad but reports the window's edge, 12.6.
    let error = refused_at_configure(motor_at(MIDDLE).with_angle_report(AngleReport::Saturating));
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert!(
        error.message().starts_with(
            "joint lift (id 1): it reports 12.566 rad but counts 23.562 rad, which is not that \
             angle looped by whole 8π: firmware that saturates its report"
        ) && error
            .message()
            .contains("nothing on bus base was switched on"),
        "{error}"
    );
}

#[test]
fn a_turn_count_that_does_not_answer_is_refused_naming_the_joint() {
    // Configure's stop, the watchdog's write and its read-back are answered; mechPos is not.
    let mut motor = motor_at(MIDDLE);
    motor.fail(Some(Failure::MissingRepliesAfter {
        answered: 3,
        missing: 1,
    }));
    let error = refused_at_configure(motor);
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert!(
        error.message().contains(
            "no reply to the read of the motor's turn count (mechPos, 0x7019) within 50 ms from \
             lift (bus base, id 1)"
        ),
        "{error}"
    );
}

#[test]
fn a_count_lost_to_a_power_cycle_that_reads_below_the_range_switches_nothing_on() {
    // Powered off and on at 188 mm (4.7 turns) with zero_sta 1: the motor counts from −π..π,
    // so it reads −0.3 turns, −12 mm; a quarter turn (10 mm) past a limit is the most allowed.
    let mut motor = motor_at(0.188);
    motor.power_cycle(1);
    let mut rig = Rig::configured(motor);
    assert!(
        (rig.state.lift.position + 0.012).abs() < 1e-3,
        "{}",
        rig.state.lift.position
    );
    rig.sim.take_sent();
    let error = rig.activate().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfLimits);
    assert!(
        error
            .message()
            .contains("joint lift (id 1) reports motor angle -1.885 rad")
            && error
                .message()
                .contains("as the motor counts its turns (mechPos, 0x7019, ")
            && error
                .message()
                .contains("nothing on bus base was switched on"),
        "{error}"
    );
    assert!(!rig.with_motor(|m| m.enabled()));
    assert!(
        rig.sim
            .take_sent()
            .iter()
            .all(|f| matches!((f.extended_id().unwrap() >> 24) as u8, 4 | 17 | 18)),
        "only stops, the watchdog and the count were asked"
    );
}
