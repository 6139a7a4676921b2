#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::fixture;

/// `(name, joints, kind)` of every controller.
fn plan(robot: &Robot) -> Vec<(String, Vec<&str>, ControllerKind)> {
    controllers(robot)
        .into_iter()
        .map(|c| (c.name, c.joints, c.kind))
        .collect()
}

fn forward(interface: InterfaceKind) -> ControllerKind {
    ControllerKind::Forward { interface }
}

fn trajectory(
    command: &'static [InterfaceKind],
    state: &'static [InterfaceKind],
) -> ControllerKind {
    ControllerKind::Trajectory { command, state }
}

fn set_interfaces(joint: &mut Joint, commands: &[InterfaceKind], states: &[InterfaceKind]) {
    let list = |kinds: &[InterfaceKind]| {
        kinds
            .iter()
            .map(|&kind| Interface {
                kind,
                initial_value: None,
            })
            .collect()
    };
    joint.command_interfaces = list(commands);
    joint.state_interfaces = list(states);
}

fn joint_mut<'a>(robot: &'a mut Robot, name: &str) -> &'a mut Joint {
    robot
        .joints
        .to_mut()
        .iter_mut()
        .find(|j| j.name == name)
        .unwrap()
}

#[test]
fn the_fixture_gets_a_group_per_bus_and_every_interface_is_claimed_once_but_position() {
    // `front`: `ankle` (MIT) and `wheel` (velocity only); `rear`: `slider` (position).
    use InterfaceKind::{Damping, Stiffness};
    let robot = fixture::robot();
    let names: Vec<&str> = groups(&robot).iter().map(|g| g.name).collect();
    assert_eq!(names, ["front", "rear"]);
    assert_eq!(
        plan(&robot),
        [
            (
                "front_trajectory_controller".to_string(),
                vec!["ankle"],
                trajectory(&[Position, Velocity], &[Position, Velocity])
            ),
            (
                "front_position_controller".to_string(),
                vec!["ankle"],
                forward(Position)
            ),
            (
                "front_velocity_controller".to_string(),
                vec!["wheel"],
                forward(Velocity)
            ),
            (
                "front_effort_controller".to_string(),
                vec!["ankle"],
                forward(Effort)
            ),
            (
                "front_stiffness_controller".to_string(),
                vec!["ankle"],
                forward(Stiffness)
            ),
            (
                "front_damping_controller".to_string(),
                vec!["ankle"],
                forward(Damping)
            ),
            (
                "rear_trajectory_controller".to_string(),
                vec!["slider"],
                trajectory(&[Position], &[Position, Velocity])
            ),
            (
                "rear_position_controller".to_string(),
                vec!["slider"],
                forward(Position)
            ),
        ]
    );
}

#[test]
fn mimic_and_unactuated_joints_are_in_no_controller() {
    let robot = fixture::robot();
    let served: Vec<&str> = controllers(&robot)
        .iter()
        .flat_map(|c| c.joints.clone())
        .collect();
    assert!(!served.contains(&"follower"), "{served:?}");
    assert!(!served.contains(&"imu_mount"), "{served:?}");
}

#[test]
fn a_group_with_several_trajectory_sets_names_each_by_its_commands() {
    // `wheel` moves to position commands, without a velocity state: on `front` beside the MIT
    // ankle there are now two trajectory sets.
    let mut robot = fixture::robot();
    set_interfaces(joint_mut(&mut robot, "wheel"), &[Position], &[Position]);
    let front: Vec<(String, Vec<&str>)> = plan(&robot)
        .into_iter()
        .filter(|(name, ..)| name.starts_with("front_"))
        .map(|(name, joints, _)| (name, joints))
        .collect();
    assert_eq!(
        front[..2],
        [
            (
                "front_position_velocity_trajectory_controller".to_string(),
                vec!["ankle"]
            ),
            (
                "front_position_trajectory_controller".to_string(),
                vec!["wheel"]
            ),
        ]
    );
}

#[test]
fn a_velocity_command_without_a_velocity_state_is_forwarded() {
    // JTC needs the velocity state to command velocity; without it, position goes to the
    // trajectory controller and velocity to a forward command controller.
    let mut robot = fixture::robot();
    set_interfaces(
        joint_mut(&mut robot, "slider"),
        &[Position, Velocity],
        &[Position],
    );
    let rear: Vec<_> = plan(&robot)
        .into_iter()
        .filter(|(name, ..)| name.starts_with("rear_"))
        .map(|(name, _, kind)| (name, kind))
        .collect();
    assert_eq!(
        rear,
        [
            (
                "rear_trajectory_controller".to_string(),
                trajectory(&[Position], &[Position])
            ),
            ("rear_position_controller".to_string(), forward(Position)),
            ("rear_velocity_controller".to_string(), forward(Velocity)),
        ]
    );
}

