//! The behaviour of `mock_components/GenericSystem` across the lifecycle and for sensors, after
//! ros2_control's `test_generic_system.cpp` (the rest is in `generic_system.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;
// Force/torque and contact sensors, on a robot of their own.
#[path = "lifecycle_and_sensors/foot_sensors.rs"]
mod foot_sensors;

use backend_mock::MockSystem;
use common::{CLOCK, CLOSE, inactive, system};
use robot_core::hardware::{Clock, Component, Lifecycle};
use robot_core::model::MockParams;
use robot_core::{ImuState, Quaternion, Vector3};
use robots::{LiteBiped, SixAxisArm, SixAxisArmCommand, SixAxisArmState};

// --- Lifecycle ---

#[test]
fn inactive_system_reads_but_does_not_mirror_new_commands() {
    let (mut system, mut state, mut command) = inactive(MockSystem::<LiteBiped>::new());
    assert_eq!(system.lifecycle(), Lifecycle::Inactive);
    command.left_hip_roll.position = 0.5;
    system.write(CLOCK, &command).unwrap(); // an inactive System sends nothing
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_hip_roll.position, 0.0);

    system.activate(CLOCK, &mut state, &mut command).unwrap();
    command.left_hip_roll.position = 0.5;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_hip_roll.position, 0.5);

    system.deactivate().unwrap();
    command.left_hip_roll.position = 0.9;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.left_hip_roll.position, 0.5,
        "the last command before deactivating stays"
    );
}

#[test]
fn runs_under_the_control_loop() {
    use robot_core::control_loop::{ControlLoop, Controller, ControllerError};

    struct Wave;
    impl Controller<SixAxisArm> for Wave {
        fn update(
            &mut self,
            clock: Clock,
            state: &SixAxisArmState,
            command: &mut SixAxisArmCommand,
        ) -> Result<(), ControllerError> {
            command.elbow.position = state.elbow.position + 0.01;
            command.gripper.position = 0.001 * clock.time.as_secs_f64();
            Ok(())
        }
    }
    let mut control =
        ControlLoop::new(system(MockSystem::<SixAxisArm>::new()).unwrap(), Wave, None);
    control.configure().unwrap();
    control.activate(CLOCK).unwrap();
    for _ in 0..10 {
        control.cycle(CLOCK).unwrap();
    }
    // Each cycle reads the previous cycle's command: nine steps of 0.01 after the first.
    assert!(
        (control.state().elbow.position - 0.09).abs() < CLOSE,
        "{}",
        control.state().elbow.position
    );
}

// --- Sensors ---

#[test]
fn mock_sensor_commands_take_imu_values_from_the_sensor_input() {
    let params = MockParams {
        mock_sensor_commands: true,
        ..MockParams::DEFAULT
    };
    let mock = MockSystem::<LiteBiped>::with_params(params);
    assert_eq!(Component::<LiteBiped>::claims(&mock).sensors, vec![0]);
    let input = mock.sensor_input().unwrap();
    let (mut system, mut state, _) = inactive(mock);
    assert!(system.undriven_sensors().is_empty());
    // GenericSystem's sensor states start at NaN; here at the identity, at rest.
    let at_rest = ImuState {
        orientation: Quaternion {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        angular_velocity: Vector3::default(),
        linear_acceleration: Vector3::default(),
    };
    assert_eq!(state.base_imu, at_rest, "identity, zero rates until set");

    let tilted = ImuState {
        orientation: Quaternion {
            x: 0.0,
            y: 0.6,
            z: 0.0,
            w: 0.8,
        },
        angular_velocity: Vector3 {
            x: 0.0,
            y: 0.1,
            z: 0.0,
        },
        linear_acceleration: Vector3 {
            x: 0.0,
            y: 0.0,
            z: 9.81,
        },
    };
    input.set_imu(0, tilted).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.base_imu, tilted,
        "read while inactive, as sensors are"
    );

    let mut bad = tilted;
    bad.angular_velocity.z = f64::INFINITY;
    let error = input.set_imu(0, bad).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`base_imu/angular_velocity.z` cannot be infinite"
    );

    // Reconfiguring starts the state again; the set last published is applied again.
    system.cleanup().unwrap();
    system.configure().unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.base_imu, tilted);
}

#[test]
#[cfg_attr(miri, ignore = "emits every URDF: safe code, minutes under Miri")]
fn there_is_no_gpio_and_no_mock_gpio_commands() {
    // GenericSystem mirrors `<gpio>` interfaces and takes `mock_gpio_commands`; our model has no
    // GPIO, and the parameter is refused like any unknown one.
    let refused = serde_json::from_str::<MockParams>(r#"{"mock_gpio_commands": true}"#);
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("unknown field `mock_gpio_commands`")
    );
    for robot in robots::all() {
        let urdf = robot_core::emit::urdf(robot, robot_core::Backend::Mock).unwrap();
        assert!(!urdf.contains("<gpio"), "{}", robot.name);
    }
}

#[test]
fn without_mock_sensor_commands_an_imu_nobody_drives_reads_nan() {
    let (mut system, mut state, _) = inactive(MockSystem::<LiteBiped>::new());
    assert_eq!(system.undriven_sensors(), [0]);
    // A fresh state holds the identity orientation and 1 g, a robot standing level and still:
    // a balance controller must not take that for a measurement.
    state.base_imu.linear_acceleration.z = 9.81;
    system.read(CLOCK, &mut state).unwrap();
    let values = [
        state.base_imu.orientation.w,
        state.base_imu.angular_velocity.x,
        state.base_imu.linear_acceleration.z,
    ];
    assert!(values.iter().all(|v| v.is_nan()), "{values:?}");
    // The joints the mock drives read normally.
    assert!(state.left_knee_pitch.position.is_finite());
}
