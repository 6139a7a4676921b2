//! The motor's side of the protocol: every command a host encodes is the request a motor decodes,
//! every reply a motor encodes is what the host decodes, and a frame that is no request is a
//! typed error, never a panic.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use proptest::prelude::*;
use robstride_protocol::{
    BaudRate, Command, DecodeError, FaultFrame, FaultWord, FeedbackFaults, Frame, Mit, MitCommand,
    Mode, Param, ParamOutcome, ParamReply, ParamValue, ParamWrite, Protocol, RawFeedback, Reply,
    Request, RobstrideModel, RunMode, WarningWord,
};

fn every_plain_command() -> Vec<Command> {
    vec![
        Command::GetId,
        Command::Enable,
        Command::Stop,
        Command::StopClearFault,
        Command::SetZero,
        Command::SetCanId { new_id: 42 },
        Command::ReadParam { index: 0x7005 },
        Command::WriteParam(ParamWrite::run_mode(RunMode::Operation)),
        Command::WriteParam(
            ParamWrite::new(Param::from_index(0x700B).unwrap(), ParamValue::F32(12.5)).unwrap(),
        ),
        Command::Save,
        Command::BaudRate(BaudRate::K500),
        Command::ActiveReport { on: true },
        Command::ActiveReport { on: false },
        Command::ProtocolSwitch(Protocol::CanOpen),
    ]
}

#[test]
fn every_command_a_host_encodes_is_the_request_a_motor_decodes() {
    for command in every_plain_command() {
        let frame = command.encode(RobstrideModel::RS03, 0xFD, 0x21);
        let request = Request::decode(&frame, RobstrideModel::RS03).unwrap();
        assert_eq!(
            request,
            Request {
                command,
                host: 0xFD,
                motor: 0x21
            },
            "{command:?}"
        );
    }
}

#[test]
fn an_operation_control_setpoint_decodes_within_one_lsb() {
    let mit = MitCommand::new(Mit {
        position: 1.0,
        velocity: -2.0,
        stiffness: 30.0,
        damping: 1.5,
        effort: 3.25,
    })
    .unwrap();
    let frame = Command::Mit(mit).encode(RobstrideModel::RS02, 0xFD, 7);
    let Request {
        command: Command::Mit(back),
        motor: 7,
        ..
    } = Request::decode(&frame, RobstrideModel::RS02).unwrap()
    else {
        panic!("not an operation-control request to motor 7");
    };
    let s = RobstrideModel::RS02.scaling();
    let (sent, got) = (mit.mit(), back.mit());
    for (what, sent, got, range) in [
        ("position", sent.position, got.position, s.position),
        ("velocity", sent.velocity, got.velocity, s.velocity),
        ("stiffness", sent.stiffness, got.stiffness, s.kp),
        ("damping", sent.damping, got.damping, s.kd),
        ("effort", sent.effort, got.effort, s.torque),
    ] {
        assert!(
            (sent - got).abs() <= f64::from(range.lsb()),
            "{what}: {sent} → {got}"
        );
    }
}

#[test]
fn every_reply_a_motor_encodes_is_what_the_host_decodes() {
    let feedback = RawFeedback {
        motor: 0x21,
        host: 0xFD,
        mode: Mode::Run,
        faults: FeedbackFaults::from_bits(0b10_0001),
        position: 0x8123,
        velocity: 0x7FFF,
        torque: 0x1234,
        temperature: 312,
    };
    let replies = [
        Reply::DeviceId {
            motor: 0x21,
            host: 0xFE,
            uid: [1, 2, 3, 4, 5, 6, 7, 8],
        },
        Reply::Feedback(feedback),
        Reply::ActiveReport(feedback),
        Reply::Param(ParamReply {
            motor: 0x21,
            host: 0xFD,
            index: 0x7005,
            outcome: ParamOutcome::Value(ParamValue::U8(0)),
        }),
        Reply::Param(ParamReply {
            motor: 0x21,
            host: 0xFD,
            index: 0x7019,
            outcome: ParamOutcome::Failed,
        }),
        Reply::Fault(FaultFrame {
            motor: 0x21,
            host: 0xFD,
            faults: FaultWord(1 << 3),
            warnings: WarningWord(1),
        }),
    ];
    for reply in replies {
        assert_eq!(Reply::decode(&reply.encode()).unwrap(), reply, "{reply:?}");
    }
}

#[test]
fn a_reply_is_not_a_request_and_undefined_data_is_refused() {
    let feedback = Reply::Feedback(RawFeedback {
        motor: 1,
        host: 0xFD,
        mode: Mode::Reset,
        faults: FeedbackFaults::default(),
        position: 0,
        velocity: 0,
        torque: 0,
        temperature: 0,
    })
    .encode();
    assert_eq!(
        Request::decode(&feedback, RobstrideModel::RS00),
        Err(DecodeError::NotARequest { comm_type: 2 })
    );
    // Type 4 with byte 0 = 7; type 24 without its key; a write to an unlisted parameter.
    for (id, data) in [
        (0x0400_FD01_u32, [7, 0, 0, 0, 0, 0, 0, 0]),
        (0x1800_FD01, [0, 0, 0, 0, 0, 0, 1, 0]),
        (0x1200_FD01, [0x00, 0x30, 0, 0, 0, 0, 0, 0]),
    ] {
        let error = Request::decode(&Frame::extended(id, data), RobstrideModel::RS00).unwrap_err();
        assert!(
            matches!(error, DecodeError::BadRequest { .. }),
            "{id:#x}: {error}"
        );
    }
}

proptest! {
    #[test]
    fn any_frame_is_a_request_or_a_typed_error(id in 0u32..=0x1FFF_FFFF, data in any::<[u8; 8]>(), len in 0usize..=8) {
        let frame = <Frame as embedded_can::Frame>::new(
            embedded_can::ExtendedId::new(id).unwrap(),
            &data[..len],
        )
        .unwrap();
        let _ = Request::decode(&frame, RobstrideModel::RS04);
    }
}
