//! The behaviour of `mock_components/GenericSystem`, case by case after ros2_control's
//! `test_generic_system.cpp`, run through `robot_core::hardware::System` on the shipped robots and
//! on small robots defined here for what those cannot show. `calculate_dynamics` has its own file.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_mock::MockSystem;
use common::{CLOCK, CLOSE, active, inactive, joint_index, system, unsupported};
use robot_core::hardware::{Component, ErrorKind, Lifecycle};
use robot_core::model::MockParams;
use robot_core::{InterfaceKind, Values};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState, SixAxisArm, SixAxisArmState};

use common::robots::{Chain, Lopsided, Offset, OffsetCommand, OffsetState};

// --- Claims and initial values ---

#[test]
fn claims_every_controlled_joint_and_no_sensor() {
    let biped = MockSystem::<LiteBiped>::new();
    assert_eq!(Component::<LiteBiped>::name(&biped), "LiteBipedHardware");
    let claims = Component::<LiteBiped>::claims(&biped);
    let names: Vec<&str> = claims
        .joints
        .iter()
        .map(|&j| LiteBiped::DESCRIPTION.joints[j].name.as_ref())
        .collect();
    assert_eq!(names.len(), 14);
    assert!(
        !names.contains(&"imu_frame"),
        "a fixed joint has nothing to mock"
    );
    assert!(
        claims.sensors.is_empty(),
        "the mock description has no sensors"
    );
    assert!(biped.sensor_input().is_none());

    let arm = MockSystem::<SixAxisArm>::new();
    let claims = Component::<SixAxisArm>::claims(&arm);
    assert_eq!(
        claims.joints.len(),
        8,
        "six axes, the gripper and its mimic"
    );
}

#[test]
fn initial_values_are_the_first_state() {
    let mut system = system(MockSystem::<Offset>::with_params(MockParams::DEFAULT)).unwrap();
    system.configure().unwrap();
    // The loop's struct may hold anything; the first read replaces it with the initial values.
    let mut state = OffsetState::default();
    state.as_mut_slice().fill(99.0);
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!((state.joint1.position, state.joint1.velocity), (3.45, 0.0));
    assert_eq!(
        (
            state.joint2.position,
            state.joint2.velocity,
            state.joint2.current
        ),
        (2.78, 0.0, 0.0)
    );
    assert_eq!(state.joint2.temperature, 25.0);
    assert_eq!(
        (state.joint3.position, state.joint3.acceleration),
        (0.0, 0.5)
    );
}

#[test]
fn reconfiguring_starts_again_from_the_initial_values() {
    let (mut system, mut state, mut command) =
        active(MockSystem::<Offset>::with_params(MockParams::DEFAULT));
    command.joint1.position = 1.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, 1.0);
    system.deactivate().unwrap();
    system.cleanup().unwrap();
    system.configure().unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.joint1.position, 3.45,
        "and the stored commands are gone too"
    );
}

#[test]
fn reconfiguring_does_not_add_the_offset_again() {
    // GenericSystem's on_configure keeps the states and adds the offset to the positions every
    // time (3.45 - 3 - 3 after a second configure); here it starts again from the initial values.
    let (mut system, mut state, mut command) = active(MockSystem::<Offset>::new());
    command.joint1.position = 1.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, 1.0 - 3.0);
    system.deactivate().unwrap();
    system.cleanup().unwrap();
    system.configure().unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert!(
        (state.joint1.position - (3.45 - 3.0)).abs() < CLOSE,
        "{}",
        state.joint1.position
    );
}

// --- Mirroring ---

