//! Enabling that fails half-way: one motor does not answer the enable. The component stops every
//! motor again before it reports; when that stop goes unanswered too, some motors may still be
//! enabled, so the error says so (`possibly_live`), the system holds the bus active, and the loop
//! switches it off with its retries: the motors end disabled and every failure is reported.
//!
//! Enabling that must not start: a motor that reports its angle a whole turn off (powered on
//! with `zero_sta` 0, its angle counted in 0..2π) would be driven a turn towards where it
//! believes its joint's range is. Nothing on its bus is switched on.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::f64::consts::TAU;

use common::pair::Pair;
use common::{CLOCK, rig, rs02};
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, Lifecycle, Recovery, System};
use robot_core::typed::RobotTypes;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::motor::MotorModel;
use robstride_sim::{Failure, SimActuator};

struct Hold;

impl<R: robot_core::typed::RobotTypes> Controller<R> for Hold {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

/// The loop over the pair, configured, with the elbow's next `missing` replies lost.
fn configured(missing: u32) -> (SimBus, Vec<NodeId>, ControlLoop<Pair, Hold>) {
    let (sim, nodes, control_loop) = configured_with(rs02(2, 0.0));
    // Activation first arms the watchdog again (a write and its read-back, both answered),
    // then enables.
    sim.with_node(nodes[1], |m: &mut SimActuator| {
        m.fail(Some(Failure::MissingRepliesAfter {
            answered: 2,
            missing,
        }))
    });
    sim.take_sent(); // configure's stops and watchdog writes
    (sim, nodes, control_loop)
}

/// The loop over the pair, configured, the shoulder at its zero and `elbow` the elbow's motor
/// (its joint's limits are ±2 rad, so 0.4 rad of margin either side).
fn configured_with(elbow: SimActuator) -> (SimBus, Vec<NodeId>, ControlLoop<Pair, Hold>) {
    let (sim, nodes, bus) = rig::<Pair>("arm", None, [rs02(1, 0.5), elbow]);
    let components: Vec<Box<dyn Component<Pair>>> = vec![Box::new(bus)];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Hold, None);
    control_loop.configure().unwrap();
    (sim, nodes, control_loop)
}

/// The elbow's motor resting at `angle` rad, powered on with `zero_sta` as given.
fn elbow(angle: f64, zero_sta: u8) -> SimActuator {
    let mut motor = rs02(2, angle);
    motor.power_cycle(zero_sta);
    motor
}

/// Whether no frame sent was an enable (type 3) or an operation-control command (type 1): only
/// stops and the watchdog's write and read-back.
fn nothing_switched_on(sim: &SimBus) -> bool {
    sim.take_sent()
        .iter()
        .all(|f| matches!((f.extended_id().unwrap() >> 24) as u8, 4 | 17 | 18))
}

/// Activates `control_loop`, which must be refused for a joint beyond its limits before
/// anything on the bus was switched on; returns the message.
fn refused<R: RobotTypes>(
    control_loop: &mut ControlLoop<R, Hold>,
    sim: &SimBus,
    nodes: &[NodeId],
) -> String {
    sim.take_sent();
    let Err(Fault::Hardware(error)) = control_loop.activate(CLOCK) else {
        panic!("enabling is refused")
    };
    assert_eq!(error.kind(), ErrorKind::OutOfLimits, "{error}");
    assert!(!error.is_possibly_live(), "nothing was enabled: {error}");
    assert!(enabled(sim, nodes).iter().all(|on| !on));
    assert!(nothing_switched_on(sim), "not one enable went out");
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    error.message().to_owned()
}

fn enabled(sim: &SimBus, nodes: &[NodeId]) -> Vec<bool> {
    nodes
        .iter()
        .map(|&n| sim.with_node(n, |m: &mut SimActuator| m.enabled()).unwrap())
        .collect()
}

#[test]
fn an_unanswered_enable_is_undone_before_it_is_reported() {
    // The elbow misses the enable's reply only: the stop that follows is answered.
    let (sim, nodes, mut control_loop) = configured(1);
    let Err(Fault::Hardware(error)) = control_loop.activate(CLOCK) else {
        panic!("enabling fails")
    };
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert!(!error.is_possibly_live(), "{error}");
    assert_eq!(enabled(&sim, &nodes), [false, false]);
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert!(control_loop.torque_off_failures().is_empty());
}

