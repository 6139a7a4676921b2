//! Bringing up a factory-fresh simulated IMU through the real serial path, as `robot imu`
//! does: found at its baud, set to what the component needs, saved.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use witmotion_protocol::{BaudRate, Calibration, FrameKind, OutputRate};
use witmotion_sim::{Settings, SimImu, SimOptions};
use witmotion_tools::bringup::{self, BringUp, BringUpError};

#[test]
fn a_factory_device_is_found_set_up_for_the_component_and_saved() {
    let sim = SimImu::spawn(SimOptions::new(Settings::FACTORY)).unwrap();
    let found = BringUp::scan(sim.path()).unwrap();
    assert_eq!(found.baud, BaudRate::B9600);
    assert_eq!(
        found.kinds,
        [
            FrameKind::Acceleration,
            FrameKind::AngularVelocity,
            FrameKind::Angle,
            FrameKind::MagneticField
        ]
    );
    assert_eq!(found.registers.unwrap().rate, OutputRate::Hz10 as u16);
    assert_eq!(found.version, Some(witmotion_sim::VERSION));

    let device = BringUp::open(sim.path(), 9600).unwrap();
    let (mut device, registers) = device.set_baud(BaudRate::B460800).unwrap();
    assert_eq!(registers.baud, BaudRate::B460800 as u16);
    let wanted = bringup::parse_content("acceleration,angular_velocity,quaternion").unwrap();
    assert_eq!(device.set_content(wanted).unwrap().content, wanted);
    device.set_rate(OutputRate::Hz200).unwrap();
    device
        .calibrate(Calibration::Accelerometer, Duration::from_millis(50))
        .unwrap();
    device.save().unwrap();
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        sim.saved(),
        Settings::streaming(OutputRate::Hz200, BaudRate::B460800)
    );
    assert_eq!(
        sim.calibrations(),
        [Calibration::Accelerometer, Calibration::End]
    );
    let sets = device.read_sets(2).unwrap();
    assert_eq!(sets.len(), 2);
    let kinds: Vec<FrameKind> = sets[0].iter().map(|r| r.kind()).collect();
    assert_eq!(
        kinds,
        [
            FrameKind::Acceleration,
            FrameKind::AngularVelocity,
            FrameKind::Quaternion
        ]
    );
}

#[test]
fn a_device_that_sends_nothing_is_not_found_and_says_where_to_look() {
    let mut silent = Settings::FACTORY;
    silent.rate = OutputRate::Stopped;
    let sim = SimImu::spawn(SimOptions::new(silent)).unwrap();
    let error = BringUp::scan(sim.path()).unwrap_err();
    assert!(matches!(error, BringUpError::NotFound { .. }), "{error}");
    assert!(
        error.to_string().contains("ls /dev/serial/by-id"),
        "{error}"
    );
}

#[test]
fn rates_bauds_and_kinds_are_parsed_or_refused_naming_the_choices() {
    assert_eq!(bringup::parse_rate("200").unwrap(), OutputRate::Hz200);
    assert_eq!(bringup::parse_rate("0.2").unwrap(), OutputRate::Hz0_2);
    assert!(
        bringup::parse_rate("300")
            .unwrap_err()
            .contains("give 0.2, 0.5")
    );
    assert!(
        bringup::parse_baud("460801")
            .unwrap_err()
            .contains("460800")
    );
    assert!(
        bringup::parse_content("acceleration,gyro")
            .unwrap_err()
            .contains(
                "`gyro` is no frame kind; the kinds are time, acceleration, angular_velocity"
            )
    );
}