#[test]
fn commands_are_mirrored_on_the_next_read() {
    let (mut system, mut state, mut command) = active(MockSystem::<LiteBiped>::new());
    command.left_knee_pitch.position = 0.11;
    command.left_knee_pitch.velocity = 0.22;
    command.left_knee_pitch.effort = 1.5;
    command.left_knee_pitch.stiffness = 40.0;
    command.left_knee_pitch.damping = 2.0;
    system.write(CLOCK, &command).unwrap();
    assert_eq!(
        state.left_knee_pitch.position, 0.0,
        "write changes no state"
    );
    system.read(CLOCK, &mut state).unwrap();
    let knee = state.left_knee_pitch;
    assert_eq!(
        (knee.position, knee.velocity, knee.effort),
        (0.11, 0.22, 1.5)
    );

    // The stored command is mirrored on every read until the next write.
    command.left_knee_pitch.position = 0.55;
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_knee_pitch.position, 0.11);
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_knee_pitch.position, 0.55);
}

#[test]
fn every_same_named_interface_is_mirrored() {
    let (mut system, mut state, mut command) =
        active(MockSystem::<Offset>::with_params(MockParams::DEFAULT));
    command.joint2.current = 3.0;
    command.joint3.acceleration = -1.25;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint2.current, 3.0);
    assert_eq!(state.joint3.acceleration, -1.25);
    assert_eq!(
        state.joint3.position, 0.0,
        "no position command, nothing to mirror"
    );
    assert_eq!(
        state.joint2.temperature, 25.0,
        "a state without a command keeps its initial value"
    );
}

#[test]
fn seeded_safe_commands_hold_the_joints_still() {
    let (mut system, mut state, command) =
        active(MockSystem::<Offset>::with_params(MockParams::DEFAULT));
    let before = state;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, before.joint1.position);
    assert_eq!(state.joint2.position, before.joint2.position);
    assert_eq!(state.joint1.velocity, 0.0);
}

#[test]
fn nan_command_leaves_state() {
    let (mut system, mut state, mut command) = active(MockSystem::<LiteBiped>::new());
    command.right_hip_yaw.position = 0.3;
    command.right_hip_yaw.velocity = 0.4;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    command.right_hip_yaw.position = f64::NAN;
    command.right_hip_yaw.velocity = f64::NAN;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        (state.right_hip_yaw.position, state.right_hip_yaw.velocity),
        (0.3, 0.4)
    );

    // A command never set is NaN from the start: the initial state stays.
    let (mut system, mut state, _) =
        inactive(MockSystem::<Offset>::with_params(MockParams::DEFAULT));
    system
        .activate(CLOCK, &mut state, &mut OffsetCommand::default())
        .unwrap();
    system.write(CLOCK, &OffsetCommand::default()).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, 3.45);
}

#[test]
fn infinite_command_is_an_error() {
    // Driven directly, without a System, to see what the mock kept after the refusal.
    let mut mock = MockSystem::<LiteBiped>::new();
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
    mock.on_init().unwrap();
    mock.on_configure().unwrap();
    mock.read(CLOCK, &mut state).unwrap();
    robot_core::hardware::seed_safe_commands::<LiteBiped>(&state, &mut command);
    mock.on_activate(&state, &mut command).unwrap();
    command.left_knee_pitch.position = 0.2;
    command.left_knee_pitch.velocity = f64::INFINITY;
    let error = mock.write(CLOCK, &command).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidCommand);
    assert_eq!(
        error.to_string(),
        "LiteBipedHardware: command `left_knee_pitch/velocity` is inf"
    );
    mock.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.left_knee_pitch.position, 0.0,
        "nothing of the bad set was stored"
    );

    // Gains have no state, but an infinite one is refused all the same.
    command.left_knee_pitch.velocity = 0.0;
    command.right_ankle_roll.stiffness = f64::NEG_INFINITY;
    let error = mock.write(CLOCK, &command).unwrap_err();
    assert!(
        error
            .message()
            .contains("`right_ankle_roll/stiffness` is -inf"),
        "{error}"
    );

    // In a System the error sends the mock through on_error (unconfigured, as upstream);
    // configured and activated again with finite commands, it recovers.
    let (mut system, mut state, mut command) = active(MockSystem::<LiteBiped>::new());
    command.left_knee_pitch.velocity = f64::INFINITY;
    assert!(system.write(CLOCK, &command).is_err());
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
    system.configure().unwrap();
    system.activate(CLOCK, &mut state, &mut command).unwrap();
    command.left_knee_pitch.position = 0.2;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_knee_pitch.position, 0.2);
}

