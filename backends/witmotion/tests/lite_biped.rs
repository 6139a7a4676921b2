//! lite_biped's IMU component on a simulated device over a real pseudo-terminal: what it
//! reports at rest and in motion, and every way the device or the port fails.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::sync::Arc;

use backend_witmotion::reader::ReaderFailure;
use backend_witmotion::serial::SerialError;
use std::time::Duration;

use common::*;
use robot_core::hardware::{Component, ErrorKind};
use robots::LiteBiped;
use witmotion_protocol::scale::STANDARD_GRAVITY;
use witmotion_protocol::{BaudRate, FrameKind, OutputContent, OutputRate, Quaternion};
use witmotion_sim::{Failure, Motion, Settings, SimImu, SimOptions};

/// The angle between two orientations given as ROS-ordered quaternions, rad: from the vector
/// part of their difference, exact near 0 where the arccosine of a dot product is not.
fn angle_between(q: robot_core::Quaternion, expected: Quaternion) -> f64 {
    let e = [expected.x, expected.y, expected.z, expected.w].map(f64::from);
    // conj(e) · q
    let w = e[3] * q.w + e[0] * q.x + e[1] * q.y + e[2] * q.z;
    let x = e[3] * q.x - e[0] * q.w - e[1] * q.z + e[2] * q.y;
    let y = e[3] * q.y + e[0] * q.z - e[1] * q.w - e[2] * q.x;
    let z = e[3] * q.z - e[0] * q.y + e[1] * q.x - e[2] * q.w;
    2.0 * (x * x + y * y + z * z).sqrt().atan2(w.abs())
}

/// Orientation error the codec allows: a quaternion word is 1/32768, so each component is off
/// by at most 1.5e-5, which turns the frame by at most about 6e-5 rad; 1e-3 rad leaves room for
/// a sample taken up to one period before the expected value at 1 rad/s (5 ms: 5e-3 rad is
/// checked separately in the rotating test).
const ORIENTATION_BOUND: f64 = 1e-3;

#[test]
fn at_rest_the_imu_reads_level_with_gravity_within_a_hundredth_of_a_g() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let mut imu = configured(&sim);
    let imu_state = read(&mut imu).unwrap();
    let a = imu_state.linear_acceleration;
    let g = f64::from(STANDARD_GRAVITY);
    let gravity_error = ((a.x * a.x + a.y * a.y + a.z * a.z).sqrt() - g).abs() / g;
    eprintln!("gravity error at rest: {gravity_error:.2e} g");
    assert!((a.z - g).abs() < 0.01 * g, "{a:?}");
    assert!(a.x.abs() < 0.01 * g && a.y.abs() < 0.01 * g, "{a:?}");
    assert!(angle_between(imu_state.orientation, Quaternion::IDENTITY) < ORIENTATION_BOUND);
    let w = imu_state.angular_velocity;
    assert_eq!([w.x, w.y, w.z], [0.0; 3]);
    imu.on_cleanup().unwrap();
}

#[test]
fn tilted_the_imu_reports_the_tilt_and_gravity_along_it() {
    let mut options = streaming();
    let (roll, pitch) = (0.3f32, -0.2f32);
    options.motion = Motion::Tilted { roll, pitch };
    let sim = SimImu::spawn(options).unwrap();
    let mut imu = configured(&sim);
    let state = read(&mut imu).unwrap();
    let expected = Quaternion::from_euler(roll, pitch, 0.0);
    let error = angle_between(state.orientation, expected);
    eprintln!("orientation error, tilted: {error:.2e} rad");
    assert!(error < ORIENTATION_BOUND, "{error}");
    let up = expected
        .conjugate()
        .rotate([0.0, 0.0, STANDARD_GRAVITY])
        .map(f64::from);
    let a = state.linear_acceleration;
    let worst = [a.x, a.y, a.z]
        .into_iter()
        .zip(up)
        .map(|(measured, up)| (measured - up).abs())
        .fold(0.0, f64::max);
    eprintln!("gravity error, tilted: {:.2e} g", worst / 9.80665);
    assert!(worst < 0.01 * 9.80665, "{a:?} {up:?}");
}

