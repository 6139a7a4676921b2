//! Configuration commands against the bytes WitMotion's SDK writes
//! (`WITMOTION/WitStandardProtocol_JY901`, commit e8f4e3a: `Linux_C/normal/wit_c_sdk.c` and
//! `ROS/wit/wit_ros_ws/src/scripts/wit_normal_ros.py`), and decoded back as a simulated device
//! reads them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use witmotion_protocol::{
    BaudRate, Calibration, Command, CommandError, FrameKind, OutputContent, OutputRate, register,
};

#[test]
fn commands_are_the_bytes_the_sdk_sends() {
    let cases = [
        // wit_normal_ros.py: unlock_imu_cmd, save_param_cmd, reboot_cmd, exti_cali_cmd,
        // reset_mag_param_cmd, enter_mag_cali_cmd, set_rsw_demo_cmd ("time acc gyro angle
        // mag"), read_mag_offset_cmd.
        (Command::Unlock, [0xFF, 0xAA, 0x69, 0x88, 0xB5]),
        (Command::Save, [0xFF, 0xAA, 0x00, 0x00, 0x00]),
        (Command::Restart, [0xFF, 0xAA, 0x00, 0xFF, 0x00]),
        (
            Command::Calibrate(Calibration::End),
            [0xFF, 0xAA, 0x01, 0x00, 0x00],
        ),
        (
            Command::Calibrate(Calibration::Magnetometer),
            [0xFF, 0xAA, 0x01, 0x07, 0x00],
        ),
        (
            Command::Calibrate(Calibration::MagnetometerTwoStep),
            [0xFF, 0xAA, 0x01, 0x09, 0x00],
        ),
        (
            Command::SetOutputContent(
                OutputContent::NONE
                    .with(FrameKind::Time)
                    .with(FrameKind::Acceleration)
                    .with(FrameKind::AngularVelocity)
                    .with(FrameKind::Angle)
                    .with(FrameKind::MagneticField),
            ),
            [0xFF, 0xAA, 0x02, 0x1F, 0x00],
        ),
        (
            Command::ReadRegisters { first: 0x0B },
            [0xFF, 0xAA, 0x27, 0x0B, 0x00],
        ),
        // wit_c_sdk.c: WitStartAccCali (CALSW ← CALGYROACC), WitSetOutputRate,
        // WitSetUartBaud, WitCaliRefAngle; REG.h CALANGLEZ for the heading.
        (
            Command::Calibrate(Calibration::Accelerometer),
            [0xFF, 0xAA, 0x01, 0x01, 0x00],
        ),
        (
            Command::Calibrate(Calibration::HeadingReset),
            [0xFF, 0xAA, 0x01, 0x04, 0x00],
        ),
        (
            Command::Calibrate(Calibration::AngleReference),
            [0xFF, 0xAA, 0x01, 0x08, 0x00],
        ),
        (
            Command::SetOutputRate(OutputRate::Hz200),
            [0xFF, 0xAA, 0x03, 0x0B, 0x00],
        ),
        (
            Command::SetBaudRate(BaudRate::B115200),
            [0xFF, 0xAA, 0x04, 0x06, 0x00],
        ),
        (Command::FactoryReset, [0xFF, 0xAA, 0x00, 0x01, 0x00]),
        (
            Command::WriteRegister {
                register: 0x23,
                value: 1,
            },
            [0xFF, 0xAA, 0x23, 0x01, 0x00],
        ),
    ];
    for (command, bytes) in cases {
        assert_eq!(command.encode(), bytes, "{command:?}");
        assert_eq!(Command::decode(&bytes), Ok(command), "{bytes:02X?}");
    }
}

#[test]
fn every_rate_and_baud_code_round_trips() {
    for (code, rate) in (1u8..).zip(OutputRate::ALL) {
        assert_eq!(rate as u8, code);
        assert_eq!(OutputRate::from_code(code), Some(rate));
        let command = Command::SetOutputRate(rate);
        assert_eq!(Command::decode(&command.encode()), Ok(command));
    }
    assert_eq!(OutputRate::Hz10.hertz(), Some(10.0));
    assert_eq!(OutputRate::Stopped.hertz(), None);
    for (code, baud) in (1u8..).zip(BaudRate::ALL) {
        assert_eq!(BaudRate::from_code(code), Some(baud));
        assert_eq!(
            BaudRate::from_bits_per_second(baud.bits_per_second()),
            Some(baud)
        );
    }
    assert_eq!(BaudRate::from_bits_per_second(1_000_000), None);
    for code in [0, 0x0E, 0xFF] {
        assert_eq!(OutputRate::from_code(code), None);
    }
}

#[test]
fn output_content_bits_follow_the_type_byte() {
    assert_eq!(OutputContent::bit(FrameKind::Time), Some(1));
    assert_eq!(OutputContent::bit(FrameKind::Quaternion), Some(0x200));
    assert_eq!(OutputContent::bit(FrameKind::GpsAccuracy), Some(0x400));
    assert_eq!(OutputContent::bit(FrameKind::RegisterValues), None);
    let content = OutputContent::DEFAULT.with(FrameKind::Quaternion);
    assert_eq!(content.bits(), 0x021E);
    assert!(content.contains(FrameKind::Angle) && !content.contains(FrameKind::Time));
    assert!(!content.contains(FrameKind::RegisterValues));
}

#[test]
fn undefined_values_and_headers_are_refused() {
    let refused = [
        [0xFF, 0xAA, register::KEY, 0x00, 0x00],
        [0xFF, 0xAA, register::SAVE, 0x02, 0x00],
        [0xFF, 0xAA, register::CALSW, 0x02, 0x00],
        [0xFF, 0xAA, register::CALSW, 0x01, 0x01],
        [0xFF, 0xAA, register::RRATE, 0x0E, 0x00],
        [0xFF, 0xAA, register::BAUD, 0x00, 0x00],
        [0xFF, 0xAA, register::READADDR, 0x00, 0x01],
    ];
    for bytes in refused {
        let value = u16::from_le_bytes([bytes[3], bytes[4]]);
        assert_eq!(
            Command::decode(&bytes),
            Err(CommandError::Value {
                register: bytes[2],
                value
            })
        );
    }
    assert_eq!(
        Command::decode(&[0xFF, 0xAB, 0, 0, 0]),
        Err(CommandError::Header {
            found: [0xFF, 0xAB]
        })
    );
}

#[test]
fn every_command_decodes_or_is_refused_and_re_encodes_to_itself() {
    for register in 0..=255u8 {
        for value in (0..=0x0Fu16).chain([0x00FF, 0x0100, 0xB588, 0xFFFF]) {
            let [lo, hi] = value.to_le_bytes();
            let bytes = [0xFF, 0xAA, register, lo, hi];
            match Command::decode(&bytes) {
                Ok(command) => assert_eq!(command.encode(), bytes, "{command:?}"),
                Err(CommandError::Value {
                    register: r,
                    value: v,
                }) => {
                    assert_eq!((r, v), (register, value))
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
}