#[test]
fn unknown_params_are_ignored() {
    // The ankle pitch is driven through a four-bar, the left hip pitch is mounted reversed: the
    // mock knows neither and mirrors in joint space like for any joint.
    let biped = LiteBiped::DESCRIPTION;
    let ankle = biped.joint("left_ankle_pitch").unwrap();
    assert!(ankle.actuator.as_ref().unwrap().four_bar.is_some());
    let hip = biped.joint("left_hip_pitch").unwrap();
    assert_eq!(hip.actuator.as_ref().unwrap().direction.sign(), -1.0);

    let (mut system, mut state, mut command) = active(MockSystem::<LiteBiped>::new());
    command.left_ankle_pitch.position = 0.4;
    command.left_ankle_pitch.velocity = -0.5;
    command.left_ankle_pitch.effort = 2.0;
    command.left_hip_pitch.position = -1.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    let a = state.left_ankle_pitch;
    assert_eq!((a.position, a.velocity, a.effort), (0.4, -0.5, 2.0));
    assert_eq!(state.left_hip_pitch.position, -1.0);
}

// --- Following offset ---

#[test]
fn position_state_following_offset() {
    // `mock { position_state_following_offset: -3 }` in the definition, as in the source's test.
    assert_eq!(
        Offset::DESCRIPTION.mock.position_state_following_offset,
        -3.0
    );
    let (mut system, mut state, mut command) = inactive(MockSystem::<Offset>::new());
    assert!(
        (state.joint1.position - (3.45 - 3.0)).abs() < CLOSE,
        "on_configure adds it once"
    );
    assert!((state.joint2.position - (2.78 - 3.0)).abs() < CLOSE);
    assert_eq!(state.joint1.velocity, 0.0);
    system.activate(CLOCK, &mut state, &mut command).unwrap();
    command.joint1.position = 0.11;
    command.joint1.velocity = 0.22;
    command.joint2.position = 0.33;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, 0.11 - 3.0);
    assert_eq!(state.joint1.velocity, 0.22, "only positions get the offset");
    assert_eq!(state.joint2.position, 0.33 - 3.0);
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.joint1.position,
        0.11 - 3.0,
        "added to the command, not accumulated"
    );
}

#[test]
fn custom_interface_with_following_offset_takes_the_offset() {
    let mock = MockSystem::<Offset>::new()
        .with_custom_interface_with_following_offset(InterfaceKind::Current);
    let (mut system, mut state, mut command) = inactive(mock);
    assert_eq!(state.joint1.position, 3.45, "the position gets no offset");
    system.activate(CLOCK, &mut state, &mut command).unwrap();
    command.joint2.position = 0.33;
    command.joint2.current = 7.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint2.position, 0.33);
    assert_eq!(
        state.joint2.current,
        0.33 - 3.0,
        "the custom interface follows the position command"
    );
}

#[test]
fn custom_interface_with_following_offset_works_without_an_offset() {
    // GenericSystem reads `custom_interface_with_following_offset` only when
    // `position_state_following_offset` is given, and would mirror the `current` command here.
    let mock = MockSystem::<Offset>::with_params(MockParams::DEFAULT)
        .with_custom_interface_with_following_offset(InterfaceKind::Current);
    let (mut system, mut state, mut command) = active(mock);
    command.joint2.position = 0.33;
    command.joint2.current = 7.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state.joint2.current, 0.33,
        "the position command, not the current command"
    );
}