#[test]
fn a_rotating_imu_reports_its_rate_and_an_orientation_that_turns() {
    let mut options = streaming();
    options.motion = Motion::Rotating {
        axis: [0.0, 0.0, 1.0],
        rate: 1.0,
    };
    let sim = SimImu::spawn(options).unwrap();
    let mut imu = configured(&sim);
    let first = read(&mut imu).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let later = read(&mut imu).unwrap();
    assert!((later.angular_velocity.z - 1.0).abs() < 2e-3);
    let yaw = |q: robot_core::Quaternion| 2.0 * q.z.atan2(q.w);
    let turned = yaw(later.orientation) - yaw(first.orientation);
    // 0.1 s of sleep at 1 rad/s, give or take a loaded machine's scheduling.
    assert!((0.08..0.5).contains(&turned), "{turned}");
}

#[test]
fn a_silent_imu_is_a_timeout_naming_the_port_and_the_last_frames() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let mut imu = configured(&sim);
    sim.set_failure(Some(Failure::Silent));
    let read = read_until(&mut imu, Duration::from_secs(5), Result::is_err);
    let error = read.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout);
    let message = error.message();
    assert!(
        message.contains(&format!("`base_imu` on `{}`", sim.path())),
        "{message}"
    );
    assert!(
        message.contains("(limit 40 ms; last frames: acceleration"),
        "{message}"
    );
    assert!(
        message.contains("the IMU stopped streaming, or was unplugged"),
        "{message}"
    );
}

#[test]
fn an_unplugged_imu_is_a_bus_error_saying_so() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let mut imu = configured(&sim);
    sim.set_failure(Some(Failure::Unplugged));
    let error = read_until(&mut imu, Duration::from_secs(5), |r| {
        r.as_ref().is_err_and(|e| e.kind() == ErrorKind::Bus)
    })
    .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Bus, "{error}");
    // The reader's failure is the cause, typed; `{:#}` reports it.
    let failure = error
        .cause()
        .and_then(|c| c.downcast_ref::<Arc<ReaderFailure>>());
    assert!(
        matches!(
            failure.map(|f| &**f),
            Some(ReaderFailure::Closed { .. } | ReaderFailure::Read { .. })
        ),
        "{error:?}"
    );
    assert!(
        format!("{error:#}").contains("was the IMU unplugged?"),
        "{error:#}"
    );
}

#[test]
fn flipped_bits_beyond_the_bound_are_an_error_and_below_it_are_not() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let mut imu = configured(&sim);
    // One frame in 50: 2 %, under the 5 % bound; samples keep coming.
    sim.set_failure(Some(Failure::FlipBit { every: 50 }));
    std::thread::sleep(Duration::from_millis(600));
    read(&mut imu).unwrap();
    sim.set_failure(Some(Failure::FlipBit { every: 3 }));
    let error = read_until(&mut imu, Duration::from_secs(5), |r| {
        r.as_ref().is_err_and(|e| e.kind() == ErrorKind::Bus)
    })
    .unwrap_err();
    let report = format!("{error:#}");
    assert!(report.contains("is corrupt:"), "{report}");
    assert!(report.contains("failed their checksum"), "{report}");
}

#[test]
fn garbage_and_truncated_frames_leave_no_fresh_sample() {
    for failure in [Failure::Garbage, Failure::Truncated] {
        let sim = SimImu::spawn(streaming()).unwrap();
        let mut imu = configured(&sim);
        sim.set_failure(Some(failure));
        let error = read_until(&mut imu, Duration::from_secs(5), Result::is_err).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::Timeout | ErrorKind::Bus),
            "{failure:?}: {error}"
        );
    }
}

fn configure_error(sim: &SimImu) -> String {
    let mut imu = component::<LiteBiped>(sim, options(sim.path()));
    imu.on_init().unwrap();
    let error = imu.on_configure().unwrap_err();
    error.message().to_string()
}

