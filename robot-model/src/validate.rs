//! The rules a robot definition must keep: everything ros2_control, urdfdom and MuJoCo check only
//! at run time, or never.
//!
//! `robot!` runs [`validate`] at expansion and turns each [`Problem`] into a compile error at the
//! token its [`Site`] names; a description built by hand or read from JSON goes through the same
//! function. One function per rule, each with its reason.

mod actuator;
mod contacts;
mod controllers;
mod hardware;
pub mod names;
mod problem;
pub mod suggest;
mod tree;

pub use problem::{
    AllowedContactField, BusField, ControllerGroupField, JointField, LinkField, Problem,
    ProblemKind, RobotField, SensorField, Site,
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
        actuator::joint_actuator(robot, index, joint, &mut out);
        hardware::joint_mimic(robot, index, joint, &mut out);
    }
    hardware::can_ids(robot, &mut out);
    hardware::buses(robot, &mut out);
    hardware::sensors(robot, &mut out);
    controllers::names(robot, &mut out);
    controllers::joints(robot, &mut out);
    controllers::trajectory_sets(robot, &mut out);
    controllers::feedforward(robot, &mut out);
    controllers::controller_names(robot, &mut out);
    contacts::allowed_contacts(robot, &mut out);
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
    use crate::fixture;

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

    fn joint_index(robot: &Robot, name: &str) -> usize {
        robot.joints.iter().position(|j| j.name == name).unwrap()
    }

    #[test]
    fn a_range_beyond_the_mit_window_is_counted_not_refused() {
        let mut robot = fixture::robot();
        let slider = joint_index(&robot, "slider");
        let joint = &mut robot.joints.to_mut()[slider];
        // ±4π is 12.566 rad: an upper limit of 0.1 m, a turn through the slider's 0.1 m lead, 7 rad
        // past the zero is 13.28 rad, beyond the window; the backend counts its turns.
        joint.limits.as_mut().unwrap().upper = Some(0.1);
        joint.actuator.as_mut().unwrap().zero_offset = 7.0;
        assert_eq!(validate(&robot), vec![]);
        // A lift of 300 mm on 100 mm a turn: 3 turns, 18.8 rad.
        robot.joints.to_mut()[slider].limits.as_mut().unwrap().upper = Some(0.3);
        assert_eq!(validate(&robot), vec![]);
    }

    #[test]
    fn a_range_beyond_the_turn_counter_is_reported_at_the_limit() {
        let mut robot = fixture::robot();
        let slider = joint_index(&robot, "slider");
        let joint = &mut robot.joints.to_mut()[slider];
        // 70 m on 0.1 m a turn is 700 turns, 4398 rad: past the counter's 4096.
        joint.limits.as_mut().unwrap().upper = Some(70.0);
        let problems = validate(&robot);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].at, Site::Joint(slider, JointField::Upper));
        assert_eq!(
            problems[0].to_string(),
            "joint `slider`: its upper limit 70 m puts the motor 4398.2297 rad (700 turns) from \
             its zero, beyond the ±4096 rad (651.9 turns) an RS05's turns are counted over (past \
             it, the motor's f32 multi-turn angle steps coarser than its feedback); narrow the \
             limits or change the actuator's `zero_offset`"
        );
        // The fixture's ±π of travel moved by a zero offset: up to 4095 rad accepted, to
        // 4096 + π refused.
        let joint = &mut robot.joints.to_mut()[slider];
        joint.limits.as_mut().unwrap().upper = Some(0.05);
        joint.actuator.as_mut().unwrap().zero_offset = 4095.0 - std::f64::consts::PI;
        assert_eq!(validate(&robot), vec![]);
        robot.joints.to_mut()[slider]
            .actuator
            .as_mut()
            .unwrap()
            .zero_offset = 4096.0;
        let kinds = kinds(&robot);
        assert!(
            matches!(
                kinds.as_slice(),
                [ProblemKind::BeyondPositionRange { end: "upper", .. }]
            ),
            "{kinds:?}"
        );
    }

    #[test]
    fn a_prismatic_joint_is_checked_in_newtons_and_metres_through_its_lead() {
        let mut robot = fixture::robot();
        let slider = joint_index(&robot, "slider");
        // The RS05's 5.5 N·m through 0.1 m a turn is 5.5 · 2π / 0.1 = 345.6 N; its 50 rad/s is
        // 0.796 m/s.
        let limits = robot.joints.to_mut()[slider].limits.as_mut().unwrap();
        limits.effort = 400.0;
        limits.velocity = 0.8;
        let messages: Vec<String> = validate(&robot).iter().map(|p| p.to_string()).collect();
        assert_eq!(
            messages,
            [
                "joint `slider`: velocity limit 0.8 m/s is beyond what an RS05 can do (0.795 m/s \
                 at the joint, through its lead)",
                "joint `slider`: effort limit 400 N is beyond what an RS05 can do (345.575 N at \
                 the joint, through its lead)",
            ]
        );
    }

    #[test]
    fn a_lead_is_needed_by_a_prismatic_joint_and_refused_on_a_rotary_one() {
        let mut robot = fixture::robot();
        let slider = joint_index(&robot, "slider");
        let wheel = joint_index(&robot, "wheel");
        robot.joints.to_mut()[slider]
            .actuator
            .as_mut()
            .unwrap()
            .lead = None;
        robot.joints.to_mut()[wheel].actuator.as_mut().unwrap().lead = Some(0.01);
        let problems = validate(&robot);
        let found: Vec<(Site, String)> = problems.iter().map(|p| (p.at, p.to_string())).collect();
        assert_eq!(
            found,
            [
                (
                    Site::Joint(slider, JointField::Actuator),
                    "prismatic joint `slider`: its actuator turns, so it needs `lead`, the travel \
                     per motor revolution (a lead screw's lead, or 2π times a pinion's pitch \
                     radius: `lead: 50 mm`)"
                        .to_string()
                ),
                (
                    Site::Joint(wheel, JointField::Lead),
                    "continuous joint `wheel` cannot have a `lead`: a lead turns motor rotation \
                     into the travel of a prismatic joint"
                        .to_string()
                ),
            ]
        );
        for bad in [0.0, -0.01, f64::NAN] {
            let mut robot = fixture::robot();
            robot.joints.to_mut()[slider]
                .actuator
                .as_mut()
                .unwrap()
                .lead = Some(bad);
            let problems = validate(&robot);
            assert!(
                problems
                    .iter()
                    .any(|p| p.at == Site::Joint(slider, JointField::Lead)
                        && matches!(p.kind, ProblemKind::NotPositive { what: "lead", .. })),
                "{bad}: {problems:?}"
            );
        }
    }

    #[test]
    fn a_four_bar_range_is_checked_in_motor_angles_against_the_turn_counter() {
        let mut robot = fixture::robot();
        let ankle = joint_index(&robot, "ankle");
        assert!(validate(&robot).is_empty());
        // The ankle's motor stays within ±π of its zero: a zero offset past 3π takes it out of
        // the window, which is counted; only one past the turn counter's 4096 rad is refused.
        let set_zero_offset = |robot: &mut Robot, offset: f64| {
            robot.joints.to_mut()[ankle]
                .actuator
                .as_mut()
                .unwrap()
                .zero_offset = offset;
        };
        set_zero_offset(&mut robot, 12.0);
        assert_eq!(validate(&robot), vec![]);
        set_zero_offset(&mut robot, 4096.0);
        let kinds = kinds(&robot);
        assert!(
            kinds.iter().any(|k| matches!(
                k,
                ProblemKind::BeyondPositionRange { end: "upper", .. }
            ) || matches!(
                k,
                ProblemKind::BeyondPositionRange { end: "lower", .. }
            )),
            "{kinds:?}"
        );
    }

    #[test]
    fn initial_gains_beyond_the_model_are_reported() {
        let mut robot = fixture::robot();
        let wheel = joint_index(&robot, "wheel");
        let joint = &mut robot.joints.to_mut()[wheel];
        joint.command_interfaces = std::borrow::Cow::Owned(vec![
            crate::model::Interface {
                kind: crate::InterfaceKind::Stiffness,
                initial_value: Some(600.0),
            },
            crate::model::Interface {
                kind: crate::InterfaceKind::Damping,
                initial_value: Some(-1.0),
            },
        ]);
        let problems = validate(&robot);
        let texts: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            texts,
            [
                "joint `wheel`: initial stiffness 600 N·m/rad is beyond what an RS02 can do (500 N·m/rad)",
                "joint `wheel`: initial damping -1 is negative; MIT gains start at 0",
            ],
        );
        assert_eq!(problems[0].at, Site::Joint(wheel, JointField::Command(0)));
        assert_eq!(problems[1].at, Site::Joint(wheel, JointField::Command(1)));
    }

    #[test]
    fn gains_through_a_four_bar_are_referred_by_the_ratio_squared() {
        let mut robot = fixture::robot();
        let ankle = joint_index(&robot, "ankle");
        let joint = &robot.joints[ankle];
        let four_bar = joint.actuator.as_ref().unwrap().four_bar.unwrap();
        let (lower, upper) = joint
            .limits
            .unwrap()
            .lower
            .zip(joint.limits.unwrap().upper)
            .unwrap();
        let report = four_bar.check_range(lower, upper).unwrap();
        let j = report.min_ratio.abs().max(report.max_ratio.abs());
        // RS00: Kp up to 500 in motor space, so 500 / J² at the joint.
        let max = 500.0 / (j * j);
        let set = |robot: &mut Robot, value: f64| {
            let joint = &mut robot.joints.to_mut()[ankle];
            let mut interfaces = joint.command_interfaces.to_vec();
            let stiffness = interfaces
                .iter_mut()
                .find(|i| i.kind == crate::InterfaceKind::Stiffness)
                .unwrap();
            stiffness.initial_value = Some(value);
            joint.command_interfaces = std::borrow::Cow::Owned(interfaces);
        };
        set(&mut robot, max * 0.99);
        assert_eq!(validate(&robot), vec![]);
        set(&mut robot, max * 1.01);
        let kinds = kinds(&robot);
        assert!(
            matches!(
                kinds.as_slice(),
                [ProblemKind::BeyondModel {
                    what: "initial stiffness",
                    ..
                }]
            ),
            "{kinds:?}"
        );
    }

    #[test]
    fn a_continuous_joint_on_an_actuator_is_valid() {
        let robot = fixture::robot();
        let wheel = &robot.joints[joint_index(&robot, "wheel")];
        assert_eq!(wheel.kind, crate::model::JointKind::Continuous);
        assert!(wheel.actuator.is_some());
        assert!(validate(&robot).is_empty());
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
