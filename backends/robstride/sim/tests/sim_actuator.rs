//! The simulated RobStride actuator on the in-process bus, as a host sees it: every request gets
//! the reply docs/robstride-protocol.md says, the MIT law moves the shaft while enabled, parameters are kept,
//! and each injected failure looks on the bus as it does with a real motor.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_robstride::transport::Transport;
use robstride_protocol::{
    Command, DecodeError, Feedback, FeedbackFault, Frame, Mit, MitCommand, Mode, ParamOutcome,
    ParamValue, ParamWrite, Reply, RobstrideModel, RunMode,
};
use robstride_sim::bus::NodeId;
use robstride_sim::motor::MotorModel;
use robstride_sim::{Failure, SimActuator};
use robstride_sim::{SimBus, SimHost};

const HOST: u8 = 0xFD;
const MOTOR: u8 = 0x21;

fn bus() -> (SimBus, SimHost, NodeId) {
    let bus = SimBus::new("sim");
    let node = bus.attach(SimActuator::new(
        RobstrideModel::RS02,
        MOTOR,
        MotorModel::new(RobstrideModel::RS02, None),
        0.25,
    ));
    let host = bus.host();
    (bus, host, node)
}

/// Sends `command` and returns every frame that came back.
fn ask(host: &mut SimHost, command: Command) -> Vec<Frame> {
    host.send(&command.encode(RobstrideModel::RS02, HOST, MOTOR))
        .unwrap();
    let mut replies = Vec::new();
    while let Some(frame) = host.try_recv().unwrap() {
        replies.push(frame);
    }
    replies
}

fn feedback(frames: &[Frame]) -> Feedback {
    assert_eq!(frames.len(), 1, "one reply: {frames:?}");
    Feedback::decode(&frames[0], RobstrideModel::RS02).unwrap()
}

fn mit(position: f64, kp: f64, kd: f64) -> Command {
    Command::Mit(
        MitCommand::new(Mit {
            position,
            velocity: 0.0,
            stiffness: kp,
            damping: kd,
            effort: 0.0,
        })
        .unwrap(),
    )
}

#[test]
fn every_request_gets_the_reply_the_protocol_says() {
    let (_bus, mut host, _) = bus();
    let id = ask(&mut host, Command::GetId);
    assert!(
        matches!(
            Reply::decode(&id[0]).unwrap(),
            Reply::DeviceId {
                motor: MOTOR,
                host: 0xFE,
                ..
            }
        ),
        "{id:?}"
    );
    let state = feedback(&ask(&mut host, Command::Enable));
    assert_eq!((state.motor, state.mode), (MOTOR, Mode::Run));
    assert!((state.position - 0.25).abs() < 1e-3, "{state:?}");
    assert_eq!(
        feedback(&ask(&mut host, mit(0.25, 10.0, 1.0))).mode,
        Mode::Run
    );
    assert_eq!(feedback(&ask(&mut host, Command::Stop)).mode, Mode::Reset);
    // Parameters: a write is kept and read back; an unlisted index is refused.
    ask(
        &mut host,
        Command::WriteParam(ParamWrite::run_mode(RunMode::Velocity)),
    );
    let read = ask(&mut host, Command::ReadParam { index: 0x7005 });
    let Reply::Param(reply) = Reply::decode(&read[0]).unwrap() else {
        panic!("{read:?}")
    };
    assert_eq!(reply.outcome, ParamOutcome::Value(ParamValue::U8(2)));
    let read = ask(&mut host, Command::ReadParam { index: 0x1234 });
    let Reply::Param(reply) = Reply::decode(&read[0]).unwrap() else {
        panic!("{read:?}")
    };
    assert_eq!(reply.outcome, ParamOutcome::Failed);
    // Another motor's requests draw nothing.
    host.send(&Command::GetId.encode(RobstrideModel::RS02, HOST, MOTOR + 1))
        .unwrap();
    assert_eq!(host.try_recv().unwrap(), None);
}

#[test]
fn the_mit_law_moves_the_shaft_only_while_enabled() {
    let (bus, mut host, node) = bus();
    // Not enabled: a command is answered, but nothing moves.
    ask(&mut host, mit(1.0, 40.0, 2.0));
    bus.advance(Duration::from_millis(200));
    let still = feedback(&ask(&mut host, mit(1.0, 40.0, 2.0)));
    assert!((still.position - 0.25).abs() < 1e-3, "{still:?}");
    ask(&mut host, Command::Enable);
    for _ in 0..400 {
        ask(&mut host, mit(1.0, 40.0, 2.0));
        bus.advance(Duration::from_millis(5));
    }
    let there = feedback(&ask(&mut host, mit(1.0, 40.0, 2.0)));
    assert!((there.position - 1.0).abs() < 5e-3, "{there:?}");
    assert!(
        bus.with_node(node, |m: &mut SimActuator| m.log.mit_enabled)
            .unwrap()
            > 400
    );
}