#[test]
fn at_the_wrong_baud_configure_says_the_device_is_at_another_rate() {
    let sim = SimImu::spawn(SimOptions::new(Settings::streaming(
        OutputRate::Hz200,
        BaudRate::B115200,
    )))
    .unwrap();
    let message = configure_error(&sim);
    assert!(
        message
            .contains("at 460800 baud but not one valid frame: the device is at another baud rate"),
        "{message}"
    );
    assert!(
        message.contains(&format!("`robot imu scan --port {}`", sim.path())),
        "{message}"
    );
}

#[test]
fn a_device_without_a_needed_kind_or_at_another_rate_is_refused_naming_it() {
    let mut options = streaming();
    options.saved.content = OutputContent::NONE
        .with(FrameKind::Acceleration)
        .with(FrameKind::Quaternion);
    let sim = SimImu::spawn(options).unwrap();
    let message = configure_error(&sim);
    assert!(
        message.contains("sends no angular velocity frames"),
        "{message}"
    );
    assert!(message.contains("robot imu set-content"), "{message}");
    let sim = SimImu::spawn(SimOptions::new(Settings::streaming(
        OutputRate::Hz50,
        BaudRate::B460800,
    )))
    .unwrap();
    let message = configure_error(&sim);
    assert!(message.contains("expected 200 Hz"), "{message}");
    assert!(message.contains("sends acceleration at "), "{message}");
    let silent = SimImu::spawn(SimOptions::new(Settings::streaming(
        OutputRate::Stopped,
        BaudRate::B460800,
    )))
    .unwrap();
    let message = configure_error(&silent);
    assert!(message.contains("is silent: no byte in"), "{message}");
}

#[test]
fn asked_to_configure_the_device_it_writes_content_and_rate_but_saves_nothing() {
    // Factory content (no quaternion), 10 Hz, at the baud the host uses.
    let mut saved = Settings::FACTORY;
    saved.baud = BaudRate::B460800;
    let sim = SimImu::spawn(SimOptions::new(saved)).unwrap();
    let mut options = options(sim.path());
    options.configure_device = true;
    let mut imu = component::<LiteBiped>(&sim, options);
    imu.on_init().unwrap();
    imu.on_configure().unwrap();
    assert_eq!(sim.settings().rate, OutputRate::Hz200);
    assert!(sim.settings().content.contains(FrameKind::Quaternion));
    assert_eq!(sim.saved(), saved, "the saved settings are kept");
    read(&mut imu).unwrap();
}

#[test]
fn without_the_device_file_configure_names_the_port_and_where_to_look() {
    let options = options("/dev/ttyUSB_missing");
    let mut imu = backend_witmotion::WitmotionImu::<LiteBiped>::new("base_imu", options);
    imu.on_init().unwrap();
    let error = imu.on_configure().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Bus);
    let cause = error.cause().and_then(|c| c.downcast_ref::<SerialError>());
    assert!(
        matches!(cause, Some(SerialError::Missing { .. })),
        "{error:?}"
    );
    assert_eq!(
        format!("{error:#}"),
        "LiteBipedIMU: `base_imu`: no serial port `/dev/ttyUSB_missing`: is the IMU plugged in? \
         `ls /dev/serial/by-id` lists the USB serial devices (a by-id path stays the same \
         across reboots)"
    );
}

#[test]
fn cleanup_stops_the_reader_and_closes_the_port() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let mut imu = configured(&sim);
    // Open, the port is the component's alone (exclusive).
    assert!(backend_witmotion::serial::open(sim.path(), BAUD).is_err());
    imu.on_cleanup().unwrap();
    // The reader was joined and its port closed: the port can be opened again.
    drop(backend_witmotion::serial::open(sim.path(), BAUD).unwrap());
    assert_eq!(read(&mut imu).unwrap_err().kind(), ErrorKind::Lifecycle);
    // And configured again.
    imu.on_configure().unwrap();
    read(&mut imu).unwrap();
}

#[test]
fn dropping_the_component_stops_the_reader_and_closes_the_port() {
    let sim = SimImu::spawn(streaming()).unwrap();
    let imu = configured(&sim);
    assert!(backend_witmotion::serial::open(sim.path(), BAUD).is_err());
    drop(imu);
    drop(backend_witmotion::serial::open(sim.path(), BAUD).unwrap());
}
