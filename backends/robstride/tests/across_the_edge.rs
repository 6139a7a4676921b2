//! Counted joints tracking across the ±4π window's edges, whatever they command: a lift of 300 mm
//! on a 20 mm lead (15 motor turns, an edge every 80 mm from 40 mm) and a continuous spindle,
//! each declared three ways (position only, the servo's default gains standing in for the rest;
//! position and velocity; the whole MIT set), driven up through four edges and back, with and
//! without the velocity fed forward, slowly and at the joint's velocity limit, with a load
//! (gravity on the lift, a hanging weight on the spindle's drum) and without.
//!
//! Each run is measured against the same move under the joint's own law, `τ = Kp·(q* − q) +
//! Kd·(v* − v) + τ_ff` applied to the same simulated shaft with no window at all (what MuJoCo
//! does in joint space, and what the firmware does away from an edge): tracking, peak torque and
//! the torque of every cycle stay within a small margin of it; no command is clamped; the state
//! never jumps; no frame sends a target on the far side of the window from the motor's angle.
//! A failing run prints its plots (`PLOT_EVERY_RUN=1` prints every run's).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::f64::consts::{PI, TAU};

use common::plot::{Series, panel};
use common::{CLOCK, rig};
use robot_core::hardware::{Component, ServoGains};
use robot_core::transmission::{Transmission, motor_gain};
use robot_core::typed::RobotTypes;
use robot_core::{InterfaceKind, Mit, Values};
use robot_macros::robot;
use robstride_protocol::{Command, Request, RobstrideModel};
use robstride_sim::motor::{MotorModel, Shaft};

use robot_core::actuator::wrap;
use robstride_sim::SimActuator;
use robstride_sim::bus::NodeId;

/// The lift: 0..300 mm on an RS06 through a 20 mm lead, up to 0.15 m/s (47 rad/s at the motor,
/// under the RS06's 50), 1500 N.
macro_rules! lift {
    ($name:ident, [$($command:ident),*]) => {
        robot! {
            robot $name { update_rate: 200 Hz }
            bus base {}
            link base {}
            link carriage {
                inertial { mass: 40.0, com: [0, 0, 0], inertia: [0.1, 0, 0, 0.1, 0, 0.1] }
            }
            joint lift: prismatic {
                parent: base,
                child: carriage,
                axis: [0, 0, 1],
                limits { lower: 0, upper: 300 mm, velocity: 0.15, effort: 1500 },
                actuator { bus: base, can_id: 1, model: RS06, lead: 20 mm },
                command: [$($command),*],
                state: [position, velocity, effort],
            }
        }
    };
}

/// The spindle: a continuous joint on an RS06, reversed and half a radian off its zero, up to
/// 40 rad/s, 20 N·m.
macro_rules! spindle {
    ($name:ident, [$($command:ident),*]) => {
        robot! {
            robot $name { update_rate: 200 Hz }
            bus base {}
            link base {}
            link drum {}
            joint spin: continuous {
                parent: base,
                child: drum,
                axis: [0, 0, 1],
                limits { velocity: 40, effort: 20 },
                actuator { bus: base, can_id: 1, model: RS06, direction: -1, zero_offset: 0.5 },
                command: [$($command),*],
                state: [position, velocity, effort],
            }
        }
    };
}

mod lift_p {
    use super::*;
    lift!(LiftP, [position]);
}
mod lift_pv {
    use super::*;
    lift!(LiftPv, [position, velocity]);
}
mod lift_mit {
    use super::*;
    lift!(LiftMit, [position, velocity, effort, stiffness, damping]);
}
mod spindle_p {
    use super::*;
    spindle!(SpindleP, [position]);
}
mod spindle_pv {
    use super::*;
    spindle!(SpindlePv, [position, velocity]);
}
mod spindle_mit {
    use super::*;
    spindle!(SpindleMit, [position, velocity, effort, stiffness, damping]);
}