#[test]
fn set_zero_and_set_id_take_effect_at_once() {
    let (_bus, mut host, _) = bus();
    assert!(feedback(&ask(&mut host, Command::SetZero)).position.abs() < 1e-3);
    let reply = ask(&mut host, Command::SetCanId { new_id: 0x30 });
    assert!(matches!(
        Reply::decode(&reply[0]).unwrap(),
        Reply::DeviceId { motor: 0x30, .. }
    ));
    assert!(
        ask(&mut host, Command::GetId).is_empty(),
        "no longer answers to the old id"
    );
}

#[test]
fn a_fault_sets_its_bit_drops_to_reset_and_holds_until_cleared() {
    let (bus, mut host, node) = bus();
    ask(&mut host, Command::Enable);
    for (failure, bit) in [
        (Failure::Overtemperature, FeedbackFault::Overtemperature),
        (Failure::Undervoltage, FeedbackFault::Undervoltage),
        (Failure::Uncalibrated, FeedbackFault::Uncalibrated),
        (Failure::Stall, FeedbackFault::StallOverload),
    ] {
        bus.with_node(node, |m: &mut SimActuator| m.fail(Some(failure)));
        let state = feedback(&ask(&mut host, mit(0.0, 10.0, 1.0)));
        assert!(state.faults.contains(bit), "{failure:?}: {state:?}");
        assert_eq!(state.mode, Mode::Reset, "{failure:?}");
        bus.with_node(node, |m: &mut SimActuator| m.fail(None));
        assert_eq!(
            feedback(&ask(&mut host, Command::Enable)).mode,
            Mode::Reset,
            "latched"
        );
        let cleared = feedback(&ask(&mut host, Command::StopClearFault));
        assert!(cleared.faults.is_empty());
        assert_eq!(feedback(&ask(&mut host, Command::Enable)).mode, Mode::Run);
    }
}

#[test]
fn reply_failures_look_on_the_bus_as_they_do_with_a_real_motor() {
    let (bus, mut host, node) = bus();
    let fail = |f| bus.with_node(node, |m: &mut SimActuator| m.fail(Some(f)));
    fail(Failure::MissingReplies(2));
    assert!(ask(&mut host, Command::Enable).is_empty());
    assert!(ask(&mut host, Command::Enable).is_empty());
    assert_eq!(
        ask(&mut host, Command::Enable).len(),
        1,
        "answers again after two"
    );

    fail(Failure::LateReplies);
    assert!(ask(&mut host, Command::Stop).is_empty(), "held back");
    assert_eq!(
        feedback(&ask(&mut host, Command::Enable)).mode,
        Mode::Reset,
        "the stop's reply, a cycle late"
    );

    fail(Failure::Garbage);
    let garbage = ask(&mut host, Command::Enable);
    assert_eq!(
        Reply::decode(&garbage[0]),
        Err(DecodeError::Length { len: 4 })
    );

    fail(Failure::Foreign);
    let foreign = ask(&mut host, Command::Enable);
    assert_eq!(Reply::decode(&foreign[0]), Err(DecodeError::StandardId));

    fail(Failure::WrongMotorId);
    let wrong = feedback(&ask(&mut host, Command::Enable));
    assert_eq!(wrong.motor, MOTOR + 1);

    fail(Failure::Silent);
    assert!(ask(&mut host, Command::GetId).is_empty());
    assert!(ask(&mut host, Command::Enable).is_empty());
}

#[test]
fn active_reports_come_every_ten_milliseconds_when_on() {
    let (bus, mut host, _) = bus();
    assert!(
        ask(&mut host, Command::ActiveReport { on: true }).is_empty(),
        "no reply of its own"
    );
    let mut reports = 0;
    for _ in 0..10 {
        bus.advance(Duration::from_millis(5));
        while let Some(frame) = host.try_recv().unwrap() {
            assert!(matches!(
                Reply::decode(&frame).unwrap(),
                Reply::ActiveReport(_)
            ));
            reports += 1;
        }
    }
    assert_eq!(reports, 5, "50 ms at one report per 10 ms");
}