#[test]
fn an_enable_that_cannot_be_undone_keeps_the_bus_active_until_it_is_switched_off() {
    // The elbow misses the enable's reply, the component's stop after it, the system's roll-back
    // and the loop's first retry: the loop's second retry gets through.
    let (sim, nodes, mut control_loop) = configured(4);
    let Err(Fault::Hardware(error)) = control_loop.activate(CLOCK) else {
        panic!("enabling fails")
    };
    assert!(error.is_possibly_live(), "{error}");
    assert!(error.message().contains("no reply to enable"), "{error:#}");
    // The component's own stop failed, and so did the system's roll-back: each is a link of
    // the error's aftermath, not text in its message.
    let aftermath: Vec<(Recovery, &str)> = error
        .aftermath()
        .map(|a| (a.recovery(), a.failure().message()))
        .collect();
    assert_eq!(aftermath.len(), 2, "{error:#}");
    assert!(
        aftermath.iter().all(|(recovery, message)| {
            *recovery == Recovery::SwitchingOffAgain && message.contains("no reply to a stop")
        }),
        "{error:#}"
    );
    let retries = control_loop.torque_off_failures();
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(
        retries[0].message().contains("no reply to a stop"),
        "{retries:?}"
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert_eq!(enabled(&sim, &nodes), [false, false]);
    // Nothing but the watchdog's round trip, enables and stops went out: no command reached
    // a motor.
    let sent = sim.take_sent();
    assert!(
        sent.iter()
            .all(|f| matches!((f.extended_id().unwrap() >> 24) as u8, 3 | 4 | 17 | 18)),
        "{sent:?}"
    );
}

#[test]
fn a_motor_a_whole_turn_off_is_not_switched_on_and_neither_is_its_bus() {
    // The elbow rests at -0.5 rad; powered on with zero_sta 0 it reports 2π - 0.5.
    let (sim, nodes, mut control_loop) = configured_with(elbow(-0.5, 0));
    control_loop.cycle(CLOCK).unwrap();
    let read = control_loop.state().elbow.position;
    assert!((read - (TAU - 0.5)).abs() < 1e-3, "{read}");

    let message = refused(&mut control_loop, &sim, &nodes);
    assert!(
        message.starts_with(
            "joint elbow (id 2) reports motor angle 5.783 rad (5.783 rad for the joint), 3.783 \
             rad beyond the -2.000..2.000 rad its limits [-2, 2] rad span: nothing on bus arm \
             was switched on."
        ),
        "{message}"
    );
    assert!(message.contains("zero_sta 1"), "{message}");
    assert!(message.contains("robot can set-zero"), "{message}");

    // Powered on with zero_sta 1 (-π..π), the same pose reads -0.5 and is switched on.
    let (sim, nodes, mut control_loop) = configured_with(elbow(-0.5, 1));
    control_loop.cycle(CLOCK).unwrap();
    assert!((control_loop.state().elbow.position + 0.5).abs() < 1e-3);
    control_loop.activate(CLOCK).unwrap();
    assert_eq!(enabled(&sim, &nodes), [true, true]);
    control_loop.deactivate().unwrap();
}

#[test]
fn a_joint_resting_a_little_past_its_limit_is_switched_on_one_far_past_is_not() {
    // 0.3 rad past the elbow's upper limit of 2: within the margin, 10 % of its 4 rad.
    let (sim, nodes, mut control_loop) = configured_with(rs02(2, 2.3));
    control_loop.cycle(CLOCK).unwrap();
    control_loop.activate(CLOCK).unwrap();
    assert_eq!(enabled(&sim, &nodes), [true, true]);
    control_loop.deactivate().unwrap();

    let (sim, nodes, mut control_loop) = configured_with(rs02(2, 2.5));
    control_loop.cycle(CLOCK).unwrap();
    let message = refused(&mut control_loop, &sim, &nodes);
    assert!(
        message.contains("0.500 rad beyond the -2.000..2.000 rad"),
        "{message}"
    );
}

/// One ankle driven through lite_biped's four-bar.
mod foot {
    use robot_macros::robot;

    robot! {
        robot Foot { update_rate: 200 Hz }
        bus leg {}
        link shin {}
        link foot {}
        joint ankle_pitch: revolute {
            parent: shin,
            child: foot,
            axis: [0, 0, 1],
            limits { lower: -0.523599, upper: 0.872665, velocity: 30, effort: 12.8 },
            actuator {
                bus: leg,
                can_id: 36,
                model: RS00,
                four_bar {
                    ground: [-12 mm, 160 mm],
                    input_crank: 40 mm,
                    coupler: 150 mm,
                    output_crank: 40 mm,
                    alpha_zero: 338.82213 deg,
                    sign: 1,
                    branch: counter_clockwise,
                },
            },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }
}

#[test]
fn through_a_four_bar_a_motor_a_whole_turn_off_is_refused_though_its_joint_reads_right() {
    use foot::{Foot, FootState};

    let joint = &Foot::DESCRIPTION.joints[0];
    let four_bar = joint.actuator.as_ref().and_then(|a| a.four_bar).unwrap();
    let q = -0.3;
    let theta = four_bar.joint_to_motor(q).unwrap();
    // The crank at the same pose, counted a turn up: the linkage gives the joint the same angle.
    let motor = SimActuator::new(
        robstride_protocol::RobstrideModel::RS00,
        36,
        MotorModel::new(robot_core::RobstrideModel::RS00, None),
        theta + TAU,
    );
    let (sim, nodes, bus) = rig::<Foot>("leg", None, [motor]);
    let components: Vec<Box<dyn Component<Foot>>> = vec![Box::new(bus)];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Hold, None);
    control_loop.configure().unwrap();
    control_loop.cycle(CLOCK).unwrap();
    let read: &FootState = control_loop.state();
    assert!((read.ankle_pitch.position - q).abs() < 1e-3, "{read:?}");
    let message = refused(&mut control_loop, &sim, &nodes);
    assert!(
        message.contains("(-0.300 rad for the joint), 5.082 rad beyond the -0.491..0.915 rad"),
        "{message}"
    );
}

#[test]
fn a_motor_power_cycled_while_the_bus_is_inactive_is_judged_by_its_angle_now() {
    // Configured with the elbow at -0.5; then its power is cut and restored (an e-stop) while
    // the bus is inactive, and with zero_sta 0 it reports 2π - 0.5. An inactive bus asks
    // nothing, so only activation's own round trip can see it.
    let (sim, nodes, mut control_loop) = configured_with(rs02(2, -0.5));
    control_loop.cycle(CLOCK).unwrap();
    sim.with_node(nodes[1], |m: &mut SimActuator| m.power_cycle(0));
    control_loop.cycle(CLOCK).unwrap();
    let message = refused(&mut control_loop, &sim, &nodes);
    assert!(
        message.starts_with("joint elbow (id 2) reports motor angle 5.783 rad"),
        "{message}"
    );
}