/// What a joint is driven through and carries.
#[derive(Debug, Clone, Copy)]
struct Plant {
    /// `lift` or `spin`.
    joint: &'static str,
    /// The ends of the move, joint units.
    from: f64,
    to: f64,
    /// The joint's velocity limit, joint units per second.
    top_speed: f64,
    /// The torque the load puts on the motor's shaft, N·m.
    load: f64,
    /// Stiffness and damping the whole-MIT declaration commands, joint units.
    gains: (f64, f64),
    /// How much worse a run may track than the law without a window, joint units: a few
    /// counts of the frame's angle.
    tracking_margin: f64,
    /// `mm` or `rad` for the printed figures, with its scale from joint units.
    unit: (&'static str, f64),
}

/// 0.02 m / 2π: metres of lift per radian of motor.
const LEAD_RATIO: f64 = 0.02 / TAU;

/// The lift from 10 mm to 290 mm and back, past the edges at 40, 120, 200 and 280 mm. Its load is
/// 40 kg hanging on the lead; its whole-MIT gains are 50 N·m/rad and 1 N·m·s/rad at the motor.
const LIFT: Plant = Plant {
    joint: "lift",
    from: 0.01,
    to: 0.29,
    top_speed: 0.15,
    load: -40.0 * 9.81 * LEAD_RATIO,
    gains: (
        50.0 / (LEAD_RATIO * LEAD_RATIO),
        1.0 / (LEAD_RATIO * LEAD_RATIO),
    ),
    tracking_margin: 0.05e-3,
    unit: ("mm", 1e3),
};

/// The spindle from 0 to 90 rad and back: the motor (reversed, zero at 0.5) passes −4π, −12π,
/// −20π and −28π. A weight on its drum pulls at 4 N·m; its whole-MIT gains are 20 and 1.
const SPINDLE: Plant = Plant {
    joint: "spin",
    from: 0.0,
    to: 90.0,
    top_speed: 40.0,
    load: 4.0,
    gains: (20.0, 1.0),
    tracking_margin: 0.01,
    unit: ("rad", 1.0),
};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Speed {
    /// A tenth of the joint's velocity limit at the peak.
    Slow,
    /// The joint's velocity limit at the peak.
    AtTheLimit,
}

#[derive(Debug, Clone, Copy)]
struct Case {
    /// Whether the velocity interface (where declared) carries the move's velocity, else 0.
    feed_forward: bool,
    speed: Speed,
    loaded: bool,
}

/// The move: a hold, a half-cosine from `from` to `to` peaking at `peak`, a hold, the same back,
/// a hold. Position and velocity at time `t`, and the move's whole duration.
struct Move {
    from: f64,
    to: f64,
    travel: f64,
}

const HOLD: f64 = 0.5;

impl Move {
    fn new(plant: &Plant, speed: Speed) -> Move {
        let peak = match speed {
            Speed::Slow => plant.top_speed * 0.1,
            Speed::AtTheLimit => plant.top_speed,
        };
        Move {
            from: plant.from,
            to: plant.to,
            // A half-cosine's peak speed is π/2 times its average.
            travel: PI / 2.0 * (plant.to - plant.from).abs() / peak,
        }
    }

    fn duration(&self) -> f64 {
        3.0 * HOLD + 2.0 * self.travel
    }

