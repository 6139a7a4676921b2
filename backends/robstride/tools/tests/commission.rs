//! Commissioning over the in-process bus: scan, set-id, set-zero, parameters, against simulated
//! actuators that answer as the firmware does, and against motors that do not answer.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use robstride_protocol::{
    Command, FeedbackFaults, Frame, Mode, Param, ParamOutcome, ParamValue, ParamWrite, RawFeedback,
    Reply, Request, RobstrideModel,
};
use robstride_sim::bus::Node;
use robstride_sim::bus::{NodeId, Outbox};
use robstride_sim::motor::MotorModel;
use robstride_sim::{Failure, SimActuator};
use robstride_sim::{SimBus, SimHost};
use robstride_tools::commission::{CommissionError, Commissioner, motor_id};

const HOST: u8 = 0xFD;

/// A bus with RS03 motors at `ids`, each at rest at 0.5 rad.
fn bus(ids: &[u8]) -> (SimBus, SimHost, Vec<NodeId>) {
    let bus = SimBus::new("sim");
    let nodes = ids
        .iter()
        .map(|&id| {
            bus.attach(SimActuator::new(
                RobstrideModel::RS03,
                id,
                MotorModel::new(RobstrideModel::RS03, None),
                0.5,
            ))
        })
        .collect();
    let host = bus.host();
    (bus, host, nodes)
}

fn tool(host: &mut SimHost) -> Commissioner<'_> {
    Commissioner::new(host, "sim", HOST).timeout(Duration::from_millis(2))
}

#[test]
fn scan_finds_every_motor_that_answers_with_its_uid_mode_angle_and_voltage() {
    let (bus, mut host, nodes) = bus(&[31, 33, 127]);
    bus.with_node(nodes[1], |m: &mut SimActuator| {
        m.fail(Some(Failure::Silent))
    });

    let found = tool(&mut host).scan(1..=127).unwrap();

    let ids: Vec<u8> = found.iter().map(|f| f.motor).collect();
    assert_eq!(ids, [31, 127], "the silent motor 33 is not found");
    let first = found[0];
    assert_eq!(
        first.uid,
        [0x52, 0x53, RobstrideModel::RS03 as u8, 31, 0, 0, 0, 1]
    );
    assert_eq!(first.run_mode, Some(0), "operation control");
    assert!((first.position.unwrap() - 0.5).abs() < 1e-6);
    assert_eq!(first.vbus, Some(48.0));
}

#[test]
fn scan_changes_nothing_on_any_motor() {
    let (bus, mut host, _) = bus(&[31, 32]);
    tool(&mut host).scan(30..=33).unwrap();
    for frame in bus.sent() {
        let request = Request::decode(&frame, RobstrideModel::RS03).unwrap();
        assert!(
            matches!(request.command, Command::GetId | Command::ReadParam { .. }),
            "a scan sent {:?}",
            request.command
        );
    }
}

#[test]
fn set_id_moves_the_motor_to_its_new_id_and_the_old_one_answers_no_more() {
    let (bus, mut host, nodes) = bus(&[127]);
    let uid = tool(&mut host).set_id(127, 31).unwrap();
    assert_eq!(
        uid,
        [0x52, 0x53, RobstrideModel::RS03 as u8, 127, 0, 0, 0, 1],
        "same unit"
    );
    assert_eq!(
        bus.with_node(nodes[0], |m: &mut SimActuator| m.motor_id()),
        Some(31)
    );
    let found = tool(&mut host).scan(1..=127).unwrap();
    assert_eq!(found.iter().map(|f| f.motor).collect::<Vec<_>>(), [31]);
    let error = tool(&mut host)
        .read_param(127, Param::RunMode.index())
        .unwrap_err();
    assert!(
        matches!(error, CommissionError::NoReply { motor: 127, .. }),
        "{error}"
    );
}

#[test]
fn set_zero_stops_the_motor_first_and_reads_back_a_zero_angle() {
    let (bus, mut host, _) = bus(&[31]);
    let position = tool(&mut host).set_zero(31).unwrap();
    assert!(position.unwrap().abs() < 1e-6, "{position:?}");
    let sent: Vec<Command> = bus
        .sent()
        .iter()
        .map(|f| Request::decode(f, RobstrideModel::RS03).unwrap().command)
        .collect();
    assert_eq!(sent[..2], [Command::Stop, Command::SetZero]);
}

#[test]
fn a_written_parameter_reads_back_and_saves() {
    let (bus, mut host, _) = bus(&[31]);
    let mut tool = tool(&mut host);
    let write = ParamWrite::new(Param::LocKp, ParamValue::F32(30.0)).unwrap();
    tool.write_param(31, write).unwrap();
    assert_eq!(
        tool.read_param(31, Param::LocKp.index()).unwrap(),
        ParamOutcome::Value(ParamValue::F32(30.0))
    );
    tool.save(31).unwrap();
    let last = *bus.sent().last().unwrap();
    assert_eq!(
        Request::decode(&last, RobstrideModel::RS03)
            .unwrap()
            .command,
        Command::Save
    );
}

/// A motor that acknowledges writes (with feedback, as the firmware does) but keeps nothing, and
/// reads every parameter as 0.
struct Forgetful;

impl Node for Forgetful {
    fn receive(&mut self, _: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        let Ok(request) = Request::decode(frame, RobstrideModel::RS03) else {
            return;
        };
        let reply = match request.command {
            Command::WriteParam(_) => Reply::Feedback(RawFeedback {
                motor: request.motor,
                host: request.host,
                mode: Mode::Reset,
                faults: FeedbackFaults::default(),
                position: 0x8000,
                velocity: 0x8000,
                torque: 0x8000,
                temperature: 250,
            }),
            Command::ReadParam { index } => Reply::Param(robstride_protocol::ParamReply {
                motor: request.motor,
                host: request.host,
                index,
                outcome: ParamOutcome::Value(ParamValue::F32(0.0)),
            }),
            _ => return,
        };
        out.send(reply.encode());
    }
}

#[test]
fn a_write_that_does_not_read_back_is_an_error_naming_both_values() {
    let bus = SimBus::new("sim");
    bus.attach(Forgetful);
    let mut host = bus.host();
    let write = ParamWrite::new(Param::LocKp, ParamValue::F32(30.0)).unwrap();
    let error = tool(&mut host).write_param(31, write).unwrap_err();
    let message = error.to_string();
    assert!(matches!(
        error,
        CommissionError::NotConfirmed { motor: 31, .. }
    ));
    assert_eq!(
        message,
        "motor 31 took the write of `loc_kp` = 30 but reads back 0: the firmware refused or \
         limited the value"
    );
}

#[test]
fn a_missing_motor_times_out_with_a_message_that_says_what_to_do() {
    let (_bus, mut host, _) = bus(&[31]);
    let started = Instant::now();
    let error = tool(&mut host).set_zero(40).unwrap_err();
    assert!(started.elapsed() >= Duration::from_millis(2));
    assert_eq!(
        error.to_string(),
        "motor 40 on `sim` did not answer stop within 2 ms: is it powered, on this bus, and at \
         this id? (`robot can scan --interface sim` lists the ids that answer)"
    );
}

#[test]
fn motor_ids_outside_1_to_127_are_refused() {
    assert_eq!(motor_id(1).unwrap(), 1);
    assert_eq!(motor_id(127).unwrap(), 127);
    for bad in [0, 128, 255, 256] {
        assert_eq!(
            motor_id(bad).unwrap_err().to_string(),
            format!("motor id {bad} is out of range: RobStride motor ids are 1 to 127")
        );
    }
}
