//! Rules of the controller groups a definition names (`controller arm { joints: [..] }`): each
//! must give `controller_plan` a group it can serve with one trajectory controller and forward
//! command controllers, under names no other group's controllers take.

use std::collections::HashMap;

use super::problem::{ControllerGroupField, ProblemKind, Site};
use super::{Problems, suggest, tree};
use crate::controller_plan::{self, Source};
use crate::interface::InterfaceKind;
use crate::model::Robot;

fn site(group: usize, field: ControllerGroupField) -> Site {
    Site::ControllerGroup(group, field)
}

/// A group that feeds a torque forward must have a joint to carry it: the torque goes out only
/// through `effort` commands, so without one it would silently do nothing.
pub(super) fn feedforward(robot: &Robot, out: &mut Problems) {
    for (index, group) in robot.controller_groups.iter().enumerate() {
        if group.feedforward.is_none() {
            continue;
        }
        let carried = (group.joints.iter())
            .filter_map(|name| robot.joint(name))
            .any(|j| j.command_interface(InterfaceKind::Effort).is_some());
        if !carried {
            out.push(
                site(index, ControllerGroupField::Feedforward),
                ProblemKind::FeedforwardWithoutEffort {
                    group: group.name.to_string(),
                    feedforward: group.feedforward.name(),
                },
            );
        }
    }
}

/// A group's name prefixes ROS node names, so it must be a plain name; two groups of one name
/// would merge their controllers' names.
pub(super) fn names(robot: &Robot, out: &mut Problems) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (index, group) in robot.controller_groups.iter().enumerate() {
        let at = site(index, ControllerGroupField::Name);
        if !tree::is_name(&group.name) {
            out.push(
                at,
                ProblemKind::BadName {
                    what: "controller group",
                    name: group.name.to_string(),
                },
            );
        }
        match first.get(group.name.as_ref()) {
            Some(&earlier) => out.push_related(
                at,
                ProblemKind::Duplicate {
                    what: "controller group",
                    name: group.name.to_string(),
                },
                site(earlier, ControllerGroupField::Name),
                "first defined here",
            ),
            None => {
                first.insert(group.name.as_ref(), index);
            }
        }
    }
}

/// Each listed joint must exist and take commands (a mimic joint follows its joint; a joint
/// without an actuator has no hardware to command), and be in one group only: two controllers
/// would claim its interfaces. An empty group would be a controller over no joints, which
/// ros2_controllers rejects (`joints` must not be empty).
pub(super) fn joints(robot: &Robot, out: &mut Problems) {
    let mut placed: HashMap<&str, (usize, usize)> = HashMap::new();
    for (index, group) in robot.controller_groups.iter().enumerate() {
        if group.joints.is_empty() {
            out.push(
                site(index, ControllerGroupField::Joints),
                ProblemKind::EmptyControllerGroup {
                    group: group.name.to_string(),
                },
            );
        }
        for (position, name) in group.joints.iter().enumerate() {
            let at = site(index, ControllerGroupField::Joint(position));
            let Some(joint) = robot.joint(name) else {
                let commanded = robot
                    .joints
                    .iter()
                    .filter(|j| controller_plan::commanded(j))
                    .map(|j| j.name.as_ref());
                out.push(
                    at,
                    ProblemKind::UnknownControllerJoint {
                        group: group.name.to_string(),
                        joint: name.to_string(),
                        suggestion: suggest::closest(name, commanded).map(str::to_string),
                    },
                );
                continue;
            };
            if !controller_plan::commanded(joint) {
                let reason = match (&joint.mimic, &joint.actuator) {
                    (Some(mimic), _) => format!("it is a mimic joint, following `{}`", mimic.joint),
                    (None, None) => "it has no actuator".to_string(),
                    (None, Some(_)) => "it declares no command interfaces".to_string(),
                };
                out.push(
                    at,
                    ProblemKind::UncommandedControllerJoint {
                        group: group.name.to_string(),
                        joint: name.to_string(),
                        reason,
                    },
                );
                continue;
            }
            match placed.get(name.as_ref()) {
                Some(&(first_group, first_position)) => out.push_related(
                    at,
                    ProblemKind::JointInTwoGroups {
                        joint: name.to_string(),
                        first: robot.controller_groups[first_group].name.to_string(),
                    },
                    site(first_group, ControllerGroupField::Joint(first_position)),
                    "first listed here",
                ),
                None => {
                    placed.insert(name.as_ref(), (index, position));
                }
            }
        }
    }
}

/// A named group gets one joint_trajectory_controller over all the joints that take `position`;
/// a joint that does not (a velocity-only wheel) cannot be in it, and would silently get
/// controllers of its own. Reported at the first such joint.
pub(super) fn trajectory_sets(robot: &Robot, out: &mut Problems) {
    for (index, group) in robot.controller_groups.iter().enumerate() {
        let mut with = None;
        let mut without = None;
        for (position, name) in group.joints.iter().enumerate() {
            let Some(joint) = robot.joint(name).filter(|j| controller_plan::commanded(j)) else {
                continue;
            };
            match controller_plan::own_trajectory(joint) {
                Some(_) => with = with.or(Some(name)),
                None => without = without.or(Some((position, name))),
            }
        }
        if let (Some(with), Some((position, without))) = (with, without) {
            out.push(
                site(index, ControllerGroupField::Joint(position)),
                ProblemKind::MixedControllerGroup {
                    group: group.name.to_string(),
                    with: with.to_string(),
                    without: without.to_string(),
                },
            );
        }
    }
}

/// Controller names are node names: two controllers of one name cannot both be loaded. A named
/// group whose controller takes the name of another group's (a group named like a bus whose
/// other joints form that bus's group) is reported at its name, once.
pub(super) fn controller_names(robot: &Robot, out: &mut Problems) {
    let controllers = controller_plan::controllers(robot);
    let mut first: HashMap<&str, (&str, Source)> = HashMap::new();
    let mut reported = Vec::new();
    for controller in &controllers {
        let this = (controller.group, controller.source);
        let Some(&that) = first.get(controller.name.as_str()) else {
            first.insert(&controller.name, this);
            continue;
        };
        let (named, other) = match (this.1, that.1) {
            // Two named groups of one name: reported as a duplicate already.
            (Source::Named(_), Source::Named(_)) if this.0 == that.0 => continue,
            (Source::Named(index), _) => (index, that),
            (_, Source::Named(index)) => (index, this),
            // Bus names are unique, and so are the names of one bus's controllers.
            (Source::Bus(_), Source::Bus(_)) => continue,
        };
        if reported.contains(&named) {
            continue;
        }
        reported.push(named);
        let other = match other.1 {
            Source::Bus(_) => format!("the group of bus `{}`'s other joints", other.0),
            Source::Named(_) => format!("controller group `{}`", other.0),
        };
        out.push(
            site(named, ControllerGroupField::Name),
            ProblemKind::ControllerNameTaken {
                group: robot.controller_groups[named].name.to_string(),
                controller: controller.name.clone(),
                other,
            },
        );
    }
}
