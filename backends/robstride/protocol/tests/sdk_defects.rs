//! Every known defect of the public SDKs (docs/robstride-protocol.md §13, and the disagreements of §7 and §9
//! that §13 points at), each shown not to be reproduced here.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use robstride_protocol::Code16;
use robstride_protocol::{
    Command, Fault, Feedback, FeedbackFault, Frame, Mit, MitCommand, Mode, Param, ParamOutcome,
    ParamValue, ParamWrite, Reply, RobstrideModel,
};

fn feedback_id(mode: u32, faults: u32) -> u32 {
    (2 << 24) | (mode << 22) | (faults << 16) | (0x7F << 8) | 0xFD
}

// --- robstride 0.1.0 (SW) ---

#[test]
fn sw_run_mode_is_not_read_as_reset() {
    // SW decodes `(id & 0x400000) >> 22`, so Run (2) reads as Reset.
    let frame = Frame::extended(feedback_id(2, 0), [0; 8]);
    assert_eq!(
        Feedback::decode(&frame, RobstrideModel::RS01).unwrap().mode,
        Mode::Run
    );
}

#[test]
fn sw_uncalibrated_bit_21_is_not_dropped() {
    // SW masks faults with 0x1F0000.
    let frame = Frame::extended(feedback_id(0, 0b10_0000), [0; 8]);
    let f = Feedback::decode(&frame, RobstrideModel::RS01).unwrap();
    assert!(f.faults.contains(FeedbackFault::Uncalibrated));
}

#[test]
fn sw_every_model_has_its_own_scaling_not_two() {
    // SW: model 1 gives ±44/±17, anything else ±15/±120.
    let v: Vec<_> = RobstrideModel::ALL
        .iter()
        .map(|m| m.scaling().velocity.max())
        .collect();
    let t: Vec<_> = RobstrideModel::ALL
        .iter()
        .map(|m| m.scaling().torque.max())
        .collect();
    assert_eq!(v, [33.0, 44.0, 44.0, 20.0, 15.0, 50.0, 50.0, 50.0]);
    assert_eq!(t, [14.0, 17.0, 17.0, 60.0, 120.0, 5.5, 36.0, 6.0]);
}

#[test]
fn sw_missing_commands_exist_type_1_zero_and_clear_fault() {
    let mit = Command::Mit(
        MitCommand::new(Mit {
            position: 0.0,
            velocity: 0.0,
            stiffness: 0.0,
            damping: 0.0,
            effort: 0.0,
        })
        .unwrap(),
    );
    let id = |c: Command| {
        c.encode(RobstrideModel::RS01, 0xFD, 0x7F)
            .extended_id()
            .unwrap()
            >> 24
    };
    assert_eq!(id(mit), 1);
    assert_eq!(id(Command::SetZero), 6);
    let clear = Command::StopClearFault.encode(RobstrideModel::RS01, 0xFD, 0x7F);
    assert_eq!(
        (clear.extended_id().unwrap() >> 24, clear.data()[0]),
        (4, 1)
    );
}

// --- robstride_dynamics 0.0.1 (RD) ---

#[test]
fn rd_set_can_id_keeps_the_host_byte() {
    let frame = Command::SetCanId { new_id: 0x10 }.encode(RobstrideModel::RS00, 0xFD, 0x7F);
    assert_eq!(frame.extended_id(), Some(0x0710_FD7F));
}

#[test]
fn rd_0x7fff_scaling_is_not_used() {
    // RD/ROS/MB: u = (x/max + 1)·0x7FFF, top code 0xFFFE; decode (u/0x7FFF − 1)·max, 0x7FFF → 0.
    let t = RobstrideModel::RS04.scaling().torque;
    assert_eq!(t.encode(120.0), Ok(0xFFFF));
    assert_eq!(t.decode(0xFFFF), 120.0);
    let half_lsb = t.decode(0x7FFF);
    assert!(
        half_lsb < 0.0 && (half_lsb + t.lsb() / 2.0).abs() < 1e-4,
        "{half_lsb}"
    );
    // 60 N·m: the manual truncates 49151.25 to 49151; (60/120 + 1)·0x7FFF = 49150.5 → 49150.
    assert_eq!(t.encode(60.0), Ok(49151));
}

#[test]
fn rd_sdk_model_table_is_not_used() {
    // SDK table: RS00 ±50/±17, RS03 ±50, RS05 ±33/±17, RS06 ±20/±60.
    let s = |m: RobstrideModel| (m.scaling().velocity.max(), m.scaling().torque.max());
    assert_eq!(s(RobstrideModel::RS00), (33.0, 14.0));
    assert_eq!(s(RobstrideModel::RS03).0, 20.0);
    assert_eq!(s(RobstrideModel::RS05), (50.0, 5.5));
    assert_eq!(s(RobstrideModel::RS06), (50.0, 36.0));
}

