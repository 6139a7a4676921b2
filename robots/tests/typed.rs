//! The generated code of the shipped robots: typed access, names, layouts, defaults, per-bus views,
//! and that the static descriptions pass robot-core's validation (the same rules the macro ran).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use robot_core::typed::{self, Slot};
use robot_core::{InterfaceKind, RobotTypes, Values, validate};
use robots::{
    LiteBiped, LiteBipedCommand, LiteBipedState, SixAxisArm, SixAxisArmCommand, SixAxisArmState,
};

#[test]
fn controller_code_reads_and_writes_fields() {
    let mut cmd = LiteBipedCommand::default();
    cmd.left_knee_pitch.position = 0.3;
    cmd.left_knee_pitch.stiffness = 40.0;
    let state = LiteBipedState::default();
    let q: f64 = state.left_knee_pitch.position;
    let quat = state.base_imu.orientation;
    assert_eq!(q, 0.0);
    assert_eq!((quat.x, quat.y, quat.z, quat.w), (0.0, 0.0, 0.0, 1.0));
    assert_eq!(cmd.left_knee_pitch.position, 0.3);
    assert_eq!(
        LiteBiped::LEFT_KNEE_PITCH.POSITION,
        "left_knee_pitch/position"
    );
    assert_eq!(
        LiteBiped::LEFT_KNEE_PITCH.STIFFNESS,
        "left_knee_pitch/stiffness"
    );
    assert_eq!(LiteBiped::BASE_IMU.ORIENTATION_W, "base_imu/orientation.w");
    assert_eq!(
        LiteBiped::BASE_IMU.LINEAR_ACCELERATION_Z,
        "base_imu/linear_acceleration.z"
    );
    assert_eq!(SixAxisArm::GRIPPER_MIMIC.POSITION, "gripper_mimic/position");
}

#[test]
fn fresh_commands_are_no_command_and_fresh_states_are_initial_values() {
    let cmd = LiteBipedCommand::default();
    assert!(
        cmd.as_slice().iter().all(|v| v.is_nan()),
        "a fresh command means no command yet"
    );
    let state = SixAxisArmState::default();
    assert_eq!(state.elbow.position, 0.0);
    assert_eq!(state.elbow.velocity, 0.0);
}

#[test]
fn flat_slots_follow_the_layout_the_description_gives() {
    fn check<R: RobotTypes>() {
        let robot = R::DESCRIPTION;
        let state: Vec<Slot> = typed::state_slots(robot).collect();
        let command: Vec<Slot> = typed::command_slots(robot).collect();
        assert_eq!(R::STATE_LAYOUT.slots, state.as_slice());
        assert_eq!(R::COMMAND_LAYOUT.slots, command.as_slice());
        assert_eq!(<R::State as Values>::LEN, state.len());
        assert_eq!(<R::Command as Values>::LEN, command.len());
    }
    check::<LiteBiped>();
    check::<SixAxisArm>();
}

#[test]
fn generic_code_reaches_a_typed_field_through_its_slot() {
    let robot = LiteBiped::DESCRIPTION;
    let knee = robot
        .joints
        .iter()
        .position(|j| j.name == "right_knee_pitch")
        .unwrap();
    let slot = LiteBiped::COMMAND_LAYOUT
        .joint_slot(knee, InterfaceKind::Damping)
        .unwrap();
    let mut cmd = LiteBipedCommand::default();
    cmd.as_mut_slice()[slot] = 2.5;
    assert_eq!(cmd.right_knee_pitch.damping, 2.5);

    let imu = LiteBiped::STATE_LAYOUT.sensor_slot(0).unwrap();
    let state = LiteBipedState::default();
    assert_eq!(
        state.as_slice()[imu + 3],
        1.0,
        "orientation.w of the identity"
    );
    assert_eq!(LiteBiped::STATE_LAYOUT.len(), 14 * 3 + 10);
    assert_eq!(LiteBiped::COMMAND_LAYOUT.len(), 14 * 5);
}

#[test]
fn per_bus_views_hold_exactly_that_bus_joints() {
    let mut cmd = LiteBipedCommand::default();
    cmd.left_leg().left_ankle_pitch.position = 0.1;
    cmd.right_leg().right_hip_yaw.velocity = -0.2;
    assert_eq!(cmd.left_ankle_pitch.position, 0.1);
    assert_eq!(cmd.right_hip_yaw.velocity, -0.2);
    let state = SixAxisArmState::default();
    let arm = state.arm();
    assert_eq!(
        arm.gripper_mimic.position, 0.0,
        "a mimic joint is on the bus of the joint it follows"
    );
    let mut arm_cmd = SixAxisArmCommand::default();
    arm_cmd.arm().wrist_roll.position = 3.0;
    assert_eq!(arm_cmd.wrist_roll.position, 3.0);
}

#[test]
fn the_static_descriptions_pass_the_same_rules_as_the_macro() {
    for robot in robots::all() {
        assert_eq!(validate::validate(robot), vec![], "{}", robot.name);
    }
}

#[test]
fn descriptions_round_trip_through_json() {
    for robot in robots::all() {
        let json = robot_core::emit::robot_json(robot).unwrap();
        let back: robot_core::Robot = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, robot);
        assert_eq!(validate::validate(&back), vec![]);
    }
}

#[test]
fn lite_biped_is_the_public_robot() {
    let robot = LiteBiped::DESCRIPTION;
    assert_eq!(robot.name, "lite_biped");
    assert_eq!(robot.links.len(), 16);
    assert_eq!(robot.joints.len(), 15);
    assert_eq!(robot.actuated_joints().count(), 14);
    let fixed: Vec<_> = robot
        .joints
        .iter()
        .filter(|j| j.actuator.is_none())
        .map(|j| j.name.as_ref())
        .collect();
    assert_eq!(fixed, ["imu_frame"]);
    for (bus, ids) in [("left_leg", 31..=37), ("right_leg", 41..=47)] {
        let on_bus: Vec<u8> = robot
            .actuated_joints()
            .filter_map(|j| j.actuator.as_ref())
            .filter(|a| a.bus == bus)
            .map(|a| a.can_id.get())
            .collect();
        assert_eq!(on_bus, ids.collect::<Vec<_>>());
    }
    for side in ["left", "right"] {
        let ankle = robot.joint(&format!("{side}_ankle_pitch")).unwrap();
        let four_bar = ankle.actuator.as_ref().unwrap().four_bar.unwrap();
        assert!((four_bar.ground_length() - 0.160449369).abs() < 1e-9);
        assert!((four_bar.alpha_zero.to_degrees() - 338.82213).abs() < 1e-9);
    }
    assert_eq!(
        robot
            .joint("left_hip_pitch")
            .unwrap()
            .actuator
            .as_ref()
            .unwrap()
            .direction
            .sign(),
        -1.0
    );
    assert_eq!(
        robot
            .joint("right_hip_pitch")
            .unwrap()
            .actuator
            .as_ref()
            .unwrap()
            .direction
            .sign(),
        1.0
    );
    assert_eq!(robot.sensors[0].name, "base_imu");
    assert_eq!(robot.sensors[0].link, "imu");
}
