//! A device mounted rotated in its body still reports the body's orientation, angular velocity
//! and specific force in the body's axes (REP-103: x forward, y left, z up): the mounting is
//! the definition's, the composed origins of the fixed joints from the body to the IMU's link.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::f32::consts::{FRAC_PI_2, PI};

use backend_witmotion::mounting::{Mounting, Rotation};
use robot_core::hardware::{Clock, Component};
use robot_core::typed::RobotTypes;
use witmotion_protocol::Quaternion;
use witmotion_protocol::scale::STANDARD_GRAVITY;
use witmotion_sim::{Motion, SimImu};

mod torso {
    use robot_macros::robot;

    robot! {
        /// A body with its IMU turned a quarter about z, then upside down, through two fixed
        /// joints.
        robot Torso { update_rate: 200 Hz, floating_base: true }
        link body {
            inertial { mass: 1, inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
        }
        link bracket {}
        link imu {}
        joint bracket_mount: fixed {
            parent: body,
            child: bracket,
            origin { xyz: [0.1, 0, 0], rpy: [0, 0, 1.5707963267948966] },
        }
        joint imu_mount: fixed {
            parent: bracket,
            child: imu,
            origin { xyz: [0, 0, 0.02], rpy: [3.141592653589793, 0, 0] },
        }
        imu body_imu {
            link: imu,
            plugin: "humanoid_devices_imu_hardware/YahboomImuSensor",
        }
    }
}

use torso::Torso;

/// The mounting as a device quaternion: a quarter turn about z, then a half turn about the new
/// x (URDF's fixed-axis rpy of each joint, composed from the body out).
fn mounting() -> Quaternion {
    Quaternion::from_euler(0.0, 0.0, FRAC_PI_2) * Quaternion::from_euler(PI, 0.0, 0.0)
}

#[test]
fn the_mounting_is_the_fixed_joints_between_the_body_and_the_imu_link() {
    let mounting = Mounting::of(Torso::DESCRIPTION, "imu").unwrap();
    assert_eq!(mounting.body, "body");
    let expected = mounting_as_rotation();
    let Rotation { x, y, z, w } = mounting.rotation;
    let dot = x * expected.x + y * expected.y + z * expected.z + w * expected.w;
    // Equal to f32 precision, the test's quaternion's.
    assert!(
        dot.abs() > 1.0 - 1e-6,
        "{:?} against {expected:?}",
        mounting.rotation
    );
}

fn mounting_as_rotation() -> Rotation {
    let q = mounting();
    Rotation {
        x: f64::from(q.x),
        y: f64::from(q.y),
        z: f64::from(q.z),
        w: f64::from(q.w),
    }
}

#[test]
fn a_device_mounted_rotated_reports_the_body_tilted_and_gravity_up_the_body() {
    let (roll, pitch) = (0.25f32, 0.4f32);
    let mut options = common::streaming();
    options.mounting = mounting();
    options.motion = Motion::Tilted { roll, pitch };
    let sim = SimImu::spawn(options).unwrap();
    let mut imu = common::component::<Torso>(&sim, common::options(sim.path()));
    imu.on_init().unwrap();
    imu.on_configure().unwrap();
    let mut state = <Torso as RobotTypes>::State::default();
    imu.read(Clock::default(), &mut state).unwrap();
    let reported = state.body_imu;
    // The body's orientation, not the device's (which is upside down).
    let body = Quaternion::from_euler(roll, pitch, 0.0);
    let q = reported.orientation;
    let dot = q.x * f64::from(body.x)
        + q.y * f64::from(body.y)
        + q.z * f64::from(body.z)
        + q.w * f64::from(body.w);
    let error = 2.0 * dot.abs().min(1.0).acos();
    assert!(error < 1e-3, "{error} rad: {q:?}");
    // Gravity's reaction along the body's up, tilted: never along the device's (flipped) z.
    let up = body.conjugate().rotate([0.0, 0.0, STANDARD_GRAVITY]);
    let a = reported.linear_acceleration;
    for (measured, up) in [a.x, a.y, a.z].into_iter().zip(up) {
        assert!(
            (measured - f64::from(up)).abs() < 0.01 * 9.80665,
            "{a:?} against {up:?}"
        );
    }
    assert!(a.z > 8.0, "{a:?}");
}

#[test]
fn a_device_mounted_rotated_reports_the_body_rate_in_the_body_axes() {
    let mut options = common::streaming();
    options.mounting = mounting();
    // Yawing left at 0.5 rad/s: about the body's +z.
    options.motion = Motion::Rotating {
        axis: [0.0, 0.0, 1.0],
        rate: 0.5,
    };
    let sim = SimImu::spawn(options).unwrap();
    let mut imu = common::component::<Torso>(&sim, common::options(sim.path()));
    imu.on_init().unwrap();
    imu.on_configure().unwrap();
    let mut state = <Torso as RobotTypes>::State::default();
    imu.read(Clock::default(), &mut state).unwrap();
    let w = state.body_imu.angular_velocity;
    assert!(
        (w.z - 0.5).abs() < 2e-3 && w.x.abs() < 2e-3 && w.y.abs() < 2e-3,
        "{w:?}"
    );
}