    fn at(&self, t: f64) -> (f64, f64) {
        let leg = |t: f64, a: f64, b: f64| {
            let s = (t / self.travel).clamp(0.0, 1.0);
            (
                a + (b - a) * (1.0 - (PI * s).cos()) / 2.0,
                (b - a) * PI / (2.0 * self.travel) * (PI * s).sin(),
            )
        };
        let up = HOLD;
        let down = 2.0 * HOLD + self.travel;
        if t < down {
            leg(t - up, self.from, self.to)
        } else {
            leg(t - down, self.to, self.from)
        }
    }
}

/// One run, cycle by cycle.
#[derive(Debug, Default)]
struct Trace {
    commanded: Vec<f64>,
    actual: Vec<f64>,
    reference: Vec<f64>,
    /// Each cycle's mean torque, N·m, on the bus and under the law without a window.
    torque: Vec<f64>,
    reference_torque: Vec<f64>,
    /// The largest torque at any instant, N·m, on the bus and under the law without a window.
    peak_torque: f64,
    reference_peak_torque: f64,
    /// The joint's state as read, and the actual joint position then.
    state_error: Vec<f64>,
    /// Per frame: the error the firmware's law starts from (the position sent less the motor's
    /// looped angle as the frame arrives), the joint law's error at the motor then (its target
    /// less its whole angle), and the stiffness sent.
    frames: Vec<(f64, f64, f64)>,
    turns: Vec<i64>,
    clamps: u64,
}

fn slot(layout: &robot_core::typed::Layout, kind: InterfaceKind) -> Option<usize> {
    layout.joint_slot(0, kind)
}

/// Runs `case` of `plant` on robot `R`, returning what it measured.
fn run<R: RobotTypes>(plant: &Plant, case: Case) -> Trace {
    let joint = &R::DESCRIPTION.joints[0];
    let actuator = joint.actuator.as_ref().unwrap();
    let transmission = Transmission::of(actuator);
    let model = RobstrideModel::RS06;
    let spec = model.spec();
    let mechanics = MotorModel {
        inertia: 0.01,
        viscous: 0.02,
        coulomb: 0.1,
        torque_limit: spec.torque,
        load: if case.loaded { plant.load } else { 0.0 },
    };
    let start = transmission.motor_position(plant.from).unwrap();
    let (sim, nodes, mut bus) =
        rig::<R>("base", None, [SimActuator::new(model, 1, mechanics, start)]);
    let node: NodeId = nodes[0];
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    let mut state = R::State::default();
    let mut command = R::Command::default();
    bus.read(CLOCK, &mut state).unwrap();
    command.as_mut_slice().fill(f64::NAN);
    bus.on_activate(&state, &mut command).unwrap();

    // The gains the law works with at the motor: the declared ones, else the servo's.
    let layout = &R::COMMAND_LAYOUT;
    let servo = ServoGains::default().for_joint(joint);
    let middle = (plant.from + plant.to) / 2.0;
    let j = transmission.ratio(middle).unwrap();
    let (stiffness, damping) = match slot(layout, InterfaceKind::Stiffness) {
        Some(_) => plant.gains,
        None => (servo.stiffness, servo.damping),
    };
    let (stiffness, damping) = (
        motor_gain(stiffness, j).min(spec.stiffness),
        motor_gain(damping, j).min(spec.damping),
    );
    let mut reference = Shaft {
        position: start,
        ..Shaft::default()
    };
    let joint_of = |motor: f64| transmission.joint_position(motor).unwrap();

    let motion = Move::new(plant, case.speed);
    let period = CLOCK.period.as_secs_f64();
    let cycles = (motion.duration() / period).round() as u32;
    let mut trace = Trace::default();
    for k in 1..=cycles {
        let (q, v) = motion.at(f64::from(k) * period);
        let v_sent = if case.feed_forward { v } else { 0.0 };
        let values = command.as_mut_slice();
        let mut set = |kind, value| {
            if let Some(s) = slot(layout, kind) {
                values[s] = value;
            }
        };
        set(InterfaceKind::Position, q);
        set(InterfaceKind::Velocity, v_sent);
        set(InterfaceKind::Effort, 0.0);
        set(InterfaceKind::Stiffness, plant.gains.0);
        set(InterfaceKind::Damping, plant.gains.1);
        // Position only: the velocity the servo holds is 0.
        let v_law = if slot(layout, InterfaceKind::Velocity).is_some() {
            v_sent
        } else {
            0.0
        };

        sim.take_sent();
        bus.write(CLOCK, &command).unwrap();
        let angle = sim
            .with_node(node, |m: &mut SimActuator| m.position())
            .unwrap();
        let law_error = transmission.motor_position(q).unwrap() - angle;
        for frame in sim.sent() {
            if let Command::Mit(mit) = Request::decode(&frame, model).unwrap().command {
                let mit = mit.mit();
                trace
                    .frames
                    .push((mit.position - wrap(angle), law_error, mit.stiffness));
            }
        }
        sim.advance(CLOCK.period);
        bus.read(CLOCK, &mut state).unwrap();

        // The same command under the joint's own law, on a shaft with no window.
        let at_motor = transmission
            .command_to_motor(
                &Mit {
                    position: q,
                    velocity: v_law,
                    effort: 0.0,
                    stiffness: 0.0,
                    damping: 0.0,
                },
                joint_of(reference.position),
            )
            .unwrap();
        let law = Mit {
            stiffness,
            damping,
            ..at_motor
        };
        let reference_applied = mechanics.run(&mut reference, period, |_| Some(law));

        let (position, applied) = sim
            .with_node(node, |m: &mut SimActuator| (m.position(), m.take_applied()))
            .unwrap();
        let actual = joint_of(position);
        let state_position = state.as_slice()[R::STATE_LAYOUT
            .joint_slot(0, InterfaceKind::Position)
            .unwrap()];
        trace.commanded.push(q);
        trace.actual.push(actual);
        trace.reference.push(joint_of(reference.position));
        trace.torque.push(applied.mean());
        trace.reference_torque.push(reference_applied.mean());
        trace.peak_torque = trace.peak_torque.max(applied.peak);
        trace.reference_peak_torque = trace.reference_peak_torque.max(reference_applied.peak);
        trace.state_error.push(state_position - actual);
        trace.turns.push(bus.turns(plant.joint).unwrap());
    }
    trace.clamps = bus.clamps();
    trace
}

fn largest(values: impl Iterator<Item = f64>) -> f64 {
    values.map(f64::abs).fold(0.0, f64::max)
}

/// The figures of one run, and its plots.
fn report(name: &str, plant: &Plant, trace: &Trace) -> (String, [f64; 5]) {
    let (unit, scale) = plant.unit;
    let tracking = largest(
        trace
            .commanded
            .iter()
            .zip(&trace.actual)
            .map(|(c, a)| c - a),
    );
    let reference_tracking = largest(
        trace
            .commanded
            .iter()
            .zip(&trace.reference)
            .map(|(c, a)| c - a),
    );
    let (torque, reference_torque) = (trace.peak_torque, trace.reference_peak_torque);
    let torque_gap = largest(
        trace
            .torque
            .iter()
            .zip(&trace.reference_torque)
            .map(|(a, b)| a - b),
    );
    let summary = format!(
        "{name}: tracking {:.3} {unit} (the law without a window: {:.3}), peak torque {torque:.3} \
         N·m ({reference_torque:.3}), a cycle's mean torque {torque_gap:.3} N·m from it at most, \
         clamps {}, loops {}..{}",
        tracking * scale,
        reference_tracking * scale,
        trace.clamps,
        trace.turns.iter().min().unwrap(),
        trace.turns.iter().max().unwrap(),
    );
    (
        summary,
        [
            tracking,
            reference_tracking,
            torque,
            reference_torque,
            torque_gap,
        ],
    )
}

fn plots(name: &str, plant: &Plant, trace: &Trace) -> String {
    let (unit, scale) = plant.unit;
    let seconds = trace.commanded.len() as f64 * CLOCK.period.as_secs_f64();
    let scaled = |v: &[f64]| v.iter().map(|x| x * scale).collect::<Vec<_>>();
    let error = |v: &[f64]| {
        trace
            .commanded
            .iter()
            .zip(v)
            .map(|(c, a)| (a - c) * scale)
            .collect::<Vec<_>>()
    };
    let (commanded, actual) = (scaled(&trace.commanded), scaled(&trace.actual));
    let (run_error, reference_error) = (error(&trace.actual), error(&trace.reference));
    format!(
        "{name}\n{}{}{}",
        panel(
            "position",
            unit,
            seconds,
            &[
                Series {
                    name: "commanded",
                    mark: '.',
                    values: &commanded
                },
                Series {
                    name: "measured",
                    mark: '#',
                    values: &actual
                },
            ]
        ),
        panel(
            "measured − commanded",
            unit,
            seconds,
            &[
                Series {
                    name: "the law without a window",
                    mark: 'o',
                    values: &reference_error
                },
                Series {
                    name: "on the bus",
                    mark: '#',
                    values: &run_error
                },
            ]
        ),
        panel(
            "motor torque, each cycle's mean",
            "N·m",
            seconds,
            &[
                Series {
                    name: "the law without a window",
                    mark: 'o',
                    values: &trace.reference_torque
                },
                Series {
                    name: "on the bus",
                    mark: '#',
                    values: &trace.torque
                },
            ]
        ),
    )
}

/// Every case of `plant` on robot `R` (declaring `interfaces`), each checked; the figures are
/// printed (`--nocapture`), a failure's plots in the panic.
fn every_case<R: RobotTypes>(interfaces: &str, plant: &Plant) {
    let has_velocity = R::COMMAND_LAYOUT
        .joint_slot(0, InterfaceKind::Velocity)
        .is_some();
    let mut failures = Vec::new();
    for speed in [Speed::Slow, Speed::AtTheLimit] {
        for loaded in [false, true] {
            for feed_forward in [false, true] {
                if feed_forward && !has_velocity {
                    continue;
                }
                let case = Case {
                    feed_forward,
                    speed,
                    loaded,
                };
                let name = format!(
                    "{} [{interfaces}], {:?}, {}, {}",
                    plant.joint,
                    speed,
                    if loaded { "loaded" } else { "unloaded" },
                    if feed_forward {
                        "velocity fed forward"
                    } else {
                        "no feed-forward"
                    }
                );
                let trace = run::<R>(plant, case);
                let (
                    summary,
                    [
                        tracking,
                        reference_tracking,
                        torque,
                        reference_torque,
                        torque_gap,
                    ],
                ) = report(&name, plant, &trace);
                eprintln!("{summary}");
                let mut wrong = Vec::new();
                if trace.clamps != 0 {
                    wrong.push(format!("{} commands clamped", trace.clamps));
                }
                if tracking > reference_tracking + plant.tracking_margin {
                    wrong.push("tracks worse than the law without a window".to_string());
                }
                // The peak: the law's own, to the frame's resolution (a count of the angle is
                // 3.8e-4 rad, of the stiffness 0.08 N·m/rad).
                if torque > reference_torque * 1.01 + 0.05 {
                    wrong.push("its torque peaks above the law without a window's".to_string());
                }
                // A cycle's mean: the host's spring is computed from a report a period old, so
                // where the law's spring and damping nearly cancel (a position servo lagging a
                // fast move) the cycles entering and leaving it stray a little; a law working 8π
                // away, or a clamped target, strays by the motor's whole torque.
                if torque_gap > 0.15 * reference_torque + 0.1 {
                    wrong.push("a cycle's torque strays from the law without a window".to_string());
                }
                let state_jump = largest(trace.state_error.iter().copied());
                // The state is the reply to the cycle's command: a period behind the motor.
                if state_jump > plant.top_speed * CLOCK.period.as_secs_f64() * 1.1 + 1e-4 {
                    wrong.push(format!("the state strays {state_jump} from the joint"));
                }
                let loops = trace.turns.iter().max().unwrap() - trace.turns.iter().min().unwrap();
                if loops < 2 {
                    wrong.push(format!(
                        "the move crossed {loops} edges, not the four it should"
                    ));
                }
                // With the firmware's spring, the error it starts from is the joint law's (to a
                // count of the frame's angle, and the motor's travel while the frame is in
                // flight: none here). With the host's (stiffness 0), the position sent is the
                // angle the motor is predicted at: near it on the circle, perhaps as the other
                // edge, never across the window.
                if let Some((firmware, law, stiffness)) =
                    trace.frames.iter().find(|(firmware, law, stiffness)| {
                        if *stiffness > 0.0 {
                            (firmware - law).abs() > 1e-3
                        } else {
                            wrap(*firmware).abs() > 0.5
                        }
                    })
                {
                    wrong.push(format!(
                        "a frame's target {firmware:.4} rad from the motor's angle where the \
                         joint's law is {law:.4} rad from it (stiffness {stiffness})"
                    ));
                }
                if std::env::var_os("PLOT_EVERY_RUN").is_some() {
                    eprintln!("{}", plots(&name, plant, &trace));
                }
                if !wrong.is_empty() {
                    failures.push(format!(
                        "{summary}\n  {}\n{}",
                        wrong.join("\n  "),
                        plots(&name, plant, &trace)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_position_only_lift_tracks_across_the_edges() {
    every_case::<lift_p::LiftP>("position", &LIFT);
}

#[test]
fn a_lift_commanding_position_and_velocity_tracks_across_the_edges() {
    every_case::<lift_pv::LiftPv>("position, velocity", &LIFT);
}

#[test]
fn a_lift_commanding_the_whole_mit_set_tracks_across_the_edges() {
    every_case::<lift_mit::LiftMit>("MIT", &LIFT);
}

#[test]
fn a_position_only_spindle_tracks_across_the_edges() {
    every_case::<spindle_p::SpindleP>("position", &SPINDLE);
}

#[test]
fn a_spindle_commanding_position_and_velocity_tracks_across_the_edges() {
    every_case::<spindle_pv::SpindlePv>("position, velocity", &SPINDLE);
}

#[test]
fn a_spindle_commanding_the_whole_mit_set_tracks_across_the_edges() {
    every_case::<spindle_mit::SpindleMit>("MIT", &SPINDLE);
}
