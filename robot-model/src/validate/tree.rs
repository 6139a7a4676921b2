//! Rules of the robot as a whole: its header, unique names, finite numbers, one kinematic tree.

use std::collections::{HashMap, HashSet};

use super::problem::{BusField, JointField, LinkField, ProblemKind, RobotField, SensorField, Site};
use super::{Problems, names, suggest};
use crate::model::{Joint, Robot};

/// The update rate drives the loop period and the bus-load check; ROS names derive from the type.
pub(super) fn robot_header(robot: &Robot, out: &mut Problems) {
    if robot.update_rate == 0 {
        out.push(
            Site::Robot(RobotField::UpdateRate),
            ProblemKind::ZeroUpdateRate,
        );
    }
    if let Some(reason) = names::unusable_type_name(&robot.type_name) {
        out.push(
            Site::Robot(RobotField::Name),
            ProblemKind::UnusableName {
                what: "robot",
                name: robot.type_name.to_string(),
                reason,
            },
        );
    }
    if robot.name != heck::ToSnakeCase::to_snake_case(robot.type_name.as_ref()) {
        out.push(
            Site::Robot(RobotField::Name),
            ProblemKind::BadRobotName {
                name: robot.name.to_string(),
                type_name: robot.type_name.to_string(),
            },
        );
    }
}

/// A ROS name, and a Rust field name the generated code can use: a letter or `_`, then letters,
/// digits and `_`. `robot!` only ever produces such names; a description read from JSON may not.
pub(super) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Names are how every consumer refers to things, so each must be a plain name (see [`is_name`])
/// and unique: URDF links and joints, ros2_control blocks and sensors, our buses. A second
/// definition would silently shadow the first. Joints, buses and sensors also name generated
/// Rust code, so they must make identifiers (see [`names::unusable`]).
pub(super) fn duplicate_names(robot: &Robot, out: &mut Problems) {
    fn check<'a>(
        what: &'static str,
        list: impl Iterator<Item = &'a str>,
        site: impl Fn(usize) -> Site,
        out: &mut Problems,
    ) {
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (index, name) in list.enumerate() {
            if !is_name(name) {
                out.push(
                    site(index),
                    ProblemKind::BadName {
                        what,
                        name: name.to_string(),
                    },
                );
            } else if let Some(reason) = (what != "link").then(|| names::unusable(name)).flatten() {
                out.push(
                    site(index),
                    ProblemKind::UnusableName {
                        what,
                        name: name.to_string(),
                        reason,
                    },
                );
            }
            if let Some(&earlier) = first.get(name) {
                out.push_related(
                    site(index),
                    ProblemKind::Duplicate {
                        what,
                        name: name.to_string(),
                    },
                    site(earlier),
                    "first defined here",
                );
            } else {
                first.insert(name, index);
            }
        }
    }
    check(
        "link",
        robot.links.iter().map(|l| l.name.as_ref()),
        |i| Site::Link(i, LinkField::Name),
        out,
    );
    check(
        "joint",
        robot.joints.iter().map(|j| j.name.as_ref()),
        |i| Site::Joint(i, JointField::Name),
        out,
    );
    check(
        "bus",
        robot.buses.iter().map(|b| b.name.as_ref()),
        |i| Site::Bus(i, BusField::Name),
        out,
    );
    check(
        "sensor",
        robot.sensors.iter().map(|s| s.name.as_ref()),
        |i| Site::Sensor(i, SensorField::Name),
        out,
    );
}

/// NaN or infinity anywhere in the physical data makes every emitted file meaningless; mass must
/// be positive for MuJoCo to compile a body that moves.
/// The joint's numbers beyond origin and axis: limits, dynamics, actuator, mimic, initial values.
/// (Velocity, effort and current limits have their own positivity rule; the four-bar its own
/// geometry check.)
fn joint_numbers(joint: &Joint) -> Vec<(&'static str, f64, JointField)> {
    let mut numbers = Vec::new();
    if let Some(limits) = &joint.limits {
        numbers.extend(limits.lower.map(|v| ("lower limit", v, JointField::Lower)));
        numbers.extend(limits.upper.map(|v| ("upper limit", v, JointField::Upper)));
    }
    if let Some(d) = &joint.dynamics {
        numbers.extend(
            [
                ("damping", d.damping),
                ("friction", d.friction),
                ("armature", d.armature),
            ]
            .map(|(f, v)| (f, v, JointField::Name)),
        );
    }
    if let Some(actuator) = &joint.actuator {
        numbers.push(("zero offset", actuator.zero_offset, JointField::Actuator));
    }
    if let Some(mimic) = &joint.mimic {
        numbers.push(("mimic multiplier", mimic.multiplier, JointField::Mimic));
        numbers.push(("mimic offset", mimic.offset, JointField::Mimic));
    }
    for (i, interface) in joint.command_interfaces.iter().enumerate() {
        numbers.extend(
            interface
                .initial_value
                .map(|v| ("initial value", v, JointField::Command(i))),
        );
    }
    for (i, interface) in joint.state_interfaces.iter().enumerate() {
        numbers.extend(
            interface
                .initial_value
                .map(|v| ("initial value", v, JointField::State(i))),
        );
    }
    numbers
}

