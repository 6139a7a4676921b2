//! `calculate_dynamics`: GenericSystem's integration and differentiation, after the
//! `simple_dynamics_*` cases of ros2_control's `test_generic_system.cpp`, on a robot defined here
//! with a velocity-only joint, velocity and acceleration commands, and a mimic joint.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::Duration;

use backend_mock::{CommandMode, MockSystem};
use common::{CLOCK, CLOSE, PERIOD, active, joint_index, unsupported};
use robot_core::hardware::Clock;
use robot_core::model::MockParams;
use robot_macros::robot;

robot! {
    /// `calculate_dynamics` on: a velocity-only wheel, a lift with velocity and acceleration
    /// commands, a position-commanded arm with an effort, and a mimic of the arm.
    robot Dynamics {
        update_rate: 100 Hz,
        mock { calculate_dynamics: true },
    }
    bus main {}
    link base {}
    link rim {}
    link carriage {}
    link upper {}
    link mirror {}
    joint wheel: continuous {
        parent: base, child: rim,
        limits { velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [velocity],
        state: [position = 3.45],
    }
    joint lift: prismatic {
        parent: base, child: carriage,
        limits { lower: -10, upper: 10, velocity: 10, effort: 10 },
        // 6 m a turn: no real drive, but one that lets the ported ±10 m at 10 m/s pass the
        // RS02's ±4π and 44 rad/s.
        actuator { bus: main, can_id: 2, model: RS02, lead: 6 },
        command: [velocity, acceleration],
        state: [position = 2.78, velocity, acceleration],
    }
    joint arm: revolute {
        parent: base, child: upper,
        limits { lower: -5, upper: 5, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 3, model: RS02 },
        command: [position, velocity, effort],
        state: [position = 3.45, velocity, acceleration, effort],
    }
    joint arm_mimic: revolute {
        parent: base, child: mirror,
        limits { lower: -20, upper: 20, velocity: 10, effort: 10 },
        mimic { joint: arm, multiplier: -2, offset: 0.5 },
        state: [position, velocity, acceleration],
    }
}

#[test]
fn calculate_dynamics_velocity_mode_integrates_position() {
    let (mut system, mut state, mut command) = active(MockSystem::<Dynamics>::new());
    command.wheel.velocity = 0.11;
    command.lift.velocity = 3.5;
    system.write(CLOCK, &command).unwrap();
    assert_eq!(state.wheel.position, 3.45);
    for n in 1..=3 {
        system.read(CLOCK, &mut state).unwrap();
        let n = f64::from(n);
        assert!((state.wheel.position - (3.45 + 0.11 * n * PERIOD)).abs() < CLOSE);
        assert!((state.lift.position - (2.78 + 3.5 * n * PERIOD)).abs() < CLOSE);
        assert_eq!(state.lift.velocity, 3.5);
    }
    // The acceleration is the velocity step over the period, then zero.
    let (mut system, mut state, mut command) = active(MockSystem::<Dynamics>::new());
    command.lift.velocity = 2.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert!((state.lift.acceleration - 2.0 / PERIOD).abs() < CLOSE);
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.lift.acceleration, 0.0);
}

#[test]
fn calculate_dynamics_position_mode_differentiates_velocity() {
    let (mut system, mut state, mut command) = active(MockSystem::<Dynamics>::new());
    command.arm.position = 0.11;
    command.arm.effort = 4.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    let v = (0.11 - 3.45) / PERIOD;
    assert_eq!(state.arm.position, 0.11);
    assert!((state.arm.velocity - v).abs() < CLOSE);
    assert!((state.arm.acceleration - v / PERIOD).abs() < 1e-6);
    assert_eq!(state.arm.effort, 4.0, "other interfaces are still mirrored");
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.arm.velocity, 0.0);
    assert!((state.arm.acceleration + v / PERIOD).abs() < 1e-6);
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!((state.arm.velocity, state.arm.acceleration), (0.0, 0.0));
}

#[test]
fn calculate_dynamics_acceleration_mode_integrates_velocity_then_position() {
    let lift = joint_index::<Dynamics>("lift");
    let (mut system, mut state, mut command) =
        active(MockSystem::<Dynamics>::new().with_command_mode(lift, CommandMode::Acceleration));
    command.lift.acceleration = 3.5;
    command.lift.velocity = 100.0; // not followed in acceleration mode
    system.write(CLOCK, &command).unwrap();
    let (mut p, mut v) = (2.78, 0.0);
    for _ in 0..3 {
        system.read(CLOCK, &mut state).unwrap();
        v += 3.5 * PERIOD;
        p += v * PERIOD;
        assert_eq!(state.lift.acceleration, 3.5);
        assert!((state.lift.velocity - v).abs() < CLOSE);
        assert!((state.lift.position - p).abs() < CLOSE);
    }
}

#[test]
fn calculate_dynamics_uses_the_clock_period() {
    let (mut system, mut state, mut command) = active(MockSystem::<Dynamics>::new());
    command.wheel.velocity = 1.0;
    system.write(CLOCK, &command).unwrap();
    let slow = Clock {
        time: Duration::ZERO,
        period: Duration::from_millis(250),
    };
    system.read(slow, &mut state).unwrap();
    assert!((state.wheel.position - (3.45 + 0.25)).abs() < CLOSE);
}

#[test]
fn command_mode_needs_that_command() {
    let wheel = joint_index::<Dynamics>("wheel");
    let message =
        unsupported(MockSystem::<Dynamics>::new().with_command_mode(wheel, CommandMode::Position));
    assert!(
        message.contains("joint `wheel` has no `position` command"),
        "{message}"
    );
}

#[test]
fn mimic_joint_follows_velocity_and_acceleration_with_the_multiplier_only() {
    // Position gets the offset, velocity and acceleration only the multiplier, every read.
    let (mut system, mut state, mut command) = active(MockSystem::<Dynamics>::new());
    command.arm.position = 3.55;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert!((state.arm_mimic.position - (0.5 - 2.0 * 3.55)).abs() < CLOSE);
    assert!((state.arm_mimic.velocity - (-2.0 * state.arm.velocity)).abs() < CLOSE);
    assert!((state.arm_mimic.acceleration - (-2.0 * state.arm.acceleration)).abs() < 1e-6);
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.arm_mimic.velocity, 0.0);
}

#[test]
fn the_following_offset_reaches_integrated_positions_only_through_on_configure() {
    // GenericSystem's velocity and acceleration modes add the offset on every read until the
    // first finite velocity (an operator-precedence slip); here only on_configure adds it.
    let params = MockParams {
        position_state_following_offset: -3.0,
        ..Dynamics::DESCRIPTION.mock
    };
    let (mut system, mut state, _) = common::inactive(MockSystem::<Dynamics>::with_params(params));
    assert!((state.wheel.position - (3.45 - 3.0)).abs() < CLOSE);
    for _ in 0..3 {
        system.read(CLOCK, &mut state).unwrap();
    }
    assert!(
        (state.wheel.position - (3.45 - 3.0)).abs() < CLOSE,
        "no velocity yet, so no motion: {}",
        state.wheel.position
    );
}