#[test]
fn trajectory_interfaces_follow_jtc_rules() {
    let pick = |c: &[InterfaceKind], s: &[InterfaceKind]| trajectory_interfaces(c, s);
    let (p, v, a, e) = (Position, Velocity, Acceleration, Effort);
    assert_eq!(
        pick(&[p, v, a], &[p, v, a]),
        Some((&[p, v, a][..], &[p, v, a][..]))
    );
    assert_eq!(
        pick(&[p, v, e], &[p, v, e]),
        Some((&[p, v][..], &[p, v][..]))
    );
    // A velocity command needs a velocity state: without one, position alone.
    assert_eq!(pick(&[p, v], &[p]), Some((&[p][..], &[p][..])));
    // Without position, no trajectory: velocity or effort alone are forwarded.
    assert_eq!(pick(&[v], &[p, v]), None);
    assert_eq!(pick(&[e], &[p, v]), None);
    // Acceleration only comes with position and velocity; a velocity state needs position.
    assert_eq!(pick(&[a], &[p, v, a]), None);
    assert_eq!(pick(&[p], &[v]), None);
    assert_eq!(pick(&[], &[p, v]), None);
}

fn name_group(robot: &mut Robot, name: &'static str, joints: &[&'static str]) {
    robot
        .controller_groups
        .to_mut()
        .push(crate::model::ControllerGroup {
            name: name.into(),
            joints: joints.iter().map(|&j| j.into()).collect(),
            feedforward: crate::model::Feedforward::None,
        });
}

#[test]
fn a_named_group_takes_its_joints_from_their_buses_and_comes_first() {
    // `ankle` (front, MIT) and `slider` (rear, position) in one group: one trajectory
    // controller over what both take, and the ankle's other interfaces forwarded.
    use InterfaceKind::{Damping, Stiffness};
    let mut robot = fixture::robot();
    name_group(&mut robot, "legs", &["slider", "ankle"]);
    let groups: Vec<(&str, Source, Vec<&str>)> = groups(&robot)
        .into_iter()
        .map(|g| {
            (
                g.name,
                g.source,
                g.joints.iter().map(|j| j.name.as_ref()).collect(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("legs", Source::Named(0), vec!["slider", "ankle"]),
            ("front", Source::Bus(0), vec!["wheel"]),
        ]
    );
    let legs: Vec<_> = plan(&robot)
        .into_iter()
        .filter(|(name, ..)| name.starts_with("legs_"))
        .collect();
    assert_eq!(
        legs,
        [
            (
                "legs_trajectory_controller".to_string(),
                vec!["slider", "ankle"],
                trajectory(&[Position], &[Position, Velocity])
            ),
            (
                "legs_position_controller".to_string(),
                vec!["slider", "ankle"],
                forward(Position)
            ),
            (
                "legs_velocity_controller".to_string(),
                vec!["ankle"],
                forward(Velocity)
            ),
            (
                "legs_effort_controller".to_string(),
                vec!["ankle"],
                forward(Effort)
            ),
            (
                "legs_stiffness_controller".to_string(),
                vec!["ankle"],
                forward(Stiffness)
            ),
            (
                "legs_damping_controller".to_string(),
                vec!["ankle"],
                forward(Damping)
            ),
        ]
    );
}

#[test]
fn the_named_group_rules_are_checked_on_a_hand_built_description() {
    use crate::validate::{ControllerGroupField, Site, validate};
    let texts =
        |robot: &Robot| -> Vec<String> { validate(robot).iter().map(|p| p.to_string()).collect() };
    let mut robot = fixture::robot();
    name_group(
        &mut robot,
        "mixed",
        &["slider", "wheel", "follower", "ankel"],
    );
    name_group(&mut robot, "again", &["slider"]);
    name_group(&mut robot, "none", &[]);
    assert_eq!(
        texts(&robot),
        [
            "controller group `mixed` lists joint `follower`, which takes no commands: it is a \
             mimic joint, following `ankle`",
            "controller group `mixed` lists unknown joint `ankel`; did you mean `ankle`?",
            "joint `slider` is in controller group `mixed` already; a joint is in one group",
            "controller group `none` lists no joints",
            "controller group `mixed` mixes `slider`, which takes `position` and gets a \
             joint_trajectory_controller, and `wheel`, which does not; put them in separate groups",
        ]
    );
    let problems = validate(&robot);
    assert_eq!(
        problems[2].related,
        Some((
            Site::ControllerGroup(0, ControllerGroupField::Joint(0)),
            "first listed here"
        ))
    );
    assert_eq!(
        problems[4].at,
        Site::ControllerGroup(0, ControllerGroupField::Joint(1))
    );

    // `front` for the slider, while the ankle and the wheel stay in bus `front`'s group.
    let mut robot = fixture::robot();
    name_group(&mut robot, "front", &["slider"]);
    assert_eq!(
        texts(&robot),
        [
            "controller group `front` names its controller `front_trajectory_controller`, as does \
          the group of bus `front`'s other joints; rename the group"
        ]
    );
}

#[test]
fn a_group_name_must_be_a_plain_name_and_unique() {
    use crate::validate::{ControllerGroupField, Site, validate};
    let mut robot = fixture::robot();
    name_group(&mut robot, "leg", &["ankle"]);
    name_group(&mut robot, "leg", &["slider"]);
    name_group(&mut robot, "left leg", &["wheel"]);
    let problems = validate(&robot);
    let texts: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        texts,
        [
            "controller group `leg` is defined twice",
            "controller group name `left leg` is not a name: a letter or `_`, then letters, \
             digits and `_`",
        ]
    );
    assert_eq!(
        problems[0].related,
        Some((
            Site::ControllerGroup(0, ControllerGroupField::Name),
            "first defined here"
        ))
    );
}