/// The numbers of a shape: placement and size.
fn shape_numbers(shape: &crate::model::Shape) -> Vec<f64> {
    use crate::model::Geometry;
    let mut numbers: Vec<f64> = shape
        .origin
        .xyz
        .iter()
        .chain(&shape.origin.rpy)
        .copied()
        .collect();
    match &shape.geometry {
        Geometry::Box { size } => numbers.extend(size),
        Geometry::Cylinder { radius, length } | Geometry::Capsule { radius, length } => {
            numbers.extend([*radius, *length])
        }
        Geometry::Sphere { radius } => numbers.push(*radius),
        Geometry::Mesh { scale, .. } => numbers.extend(scale),
    }
    numbers
}

/// `robot!` turns names into type names (`left_knee_pitch` → `LeftKneePitchState`, bus
/// `left_leg` → `LeftLegBusState` and block `LiteBipedLeftLeg`, IMUs → blocks `LiteBipedBaseImu`):
/// names that differ only in case or underscores would give the same type or block twice.
pub(super) fn generated_names(robot: &Robot, out: &mut Problems) {
    use heck::ToUpperCamelCase;
    let mut seen: HashMap<String, (&'static str, &str, Site)> = HashMap::new();
    let joints = robot.joints.iter().enumerate().map(|(i, j)| {
        (
            "joint",
            j.name.as_ref(),
            j.name.to_upper_camel_case(),
            Site::Joint(i, JointField::Name),
        )
    });
    let buses = robot.buses.iter().enumerate().map(|(i, b)| {
        (
            "bus",
            b.name.as_ref(),
            format!("{}Bus", b.name.to_upper_camel_case()),
            Site::Bus(i, BusField::Name),
        )
    });
    let sensors = robot
        .sensors
        .iter()
        .enumerate()
        // Sensors share no type namespace with joints and buses, only block names among themselves.
        .map(|(i, s)| {
            (
                "sensor",
                s.name.as_ref(),
                format!("sensor {}", s.name.to_upper_camel_case()),
                Site::Sensor(i, SensorField::Name),
            )
        });
    // A name that makes no identifiers gets no code, so it collides with nothing.
    let generates = |(_, name, _, _): &(&str, &str, String, Site)| names::unusable(name).is_none();
    for (what, name, generated, site) in joints.chain(buses).chain(sensors).filter(generates) {
        match seen.get(&generated) {
            // Exact duplicates are the duplicate-name rule's.
            Some(&(first_what, first, _)) if first_what == what && first == name => {}
            Some(&(first_what, first, first_site)) => out.push_related(
                site,
                ProblemKind::NameCollision {
                    what: first_what,
                    first: first.to_string(),
                    other_what: what,
                    second: name.to_string(),
                    generated: generated.clone(),
                },
                first_site,
                "the other one here",
            ),
            None => {
                seen.insert(generated, (what, name, site));
            }
        }
    }
}

pub(super) fn numbers_finite(robot: &Robot, out: &mut Problems) {
    let offset = robot.mock.position_state_following_offset;
    if !offset.is_finite() {
        out.push(
            Site::Robot(RobotField::Name),
            ProblemKind::NotFinite {
                what: "robot",
                name: robot.name.to_string(),
                field: "mock position_state_following_offset",
                value: offset,
            },
        );
    }
    for (index, link) in robot.links.iter().enumerate() {
        for value in link
            .visuals
            .iter()
            .chain(link.collisions.iter())
            .flat_map(shape_numbers)
        {
            if !value.is_finite() {
                out.push(
                    Site::Link(index, LinkField::Name),
                    ProblemKind::NotFinite {
                        what: "link",
                        name: link.name.to_string(),
                        field: "geometry",
                        value,
                    },
                );
            }
        }
    }
    for (index, link) in robot.links.iter().enumerate() {
        let Some(inertial) = &link.inertial else {
            continue;
        };
        let site = Site::Link(index, LinkField::Inertial);
        let fields = std::iter::once(("mass", inertial.mass)).chain(inertial.inertia.entries());
        let pose = inertial
            .origin
            .xyz
            .iter()
            .chain(&inertial.origin.rpy)
            .map(|&v| ("origin", v));
        for (field, value) in fields.chain(pose) {
            if !value.is_finite() {
                out.push(
                    site,
                    ProblemKind::NotFinite {
                        what: "link",
                        name: link.name.to_string(),
                        field,
                        value,
                    },
                );
            }
        }
        if inertial.mass.is_finite() && inertial.mass <= 0.0 {
            out.push(
                Site::Link(index, LinkField::Mass),
                ProblemKind::BadMass {
                    link: link.name.to_string(),
                    mass: inertial.mass,
                },
            );
        }
    }
    for (index, joint) in robot.joints.iter().enumerate() {
        let values = joint
            .origin
            .xyz
            .iter()
            .chain(&joint.origin.rpy)
            .map(|&v| ("origin", v, JointField::Name));
        let axis = joint.axis.iter().map(|&v| ("axis", v, JointField::Axis));
        for (field, value, at) in values.chain(axis).chain(joint_numbers(joint)) {
            if !value.is_finite() {
                out.push(
                    Site::Joint(index, at),
                    ProblemKind::NotFinite {
                        what: "joint",
                        name: joint.name.to_string(),
                        field,
                        value,
                    },
                );
            }
        }
        let norm = joint.axis.iter().map(|v| v * v).sum::<f64>();
        if joint.kind.is_movable() && norm.is_finite() && norm < 1e-12 {
            out.push(
                Site::Joint(index, JointField::Axis),
                ProblemKind::ZeroAxis {
                    joint: joint.name.to_string(),
                },
            );
        }
    }
}

/// URDF is a tree: every joint connects known links, every link has at most one parent, there are
/// no loops, and exactly one link has no parent.
pub(super) fn tree(robot: &Robot, out: &mut Problems) {
    if robot.links.is_empty() {
        out.push(Site::Robot(RobotField::Name), ProblemKind::NoLinks);
        return;
    }
    let link_index: HashMap<&str, usize> = robot
        .links
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.as_ref(), i))
        .collect();
    // child link -> the joint that is its parent
    let mut parent_joint: HashMap<&str, usize> = HashMap::new();
    for (index, joint) in robot.joints.iter().enumerate() {
        for (field, link) in [
            (JointField::Parent, &joint.parent),
            (JointField::Child, &joint.child),
        ] {
            if !link_index.contains_key(link.as_ref()) {
                out.push(
                    Site::Joint(index, field),
                    ProblemKind::UnknownLink {
                        joint: joint.name.to_string(),
                        link: link.to_string(),
                        suggestion: suggest::closest(link, link_index.keys().copied())
                            .map(str::to_string),
                    },
                );
            }
        }
        match parent_joint.get(joint.child.as_ref()) {
            Some(&first) => out.push_related(
                Site::Joint(index, JointField::Child),
                ProblemKind::TwoParents {
                    link: joint.child.to_string(),
                    first: robot.joints[first].name.to_string(),
                    second: joint.name.to_string(),
                },
                Site::Joint(first, JointField::Child),
                "first parent here",
            ),
            None => {
                parent_joint.insert(joint.child.as_ref(), index);
            }
        }
    }
    // Walk up from every joint's parent; reaching the joint's own child again is a loop. Each
    // loop is reported once, at the joint declared last in it.
    let mut reported: HashSet<usize> = HashSet::new();
    for (index, joint) in robot.joints.iter().enumerate() {
        let mut link: &str = &joint.parent;
        let mut steps = 0;
        while let Some(&up) = parent_joint.get(link) {
            if link == joint.child.as_ref() {
                break;
            }
            link = &robot.joints[up].parent;
            steps += 1;
            if steps > robot.joints.len() {
                break;
            }
        }
        if link == joint.child.as_ref() {
            let members: Vec<usize> = loop_members(robot, &parent_joint, joint);
            if members.iter().all(|m| *m <= index) && reported.insert(index) {
                out.push(
                    Site::Joint(index, JointField::Child),
                    ProblemKind::KinematicLoop {
                        joint: joint.name.to_string(),
                        link: joint.child.to_string(),
                    },
                );
            }
        }
    }
    // A joint naming an unknown link (reported) leaves its real child without a parent: that
    // link is no second root as well.
    let unknown_link = robot.joints.iter().any(|j| {
        !link_index.contains_key(j.parent.as_ref()) || !link_index.contains_key(j.child.as_ref())
    });
    if unknown_link {
        return;
    }
    // A repeated link (reported as a duplicate) is not a second root as well.
    let mut names = HashSet::new();
    let roots: Vec<usize> = (0..robot.links.len())
        .filter(|&i| names.insert(robot.links[i].name.as_ref()))
        .filter(|&i| !parent_joint.contains_key(robot.links[i].name.as_ref()))
        .collect();
    if let Some((&root, rest)) = roots.split_first() {
        for &second in rest {
            out.push_related(
                Site::Link(second, LinkField::Name),
                ProblemKind::SecondRoot {
                    link: robot.links[second].name.to_string(),
                    root: robot.links[root].name.to_string(),
                },
                Site::Link(root, LinkField::Name),
                "the root here",
            );
        }
    }
}

/// The joints on the loop closed by `joint`, walking up from its parent.
pub(super) fn loop_members(
    robot: &Robot,
    parent_joint: &HashMap<&str, usize>,
    joint: &Joint,
) -> Vec<usize> {
    let mut members = Vec::new();
    let mut link: &str = &joint.parent;
    while link != joint.child.as_ref() && members.len() <= robot.joints.len() {
        let Some(&up) = parent_joint.get(link) else {
            break;
        };
        members.push(up);
        link = &robot.joints[up].parent;
    }
    members
}
