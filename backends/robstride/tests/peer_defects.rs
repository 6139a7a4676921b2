//! The defects found by running the peer `robstride` crate (0.3.6), each shown not to happen
//! here, through the component on a simulated bus:
//!
//! * it encodes a NaN field as 0x0000, on the torque field a full negative torque command;
//! * it reports position wrapped into [−π, π), so commanding the reported value can jump a turn;
//! * it never matches replies to requests, so another motor's reply is taken as the asked one's.
//!
//! (Its serial transport keeping only the first frame of a burst has no counterpart: every frame
//! a read finds is taken, `lite_biped.rs` reads 7 replies a cycle per bus; its run-mode write
//! sending the wrong byte is `robstride-protocol`'s `sw_run_mode_is_not_read_as_reset`.)
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_robstride::component::RobstrideBus;
use common::{CLOCK, last_mit, rig, rs02};
use robot_core::hardware::{Component, ErrorKind};
use robot_macros::robot;
use robstride_protocol::RobstrideModel;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::{Failure, SimActuator};

robot! {
    robot Turntable { update_rate: 200 Hz }
    bus base {}
    link base {}
    link plate {}
    /// Turns without end: the position is unbounded.
    joint turn: continuous {
        parent: base,
        child: plate,
        axis: [0, 0, 1],
        limits { velocity: 10, effort: 10 },
        actuator { bus: base, can_id: 5, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
}

/// The component, configured and active, on a bus whose one motor stands at `angle` rad.
type Active = (
    SimBus,
    NodeId,
    RobstrideBus<Turntable>,
    TurntableState,
    TurntableCommand,
);

fn active(angle: f64) -> Active {
    let (sim, nodes, mut bus) = rig::<Turntable>("base", None, [rs02(5, angle)]);
    let (mut state, mut command) = (TurntableState::default(), TurntableCommand::default());
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    // Configure's stop drew a feedback already; a write-less read finds nothing new.
    bus.read(CLOCK, &mut state).unwrap();
    bus.on_activate(&state, &mut command).unwrap();
    sim.take_sent();
    (sim, nodes[0], bus, state, command)
}

#[test]
fn a_nan_torque_is_the_last_torque_never_a_full_negative_one() {
    let (sim, _, mut bus, mut state, mut command) = active(0.0);
    command.turn.position = 0.0;
    command.turn.velocity = 0.0;
    command.turn.effort = 1.5;
    command.turn.stiffness = 10.0;
    command.turn.damping = 1.0;
    bus.write(CLOCK, &command).unwrap();
    bus.read(CLOCK, &mut state).unwrap();
    command.turn.effort = f64::NAN;
    bus.write(CLOCK, &command).unwrap();
    let torque = last_mit(&sim).effort;
    let lsb = RobstrideModel::RS02.scaling().torque.lsb();
    assert!(
        (torque - 1.5).abs() <= f64::from(lsb),
        "sent {torque} N·m, not -17"
    );
}

#[test]
fn a_position_beyond_half_a_turn_is_reported_as_it_is_not_wrapped() {
    let (sim, _, mut bus, mut state, mut command) = active(4.0);
    // A write draws the motor's feedback; the state then holds its angle, 4 rad, not 4 − 2π.
    command.turn.position = 4.0;
    command.turn.velocity = 0.0;
    command.turn.effort = 0.0;
    command.turn.stiffness = 0.0;
    command.turn.damping = 0.0;
    bus.write(CLOCK, &command).unwrap();
    bus.read(CLOCK, &mut state).unwrap();
    assert!(
        (state.turn.position - 4.0).abs() < 1e-3,
        "{}",
        state.turn.position
    );
    // Commanding the reported value sends that value: no jump of a turn.
    command.turn.position = state.turn.position;
    bus.write(CLOCK, &command).unwrap();
    assert!((last_mit(&sim).position - 4.0).abs() < 1e-3);
}

#[test]
fn another_motors_reply_is_not_taken_for_the_asked_ones() {
    let (sim, motor, mut bus, mut state, command) = active(0.3);
    // The one motor on the bus now answers with another motor's id.
    sim.with_node(motor, |m: &mut SimActuator| {
        m.fail(Some(Failure::WrongMotorId))
    });
    let mut error = None;
    for _ in 0..5 {
        bus.write(CLOCK, &command).unwrap();
        if let Err(e) = bus.read(CLOCK, &mut state) {
            error = Some(e);
            break;
        }
    }
    let error = error.expect("the missing replies are noticed");
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert!(
        error
            .message()
            .contains("joint turn (bus base, id 5) missed 3 replies"),
        "{error}"
    );
}

#[test]
fn a_command_with_no_value_yet_holds_the_measured_position_with_zero_gains() {
    let (sim, _, mut bus, _, command) = active(0.3);
    assert!(command.turn.position.is_nan(), "no command yet");
    bus.write(CLOCK, &command).unwrap();
    let sent = last_mit(&sim);
    assert!((sent.position - 0.3).abs() < 1e-3, "{sent:?}");
    assert_eq!((sent.stiffness, sent.damping), (0.0, 0.0));
    // Zero torque is code 0x7FFF, which the manual's formula reads back half an LSB below 0.
    assert!(sent.effort.abs() <= f64::from(RobstrideModel::RS02.scaling().torque.lsb()));
}
