//! Force/torque and contact sensors on the mock: with `mock_sensor_commands` the mock backs them
//! as it backs an IMU, each from the sensor input, whole sensor at a time; without it nobody
//! drives them and they read NaN, as GenericSystem's do.

use crate::common::{CLOCK, inactive};
use backend_mock::MockSystem;
use robot_core::hardware::Component;
use robot_core::model::MockParams;
use robot_core::{ContactState, ForceTorqueState, ImuState, Vector3};
use robot_macros::robot;

robot! {
    robot Walker { update_rate: 200 Hz, floating_base: true }
    bus legs {}
    link pelvis {}
    link imu {}
    link foot { collision box { size: [0.12, 0.06, 0.02] } }
    joint imu_frame: fixed { parent: pelvis, child: imu }
    joint knee: revolute {
        parent: pelvis,
        child: foot,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: legs, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    imu base_imu { link: imu, plugin: "pkg/Imu" }
    force_torque foot_ft { link: foot, plugin: "pkg/Ft" }
    contact sole { link: foot, plugin: "pkg/Switch" }
}

fn backed() -> MockSystem<Walker> {
    MockSystem::<Walker>::with_params(MockParams {
        mock_sensor_commands: true,
        ..MockParams::DEFAULT
    })
}

#[test]
fn each_kind_of_sensor_takes_its_values_from_the_sensor_input() {
    let mock = backed();
    assert_eq!(Component::<Walker>::claims(&mock).sensors, vec![0, 1, 2]);
    let input = mock.sensor_input().unwrap();
    let (mut system, mut state, _) = inactive(mock);
    assert!(system.undriven_sensors().is_empty());
    assert_eq!(
        state.foot_ft,
        ForceTorqueState::default(),
        "no force until set"
    );
    assert_eq!(state.sole, ContactState::default(), "no contact until set");
    assert_eq!(state.base_imu, ImuState::default());

    let wrench = ForceTorqueState {
        force: Vector3 {
            x: 1.0,
            y: -2.0,
            z: -40.0,
        },
        torque: Vector3 {
            x: 0.1,
            y: 0.2,
            z: 0.3,
        },
    };
    let pressed = ContactState {
        contact: 1.0,
        normal_force: 40.5,
    };
    input.set_force_torque(1, wrench).unwrap();
    input.set_contact(2, pressed).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.foot_ft, wrench);
    assert_eq!(state.sole, pressed);
    assert_eq!(state.base_imu, ImuState::default(), "the IMU untouched");

    // A NaN leaves that state as it was; the rest of the sensor is taken.
    input
        .set_contact(
            2,
            ContactState {
                contact: 0.0,
                normal_force: f64::NAN,
            },
        )
        .unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.sole.contact, 0.0);
    assert_eq!(state.sole.normal_force, 40.5);
}

#[test]
fn values_for_another_kind_or_infinite_ones_are_refused() {
    let input = backed().sensor_input().unwrap();
    let error = input.set_contact(1, ContactState::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "sensor `foot_ft` is a force/torque sensor, not a contact sensor"
    );
    let error = input.set_imu(2, ImuState::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "sensor `sole` is a contact sensor, not an IMU"
    );
    let mut wrench = ForceTorqueState::default();
    wrench.torque.y = f64::NEG_INFINITY;
    let error = input.set_force_torque(1, wrench).unwrap_err();
    assert_eq!(error.to_string(), "`foot_ft/torque.y` cannot be infinite");
}

#[test]
fn without_mock_sensor_commands_nobody_drives_them_and_they_read_nan() {
    let (system, state, _) = inactive(MockSystem::<Walker>::new());
    assert_eq!(system.undriven_sensors(), vec![0, 1, 2]);
    assert!(state.foot_ft.force.z.is_nan() && state.foot_ft.torque.x.is_nan());
    assert!(state.sole.contact.is_nan() && state.sole.normal_force.is_nan());
}
