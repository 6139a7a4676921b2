//! What `robot!` generates for controller code beyond the fields: one type per interface set
//! (the per-joint names are aliases of it), `joints::<T>()` / `joints_mut::<T>()` over every joint
//! of a set with its definition, and per-limb views with the side taken off the names.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use robot_macros::robot;

robot! {
    /// Two mirrored arms with MIT shoulders and position elbows, and a velocity-only wheel.
    robot Cart { update_rate: 200 Hz }
    bus left_arm {}
    bus right_arm {}
    bus base {}
    link torso {}
    link wheel {}
    joint wheel: continuous {
        parent: torso,
        child: wheel,
        axis: [0, 1, 0],
        limits { velocity: 10, effort: 5 },
        actuator { bus: base, can_id: 21, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
    limb arm: left | right {
        link upper {}
        link lower {}
        joint shoulder: revolute {
            parent: torso,
            child: upper,
            origin { xyz: [0, 0.2 | -0.2, 0.4] },
            axis: [0, 1, 0],
            limits { lower: -90 deg | -80 deg, upper: 90 deg, velocity: 10, effort: 10 },
            actuator { bus: left_arm | right_arm, can_id: 1 | 11, model: RS02 },
            command: [position, velocity, effort, stiffness = 20.0, damping],
            state: [position, velocity, effort],
        }
        joint elbow: revolute {
            parent: upper,
            child: lower,
            origin { xyz: [0, 0, -0.3] },
            axis: [0, 1, 0],
            limits { lower: 0, upper: 2.5 | 2.4, velocity: 10, effort: 10 },
            actuator { bus: left_arm | right_arm, can_id: 2 | 12, model: RS02 },
            command: [position = 0.5],
            state: [position, velocity],
        }
    }
}

type Mit = cart::PositionVelocityEffortStiffnessDampingCommand;

/// One function for every joint with the MIT set; the per-joint names are the same type.
fn hold(joint: &mut cart::LeftShoulderCommand, position: f64) {
    joint.position = position;
    joint.velocity = 0.0;
    joint.effort = 0.0;
    joint.stiffness = 30.0;
    joint.damping = 1.0;
}

#[test]
fn joints_with_the_same_interfaces_share_one_type() {
    let mut cmd = CartCommand::default();
    hold(&mut cmd.left_shoulder, 0.1);
    hold(&mut cmd.right_shoulder, -0.1); // a right joint, through the left joint's name
    assert_eq!(cmd.right_shoulder.stiffness, 30.0);
    let _: &cart::PositionCommand = &cmd.left_elbow;
    let _: &cart::VelocityCommand = &cmd.wheel;
    let _: &cart::PositionVelocityState = &CartState::default().wheel;
}

#[test]
fn the_robots_default_applies_each_joints_initial_values_and_the_set_default_none() {
    let cmd = CartCommand::default();
    assert_eq!(cmd.left_shoulder.stiffness, 20.0);
    assert!(cmd.left_shoulder.position.is_nan());
    assert_eq!(
        (cmd.left_elbow.position, cmd.right_elbow.position),
        (0.5, 0.5)
    );
    assert!(cmd.wheel.velocity.is_nan());
    assert!(
        Mit::default().stiffness.is_nan(),
        "a set has no joint, so no initial value"
    );
}

#[test]
fn joints_mut_walks_every_joint_of_one_set_with_its_definition_in_order() {
    let mut cmd = CartCommand::default();
    let mut seen = Vec::new();
    for (joint, command) in cmd.joints_mut::<cart::PositionCommand>() {
        // Each elbow to its own upper limit: the definition comes with the value.
        command.position = joint.limits.unwrap().upper.unwrap();
        seen.push(joint.name.to_string());
    }
    assert_eq!(seen, ["left_elbow", "right_elbow"]);
    assert_eq!(
        (cmd.left_elbow.position, cmd.right_elbow.position),
        (2.5, 2.4)
    );

    let names = |cmd: &CartCommand| -> Vec<String> {
        cmd.joints::<Mit>()
            .map(|(j, _)| j.name.to_string())
            .collect()
    };
    assert_eq!(names(&cmd), ["left_shoulder", "right_shoulder"]);
    let wheels: Vec<_> = cmd.joints::<cart::VelocityCommand>().collect();
    assert_eq!(wheels.len(), 1);
    assert_eq!(wheels[0].0.name, "wheel");

    let state = CartState::default();
    let with_velocity: Vec<&str> = state
        .joints::<cart::PositionVelocityState>()
        .map(|(j, _)| j.name.as_ref())
        .collect();
    assert_eq!(with_velocity, ["wheel", "left_elbow", "right_elbow"]);
}

#[test]
fn limb_views_give_each_side_by_the_names_without_the_side() {
    let mut cmd = CartCommand::default();
    for (i, arm) in cmd.arm().into_iter().enumerate() {
        hold(arm.shoulder, i as f64);
        arm.elbow.position = 1.0 + i as f64;
    }
    assert_eq!(
        (cmd.left_shoulder.position, cmd.right_shoulder.position),
        (0.0, 1.0)
    );
    assert_eq!(
        (cmd.left_elbow.position, cmd.right_elbow.position),
        (1.0, 2.0)
    );
    let mut state = CartState::default();
    state.right_elbow.velocity = 3.0;
    let [left, right] = state.arm();
    assert_eq!((left.side, right.side), ("left", "right"));
    assert_eq!(right.elbow.velocity, 3.0);
    assert_eq!(left.shoulder.effort, 0.0);
}
