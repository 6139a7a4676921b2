//! The manual's worked examples and the frame layouts of docs/robstride-protocol.md §4–§8, byte for byte.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use embedded_can::{ExtendedId, Frame as _, StandardId};
use robstride_protocol::{
    BaudRate, CommType, Command, DecodeError, EncodeError, Fault, FaultWord, Feedback,
    FeedbackFault, Field, Frame, Mit, MitCommand, Mode, Param, ParamOutcome, ParamValue,
    ParamWrite, Protocol, Reply, RobstrideModel, RunMode,
};

const HOST: u8 = 0xFD;
const MOTOR: u8 = 0x7F;

fn encode(command: Command) -> (u32, [u8; 8]) {
    let frame = command.encode(RobstrideModel::RS03, HOST, MOTOR);
    let data: [u8; 8] = frame.data().try_into().unwrap();
    (frame.extended_id().unwrap(), data)
}

#[test]
fn loc_kp_read_request_is_the_manuals_example() {
    // M §4.1.14: ID 0x1100FD7F, data 1E 70 00 00 00 00 00 00.
    let (id, data) = encode(Command::ReadParam {
        index: Param::LocKp.index(),
    });
    assert_eq!(id, 0x1100_FD7F);
    assert_eq!(data, [0x1E, 0x70, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn loc_kp_read_reply_decodes_to_30() {
    // M §4.1.14: ID 0x11007FFD, data 1E 70 00 00 00 00 F0 41 is loc_kp = 30.0.
    let frame = Frame::extended(0x1100_7FFD, [0x1E, 0x70, 0, 0, 0, 0, 0xF0, 0x41]);
    let Reply::Param(reply) = Reply::decode(&frame).unwrap() else {
        panic!("not a parameter reply")
    };
    assert_eq!((reply.motor, reply.host, reply.index), (0x7F, 0xFD, 0x701E));
    assert_eq!(reply.outcome, ParamOutcome::Value(ParamValue::F32(30.0)));
}

#[test]
fn a_failed_read_and_an_unlisted_index_are_told_apart() {
    let failed = Frame::extended(0x1101_7FFD, [0x1E, 0x70, 0, 0, 0, 0, 0, 0]);
    let Ok(Reply::Param(p)) = Reply::decode(&failed) else {
        panic!()
    };
    assert_eq!(p.outcome, ParamOutcome::Failed);
    let unlisted = Frame::extended(0x1100_7FFD, [0x16, 0x30, 0, 0, 1, 2, 3, 4]);
    let Ok(Reply::Param(p)) = Reply::decode(&unlisted) else {
        panic!()
    };
    assert_eq!(
        (p.index, p.outcome),
        (0x3016, ParamOutcome::Unlisted([1, 2, 3, 4]))
    );
    let bad = Frame::extended(0x1102_7FFD, [0; 8]);
    assert_eq!(
        Reply::decode(&bad),
        Err(DecodeError::ParamStatus { status: 2 })
    );
}

#[test]
fn simple_commands_carry_the_host_in_bits_15_to_8() {
    let cases = [
        (Command::GetId, 0x0000_FD7F, [0; 8]),
        (Command::Enable, 0x0300_FD7F, [0; 8]),
        (Command::Stop, 0x0400_FD7F, [0; 8]),
        (
            Command::StopClearFault,
            0x0400_FD7F,
            [1, 0, 0, 0, 0, 0, 0, 0],
        ),
        (Command::SetZero, 0x0600_FD7F, [1, 0, 0, 0, 0, 0, 0, 0]),
        (Command::Save, 0x1600_FD7F, [1, 2, 3, 4, 5, 6, 7, 8]),
        (
            Command::BaudRate(BaudRate::K500),
            0x1700_FD7F,
            [1, 2, 3, 4, 5, 6, 2, 8],
        ),
        (
            Command::ActiveReport { on: true },
            0x1800_FD7F,
            [1, 2, 3, 4, 5, 6, 1, 8],
        ),
        (
            Command::ActiveReport { on: false },
            0x1800_FD7F,
            [1, 2, 3, 4, 5, 6, 0, 8],
        ),
        (
            Command::ProtocolSwitch(Protocol::Mit),
            0x1900_FD7F,
            [1, 2, 3, 4, 5, 6, 2, 8],
        ),
    ];
    for (command, id, data) in cases {
        assert_eq!(encode(command), (id, data), "{command:?}");
    }
}

#[test]
fn set_can_id_puts_the_new_id_in_bits_23_to_16_and_keeps_the_host() {
    assert_eq!(
        encode(Command::SetCanId { new_id: 0x05 }),
        (0x0705_FD7F, [0; 8])
    );
}

#[test]
fn parameter_writes_are_little_endian_in_bytes_4_to_7() {
    let run_mode = Command::WriteParam(ParamWrite::run_mode(RunMode::Csp));
    assert_eq!(
        encode(run_mode),
        (0x1200_FD7F, [0x05, 0x70, 0, 0, 5, 0, 0, 0])
    );
    let loc_kp = ParamWrite::new(Param::LocKp, ParamValue::F32(30.0)).unwrap();
    assert_eq!(
        encode(Command::WriteParam(loc_kp)).1,
        [0x1E, 0x70, 0, 0, 0, 0, 0xF0, 0x41]
    );
    let timeout = ParamWrite::new(Param::CanTimeout, ParamValue::U32(20000)).unwrap();
    assert_eq!(
        encode(Command::WriteParam(timeout)).1,
        [0x28, 0x70, 0, 0, 0x20, 0x4E, 0, 0]
    );
    let period = ParamWrite::new(Param::EpscanTime, ParamValue::U16(0x0102)).unwrap();
    assert_eq!(
        encode(Command::WriteParam(period)).1,
        [0x26, 0x70, 0, 0, 0x02, 0x01, 0, 0]
    );
}

#[test]
fn mit_zero_command_is_0x7fff_everywhere_but_the_gains() {
    // §5: zero torque, position and velocity give 0x7FFF; gains start at 0.
    let zero = MitCommand::new(Mit {
        position: 0.0,
        velocity: 0.0,
        stiffness: 0.0,
        damping: 0.0,
        effort: 0.0,
    })
    .unwrap();
    assert_eq!(
        encode(Command::Mit(zero)),
        (0x017F_FF7F, [0x7F, 0xFF, 0x7F, 0xFF, 0, 0, 0, 0])
    );
}

#[test]
fn mit_full_scale_command_is_0xffff_and_clamps_beyond() {
    for model in RobstrideModel::ALL {
        let s = model.scaling();
        let top = |r: robstride_protocol::Range| r.max();
        let full = MitCommand::new(Mit {
            position: f64::from(top(s.position)),
            velocity: f64::from(top(s.velocity)),
            stiffness: f64::from(top(s.kp)),
            damping: f64::from(top(s.kd)),
            effort: f64::from(top(s.torque)),
        })
        .unwrap();
        let beyond = MitCommand::new(Mit {
            position: 1e6,
            velocity: 1e6,
            stiffness: 1e6,
            damping: 1e6,
            effort: 1e6,
        })
        .unwrap();
        for c in [full, beyond] {
            let frame = c.encode(model, MOTOR);
            assert_eq!(frame.extended_id(), Some(0x01FF_FF7F), "{}", model.name());
            assert_eq!(frame.data(), [0xFF; 8], "{}", model.name());
        }
        let below = MitCommand::new(Mit {
            position: -1e6,
            velocity: -1e6,
            stiffness: -1e6,
            damping: -1e6,
            effort: -1e6,
        })
        .unwrap();
        let frame = below.encode(model, MOTOR);
        assert_eq!(frame.extended_id(), Some(0x0100_007F));
        assert_eq!(frame.data(), [0; 8]);
    }
}

#[test]
fn mit_torque_is_scaled_per_model() {
    // RS03 ±60 N·m: 30 N·m is (30 + 60)·65535/120 = 49151.25 → 49151 = 0xBFFF.
    let c = MitCommand::new(Mit {
        position: 0.0,
        velocity: 0.0,
        stiffness: 0.0,
        damping: 0.0,
        effort: 30.0,
    })
    .unwrap();
    assert_eq!(
        c.encode(RobstrideModel::RS03, MOTOR).extended_id(),
        Some(0x01BF_FF7F)
    );
    // RS05 ±5.5 N·m: 5.5 N·m is full scale.
    let c = MitCommand::new(Mit {
        position: 0.0,
        velocity: 0.0,
        stiffness: 0.0,
        damping: 0.0,
        effort: 5.5,
    })
    .unwrap();
    assert_eq!(
        c.encode(RobstrideModel::RS05, MOTOR).extended_id(),
        Some(0x01FF_FF7F)
    );
}

#[test]
fn nan_or_infinite_setpoints_are_refused() {
    let fields = [
        Field::Position,
        Field::Velocity,
        Field::Stiffness,
        Field::Damping,
        Field::Effort,
    ];
    for (i, field) in fields.into_iter().enumerate() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut v = [0.0; 5];
            v[i] = bad;
            assert_eq!(
                MitCommand::new(Mit {
                    position: v[0],
                    velocity: v[1],
                    stiffness: v[2],
                    damping: v[3],
                    effort: v[4]
                }),
                Err(EncodeError::NonFinite { field })
            );
        }
    }
}

#[test]
fn feedback_decodes_every_field() {
    // Motor 0x7F, run mode, undervoltage + uncalibrated, host 0xFD; position full scale,
    // velocity bottom, torque 0x7FFF, 31.4 °C.
    let id = (2 << 24) | (2 << 22) | (0b10_0001 << 16) | (0x7F << 8) | 0xFD;
    let frame = Frame::extended(id, [0xFF, 0xFF, 0x00, 0x00, 0x7F, 0xFF, 0x01, 0x3A]);
    let f = Feedback::decode(&frame, RobstrideModel::RS06).unwrap();
    assert_eq!((f.motor, f.host, f.mode), (0x7F, 0xFD, Mode::Run));
    assert!(f.faults.contains(FeedbackFault::Undervoltage));
    assert!(f.faults.contains(FeedbackFault::Uncalibrated));
    let set: Vec<_> = f.faults.iter().collect();
    assert_eq!(
        set,
        [FeedbackFault::Undervoltage, FeedbackFault::Uncalibrated]
    );
    assert_eq!(f.position, 4.0 * core::f32::consts::PI);
    assert_eq!(f.velocity, -50.0);
    assert!(f.torque < 0.0 && f.torque > -36.0 / 65535.0, "{}", f.torque);
    assert_eq!(f.temperature, 31.4);
}

#[test]
fn every_feedback_fault_bit_and_mode_decodes() {
    for (bit, fault) in FeedbackFault::ALL.into_iter().enumerate() {
        assert_eq!(fault.id_bit(), 16 + bit as u32);
        let frame = Frame::extended(0x0200_7FFD | (1 << fault.id_bit()), [0; 8]);
        let Ok(Reply::Feedback(f)) = Reply::decode(&frame) else {
            panic!()
        };
        assert_eq!(f.faults.iter().collect::<Vec<_>>(), [fault]);
    }
    for (bits, mode) in [(0, Mode::Reset), (1, Mode::Calibration), (2, Mode::Run)] {
        let frame = Frame::extended(0x0200_7FFD | (bits << 22), [0; 8]);
        let Ok(Reply::Feedback(f)) = Reply::decode(&frame) else {
            panic!()
        };
        assert_eq!(f.mode, mode);
    }
    let frame = Frame::extended(0x02C0_7FFD, [0; 8]);
    assert_eq!(Reply::decode(&frame), Err(DecodeError::UnknownMode));
}

#[test]
fn active_reports_decode_like_feedback() {
    let frame = Frame::extended(0x1880_7FFD, [0x7F, 0xFF, 0x7F, 0xFF, 0x7F, 0xFF, 0, 250]);
    let Ok(Reply::ActiveReport(r)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!((r.motor, r.mode, r.temperature), (0x7F, Mode::Run, 250));
    assert_eq!(
        Feedback::decode(&frame, RobstrideModel::RS00)
            .unwrap()
            .temperature,
        25.0
    );
}

#[test]
fn fault_frame_decodes_every_named_bit() {
    let bits = [0, 1, 2, 3, 4, 5, 7, 8, 9, 14, 16];
    for (fault, bit) in Fault::ALL.into_iter().zip(bits) {
        assert_eq!(fault.bit(), bit);
        let word = (1u32 << bit).to_le_bytes();
        let frame = Frame::extended(
            0x1500_7FFD,
            [word[0], word[1], word[2], word[3], 0, 0, 0, 0],
        );
        let Ok(Reply::Fault(f)) = Reply::decode(&frame) else {
            panic!()
        };
        assert_eq!(f.faults.iter().collect::<Vec<_>>(), [fault]);
        assert_eq!(f.faults.unknown_bits(), 0);
        assert!(!f.warnings.overtemperature());
    }
    let frame = Frame::extended(0x1500_7FFD, [0x40, 0, 0, 0x80, 1, 0, 0, 0]);
    let Ok(Reply::Fault(f)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!(f.faults.unknown_bits(), 0x8000_0040);
    assert!(f.warnings.overtemperature());
    assert_eq!(f.motor, 0x7F);
    assert_eq!(FaultWord(u32::MAX).iter().count(), Fault::ALL.len());
}

#[test]
fn device_id_reply_carries_the_uid() {
    let frame = Frame::extended(0x0000_7FFE, [1, 2, 3, 4, 5, 6, 7, 8]);
    let reply = Reply::decode(&frame).unwrap();
    assert_eq!(
        reply,
        Reply::DeviceId {
            motor: 0x7F,
            host: 0xFE,
            uid: [1, 2, 3, 4, 5, 6, 7, 8]
        }
    );
    assert!(reply.answers(&Command::GetId, 0x7F));
    assert!(reply.answers(&Command::SetCanId { new_id: 0x7F }, 0x01));
    assert!(!reply.answers(&Command::SetCanId { new_id: 0x02 }, 0x7F));
}

#[test]
fn replies_match_on_type_and_motor_never_the_host_byte() {
    let mit = Command::Mit(
        MitCommand::new(Mit {
            position: 0.0,
            velocity: 0.0,
            stiffness: 1.0,
            damping: 1.0,
            effort: 0.0,
        })
        .unwrap(),
    );
    for host in [0x00, 0xFD, 0xFE, 0xFF] {
        let frame = Frame::extended(0x0280_7F00 | host, [0; 8]);
        let reply = Reply::decode(&frame).unwrap();
        for command in [
            mit,
            Command::Enable,
            Command::Stop,
            Command::SetZero,
            Command::Save,
        ] {
            assert!(reply.answers(&command, 0x7F));
            assert!(!reply.answers(&command, 0x7E));
        }
        assert!(!reply.answers(&Command::ReadParam { index: 0x7005 }, 0x7F));
        assert!(!reply.answers(&Command::GetId, 0x7F));
    }
    assert_eq!(Command::ActiveReport { on: true }.reply_type(), None);
    assert_eq!(
        Command::ReadParam { index: 0 }.reply_type(),
        Some(CommType::ReadParam)
    );
}

#[test]
fn malformed_frames_are_rejected_with_a_typed_error() {
    let std_id = Frame::new(StandardId::new(0x7F).unwrap(), &[0; 8]).unwrap();
    assert_eq!(Reply::decode(&std_id), Err(DecodeError::StandardId));
    let ext = ExtendedId::new(0x0280_7FFD).unwrap();
    let remote = Frame::new_remote(ext, 8).unwrap();
    assert_eq!(Reply::decode(&remote), Err(DecodeError::RemoteFrame));
    for len in [0, 1, 7] {
        let short = Frame::new(ext, &[0; 8][..len]).unwrap();
        assert_eq!(Reply::decode(&short), Err(DecodeError::Length { len }));
        assert_eq!(
            Feedback::decode(&short, RobstrideModel::RS00),
            Err(DecodeError::Length { len })
        );
    }
    for comm_type in [5, 8, 16, 19, 20, 26, 31] {
        let frame = Frame::extended(u32::from(comm_type) << 24, [0; 8]);
        assert_eq!(
            Reply::decode(&frame),
            Err(DecodeError::UnknownType { comm_type })
        );
    }
    for comm_type in [1, 3, 4, 6, 7, 18, 22, 23, 25] {
        let frame = Frame::extended(u32::from(comm_type) << 24, [0; 8]);
        assert_eq!(
            Reply::decode(&frame),
            Err(DecodeError::NotAReply { comm_type })
        );
        assert_eq!(
            Feedback::decode(&frame, RobstrideModel::RS00),
            Err(DecodeError::NotAReply { comm_type })
        );
    }
    let param = Frame::extended(0x1100_7FFD, [0; 8]);
    assert_eq!(
        Feedback::decode(&param, RobstrideModel::RS00),
        Err(DecodeError::NotAReply { comm_type: 17 })
    );
}

#[test]
fn errors_read_as_lowercase_sentences() {
    assert_eq!(
        DecodeError::UnknownType { comm_type: 9 }.to_string(),
        "unknown communication type `9`"
    );
    assert_eq!(
        EncodeError::NonFinite {
            field: Field::Effort
        }
        .to_string(),
        "`effort` is not finite"
    );
}