#[test]
fn rd_mode_bits_are_decoded() {
    for (bits, mode) in [(0, Mode::Reset), (1, Mode::Calibration), (2, Mode::Run)] {
        let frame = Frame::extended(feedback_id(bits, 0), [0; 8]);
        assert_eq!(
            Feedback::decode(&frame, RobstrideModel::RS00).unwrap().mode,
            mode
        );
    }
}

#[test]
fn rd_stall_is_read_from_the_fault_word_not_the_warning_word() {
    let fault = Frame::extended(0x1500_7FFD, [0x00, 0x40, 0, 0, 0, 0, 0, 0]);
    let Ok(Reply::Fault(f)) = Reply::decode(&fault) else {
        panic!()
    };
    assert!(f.faults.contains(Fault::StallOverload));
    let warning = Frame::extended(0x1500_7FFD, [0, 0, 0, 0, 0x00, 0x40, 0, 0]);
    let Ok(Reply::Fault(f)) = Reply::decode(&warning) else {
        panic!()
    };
    assert!(!f.faults.contains(Fault::StallOverload));
    assert_eq!(f.warnings.unknown_bits(), 0x4000);
}

#[test]
fn rd_uint16_parameters_are_unsigned() {
    let frame = Frame::extended(0x1100_7FFD, [0x26, 0x70, 0, 0, 0xFF, 0xFF, 0, 0]);
    let Ok(Reply::Param(p)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!(p.outcome, ParamOutcome::Value(ParamValue::U16(65535)));
}

// --- robstride_ros_sample (ROS) ---

#[test]
fn ros_set_zero_is_one_type_6_frame_and_writes_no_run_mode() {
    let frame = Command::SetZero.encode(RobstrideModel::RS00, 0xFD, 0x7F);
    assert_eq!(frame.extended_id(), Some(0x0600_FD7F));
    assert_eq!(frame.data(), [1, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn ros_iq_ref_is_written_as_amperes_not_as_a_scaled_code() {
    let write = ParamWrite::new(Param::IqRef, ParamValue::F32(1.5)).unwrap();
    let frame = Command::WriteParam(write).encode(RobstrideModel::RS03, 0xFD, 0x7F);
    assert_eq!(frame.data()[4..], 1.5f32.to_le_bytes());
}

// --- SampleProgram (SP) ---

#[test]
fn sp_position_span_is_4pi_on_every_model_not_12_5() {
    for m in RobstrideModel::ALL {
        assert_eq!(
            m.scaling().position.max(),
            4.0 * core::f32::consts::PI,
            "{}",
            m.name()
        );
    }
}

#[test]
fn sp_loc_kp_reply_outside_0x7005_0x701c_is_decoded() {
    let frame = Frame::extended(0x1100_7FFD, [0x1E, 0x70, 0, 0, 0, 0, 0xF0, 0x41]);
    let Ok(Reply::Param(p)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!(p.outcome, ParamOutcome::Value(ParamValue::F32(30.0)));
    // And the last entry of the table too.
    let frame = Frame::extended(0x1100_7FFD, [0x2E, 0x70, 0, 0, 0, 0, 0x20, 0x41]);
    let Ok(Reply::Param(p)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!(p.outcome, ParamOutcome::Value(ParamValue::F32(10.0)));
}

#[test]
fn sp_stop_is_one_frame_and_writes_no_run_mode() {
    let frame = Command::Stop.encode(RobstrideModel::RS01, 0xFD, 0x7F);
    assert_eq!(frame.extended_id(), Some(0x0400_FD7F));
    assert_eq!(frame.data(), [0; 8]);
}

// --- kscalelabs/actuator (KA, §7) and motorbridge (MB, §2) ---

#[test]
fn ka_phase_overcurrent_bits_are_16_4_5_not_13_11_12() {
    assert_eq!(Fault::PhaseAOvercurrent.bit(), 16);
    assert_eq!(Fault::PhaseBOvercurrent.bit(), 4);
    assert_eq!(Fault::PhaseCOvercurrent.bit(), 5);
    let frame = Frame::extended(0x1500_7FFD, [0x00, 0x38, 0, 0, 0, 0, 0, 0]); // bits 11–13
    let Ok(Reply::Fault(f)) = Reply::decode(&frame) else {
        panic!()
    };
    assert_eq!(f.faults.iter().count(), 0);
    assert_eq!(f.faults.unknown_bits(), 0x3800);
}

#[test]
fn mb_set_zero_is_sent_with_8_data_bytes_not_1() {
    let frame = Command::SetZero.encode(RobstrideModel::RS05, 0xFD, 0x7F);
    assert_eq!(frame.data().len(), 8);
}
