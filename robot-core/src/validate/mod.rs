//! The rules a robot definition must keep: everything ros2_control, urdfdom and MuJoCo check only
//! at run time, or never.
//!
//! `robot!` runs [`validate`] at expansion and turns each [`Problem`] into a compile error at the
//! token its [`Site`] names; a description built by hand or read from JSON goes through the same
//! function. One function per rule, each with its reason.

mod hardware;
pub mod names;
mod problem;
mod tree;

pub use problem::{
    BusField, JointField, LinkField, Problem, ProblemKind, RobotField, SensorField, Site,
};

use crate::model::Robot;

/// Every problem of the robot, in a stable order; empty when the robot is valid.
pub fn validate(robot: &Robot) -> Vec<Problem> {
    let mut out = Problems::default();
    tree::robot_header(robot, &mut out);
    tree::duplicate_names(robot, &mut out);
    tree::generated_names(robot, &mut out);
    tree::numbers_finite(robot, &mut out);
    tree::tree(robot, &mut out);
    for (index, joint) in robot.joints.iter().enumerate() {
        hardware::joint_limits(index, joint, &mut out);
        hardware::joint_interfaces(index, joint, &mut out);
        hardware::joint_control(index, joint, &mut out);
        hardware::joint_actuator(robot, index, joint, &mut out);
        hardware::joint_mimic(robot, index, joint, &mut out);
    }
    hardware::can_ids(robot, &mut out);
    hardware::buses(robot, &mut out);
    hardware::sensors(robot, &mut out);
    out.0
}

#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    pub(super) fn push(&mut self, at: Site, kind: ProblemKind) {
        self.0.push(Problem {
            at,
            kind,
            related: None,
        });
    }

    pub(super) fn push_related(
        &mut self,
        at: Site,
        kind: ProblemKind,
        related: Site,
        note: &'static str,
    ) {
        self.0.push(Problem {
            at,
            kind,
            related: Some((related, note)),
        });
    }
}

/// A robot description that failed [`validate`]: every problem, one per line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("robot `{robot}` is invalid:\n{}", problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
pub struct InvalidRobot {
    /// The robot's name.
    pub robot: String,
    /// What is wrong.
    pub problems: Vec<Problem>,
}

/// [`validate`], as a `Result`.
pub fn check(robot: &Robot) -> Result<(), InvalidRobot> {
    let problems = validate(robot);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(InvalidRobot {
            robot: robot.name.to_string(),
            problems,
        })
    }
}

#[cfg(test)]
mod tests {
    //! The rules on a hand-built model (the emitters' fixture), the way a description read from
    //! JSON meets them; `robot!` runs the same function, tested through the UI tests.

    use super::*;
    use crate::emit::fixture;

    fn kinds(robot: &Robot) -> Vec<ProblemKind> {
        validate(robot).into_iter().map(|p| p.kind).collect()
    }

    #[test]
    fn the_fixture_is_valid() {
        assert_eq!(validate(&fixture::robot()), vec![]);
        assert!(check(&fixture::robot()).is_ok());
    }

    #[test]
    fn a_duplicate_can_id_names_both_joints_and_points_at_the_first() {
        let mut robot = fixture::robot();
        let joints = robot.joints.to_mut();
        let (first, second) = {
            let mut actuated = joints
                .iter()
                .enumerate()
                .filter(|(_, j)| j.actuator.is_some());
            let (a, _) = actuated.next().unwrap();
            let (b, _) = actuated
                .find(|(_, j)| {
                    j.actuator.as_ref().unwrap().bus == joints[a].actuator.as_ref().unwrap().bus
                })
                .unwrap();
            (a, b)
        };
        let id = joints[first].actuator.as_ref().unwrap().can_id;
        joints[second].actuator.as_mut().unwrap().can_id = id;
        let problems = validate(&robot);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].at, Site::Joint(second, JointField::CanId));
        assert_eq!(
            problems[0].related,
            Some((Site::Joint(first, JointField::CanId), "first used here"))
        );
        assert!(matches!(
            problems[0].kind,
            ProblemKind::DuplicateCanId { .. }
        ));
    }

    #[test]
    fn a_loop_and_a_second_parent_are_found_in_a_hand_built_tree() {
        let mut robot = fixture::robot();
        let first_child = robot.joints[0].child.clone();
        let root = robot.root_link().unwrap().name.clone();
        // The root becomes a child of the first joint's child: a loop, and no root left.
        let mut closing = robot.joints[0].clone();
        closing.name = "closing".into();
        closing.parent = first_child;
        closing.child = root;
        closing.actuator = None;
        closing.command_interfaces = Default::default();
        closing.state_interfaces = Default::default();
        closing.mimic = None;
        robot.joints.to_mut().push(closing);
        let kinds = kinds(&robot);
        assert!(
            kinds
                .iter()
                .any(|k| matches!(k, ProblemKind::KinematicLoop { .. })),
            "{kinds:?}"
        );
    }

    #[test]
    fn invalid_robot_lists_every_problem() {
        let mut robot = fixture::robot();
        robot.update_rate = 0;
        robot.buses.to_mut()[0].kind = crate::model::BusKind::Can { bitrate: 5_000_000 };
        let error = check(&robot).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("robot `test_bot` is invalid:\n"), "{text}");
        assert!(
            text.contains("the update rate must be at least 1 Hz"),
            "{text}"
        );
        assert!(
            text.contains("bit rate 5000000 bit/s is not a classic CAN rate"),
            "{text}"
        );
    }
}