#[test]
fn custom_interface_with_following_offset_must_be_a_non_standard_state() {
    let message = unsupported(
        MockSystem::<Offset>::new()
            .with_custom_interface_with_following_offset(InterfaceKind::Velocity),
    );
    assert!(message.contains("not `velocity`"), "{message}");
    let message = unsupported(
        MockSystem::<LiteBiped>::new()
            .with_custom_interface_with_following_offset(InterfaceKind::Current),
    );
    assert!(
        message.contains("no joint has a `position` command and a `current` state"),
        "{message}"
    );
}

// --- Mimic joints ---

#[test]
fn mimic_joint_follows_with_multiplier() {
    let (mut system, mut state, mut command) = active(MockSystem::<SixAxisArm>::new());
    command.gripper.position = 0.03;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.gripper.position, 0.03);
    assert_eq!(
        state.gripper_mimic.position, -0.03,
        "multiplier -1, offset 0"
    );
    assert_eq!(state.gripper_mimic.velocity, -state.gripper.velocity);
}

#[test]
fn chained_mimics_follow_in_the_same_read_whatever_the_declaration_order() {
    // `grandchild` follows `child`, declared after it. GenericSystem updates mimics in declaration
    // order, so it would give `grandchild` the previous read's `child` (0.1 on the first read).
    let (mut system, mut state, mut command) = active(MockSystem::<Chain>::new());
    command.leader.position = 0.2;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert!((state.child.position - 0.4).abs() < CLOSE);
    assert!(
        (state.grandchild.position - (0.1 + 3.0 * 0.4)).abs() < CLOSE,
        "{}",
        state.grandchild.position
    );
}

#[test]
fn mimic_of_a_joint_without_that_state_is_unsupported() {
    let message = unsupported(MockSystem::<Lopsided>::new());
    assert!(
        message.contains("mimic joint `follower` has a `velocity` state, but `leader`, which it follows, has none"),
        "{message}"
    );
}

// --- disable_commands and disabled joints ---

#[test]
fn disable_commands_freezes_states() {
    let params = MockParams {
        disable_commands: true,
        ..MockParams::DEFAULT
    };
    let (mut system, mut state, mut command) =
        active(MockSystem::<SixAxisArm>::with_params(params));
    command.elbow.position = 0.11;
    command.gripper.position = 0.02;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(
        state,
        SixAxisArmState::default(),
        "the initial values, mimic joint included"
    );

    // Not even an infinite command reaches it.
    command.elbow.position = f64::INFINITY;
    system.write(CLOCK, &command).unwrap();

    let (mut system, mut state, mut command) = active(MockSystem::<Offset>::with_params(params));
    command.joint1.position = 0.11;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.joint1.position, 3.45);
}

#[test]
fn disabled_joint_is_never_driven() {
    let knee = joint_index::<LiteBiped>("left_knee_pitch");
    let mock = MockSystem::<LiteBiped>::new().with_disabled_joints(&[knee]);
    assert_eq!(
        Component::<LiteBiped>::claims(&mock).joints.len(),
        14,
        "still claimed: it stays in the state"
    );
    let (mut system, mut state, mut command) = active(mock);
    command.left_knee_pitch.position = 1.0;
    command.left_knee_pitch.velocity = f64::INFINITY; // never read, so no error
    command.right_knee_pitch.position = 1.0;
    system.write(CLOCK, &command).unwrap();
    system.read(CLOCK, &mut state).unwrap();
    assert_eq!(state.left_knee_pitch.position, 0.0);
    assert_eq!(state.left_knee_pitch.velocity, 0.0);
    assert_eq!(state.right_knee_pitch.position, 1.0);
}

#[test]
fn disabled_joints_come_from_the_runtime_configuration() {
    // A fixed joint has nothing to drive: disabling it is harmless.
    let imu_frame = joint_index::<LiteBiped>("imu_frame");
    system(MockSystem::<LiteBiped>::new().with_disabled_joints(&[imu_frame])).unwrap();
    let message = unsupported(MockSystem::<LiteBiped>::new().with_disabled_joints(&[99]));
    assert!(
        message.contains("disabled joint #99 does not exist: `lite_biped` has 15 joints"),
        "{message}"
    );
}
