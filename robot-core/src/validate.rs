//! The rules a robot definition must keep: everything ros2_control, urdfdom and MuJoCo check only
//! at run time, or never.
//!
//! `robot!` runs [`validate`] at expansion and turns each [`Problem`] into a compile error at the
//! token its [`Site`] names; a description built by hand or read from JSON goes through the same
//! function. One function per rule, each with its reason.

use std::collections::{HashMap, HashSet};

use crate::bus_load;
use crate::fourbar::FourBarError;
use crate::interface::InterfaceKind;
use crate::model::{CanId, Joint, JointKind, Robot};

/// Where in the definition a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Site {
    /// The robot header.
    Robot(RobotField),
    /// Link `index` of [`Robot::links`].
    Link(usize, LinkField),
    /// Joint `index` of [`Robot::joints`].
    Joint(usize, JointField),
    /// Bus `index` of [`Robot::buses`].
    Bus(usize, BusField),
    /// Sensor `index` of [`Robot::sensors`].
    Sensor(usize, SensorField),
}

/// A field of the robot header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum RobotField {
    Name,
    UpdateRate,
}

/// A field of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum LinkField {
    Name,
    Inertial,
    Mass,
}

/// A field of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum JointField {
    Name,
    Kind,
    Parent,
    Child,
    Axis,
    Limits,
    Lower,
    Upper,
    Velocity,
    Effort,
    Current,
    Actuator,
    Bus,
    CanId,
    FourBar,
    Mimic,
    /// The command interface at this index of [`Joint::command_interfaces`].
    Command(usize),
    /// The state interface at this index of [`Joint::state_interfaces`].
    State(usize),
}

/// A field of a bus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BusField {
    Name,
    Bitrate,
}

/// A field of a sensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum SensorField {
    Name,
    Link,
    Plugin,
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where it is.
    pub at: Site,
    /// What is wrong.
    pub kind: ProblemKind,
    /// A second place worth showing, with what it is.
    pub related: Option<(Site, &'static str)>,
}

/// What is wrong. Messages name the thing and the rule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[allow(missing_docs)]
pub enum ProblemKind {
    #[error("{what} `{name}` is defined twice")]
    Duplicate { what: &'static str, name: String },
    #[error("joint `{joint}` names unknown link `{link}`")]
    UnknownLink { joint: String, link: String },
    #[error("link `{link}` has two parents: joints `{first}` and `{second}` both have it as child")]
    TwoParents {
        link: String,
        first: String,
        second: String,
    },
    #[error("joint `{joint}` closes a kinematic loop: link `{link}` is its own ancestor")]
    KinematicLoop { joint: String, link: String },
    #[error(
        "link `{link}` is a second root: `{root}` is already the root, and a robot is one tree"
    )]
    SecondRoot { link: String, root: String },
    #[error("the robot has no links")]
    NoLinks,
    #[error("joint `{joint}` is on unknown bus `{bus}`")]
    UnknownBus { joint: String, bus: String },
    #[error("CAN id {id} is used twice on bus `{bus}`: by `{first}` and `{second}`")]
    DuplicateCanId {
        id: CanId,
        bus: String,
        first: String,
        second: String,
    },
    #[error("joint `{joint}`: lower limit {} is not below upper limit {}", quantity(*.lower, .unit), quantity(*.upper, .unit))]
    LimitOrder {
        joint: String,
        lower: f64,
        upper: f64,
        /// `rad` for revolute joints, `m` for prismatic ones.
        unit: &'static str,
    },
    #[error("{kind} joint `{joint}` needs `lower` and `upper` position limits")]
    MissingPositionLimits { joint: String, kind: &'static str },
    #[error("{kind} joint `{joint}` needs `limits {{ lower, upper, velocity, effort }}`")]
    MissingLimits { joint: String, kind: &'static str },
    #[error("continuous joint `{joint}` cannot have position limits (MuJoCo would limit it)")]
    ContinuousWithPositionLimits { joint: String },
    #[error(
        "joint `{joint}`: {what} limit {value} {unit} is beyond what a {model} can do ({max} {unit})"
    )]
    BeyondModel {
        joint: String,
        what: &'static str,
        value: f64,
        max: f64,
        unit: &'static str,
        model: &'static str,
    },
    #[error("joint `{joint}`: {what} must be a positive finite number, not {value}")]
    NotPositive {
        joint: String,
        what: &'static str,
        value: f64,
    },
    #[error("joint `{joint}` declares {direction} interface `{interface}` twice")]
    DuplicateInterface {
        joint: String,
        direction: &'static str,
        interface: InterfaceKind,
    },
    #[error("joint `{joint}`: `{interface}` is not a {direction} interface")]
    WrongDirection {
        joint: String,
        direction: &'static str,
        interface: InterfaceKind,
    },
    #[error("joint `{joint}` mimics unknown joint `{target}`")]
    UnknownMimicJoint { joint: String, target: String },
    #[error("joint `{joint}` cannot mimic itself")]
    MimicSelf { joint: String },
    #[error(
        "mimic joint `{joint}` can have state interfaces only (ros2_control exports no commands for it)"
    )]
    MimicWithCommands { joint: String },
    #[error("mimic joint `{joint}` cannot have an actuator: it follows `{target}`")]
    MimicWithActuator { joint: String, target: String },
    #[error(
        "mimic joint `{joint}` follows `{target}`, which is neither actuated nor a mimic of an actuated joint"
    )]
    MimicOfUncontrolled { joint: String, target: String },
    #[error("fixed joint `{joint}` cannot have {what}")]
    FixedJointControlled { joint: String, what: &'static str },
    #[error(
        "joint `{joint}` has interfaces but no actuator and no mimic, so no hardware block can own it"
    )]
    InterfacesWithoutActuator { joint: String },
    #[error("actuated joint `{joint}` declares no interfaces")]
    ActuatorWithoutInterfaces { joint: String },
    #[error("joint `{joint}`: the four-bar {0}", .source)]
    FourBar { joint: String, source: FourBarError },
    #[error("joint `{joint}`: a four-bar needs a revolute joint with position limits")]
    FourBarNeedsRange { joint: String },
    #[error("joint `{joint}` has a zero-length axis")]
    ZeroAxis { joint: String },
    #[error("{what} `{name}`: {field} must be finite, not {value}")]
    NotFinite {
        what: &'static str,
        name: String,
        field: &'static str,
        value: f64,
    },
    #[error("link `{link}`: mass must be positive, not {mass}")]
    BadMass { link: String, mass: f64 },
    #[error(
        "bus `{bus}` is overloaded: {frames} frames of {bits} bits per cycle at {rate} Hz need {needed} bit/s, more than its {bitrate} bit/s"
    )]
    BusOverloaded {
        bus: String,
        frames: usize,
        bits: u32,
        rate: u32,
        needed: u64,
        bitrate: u32,
    },
    #[error("bus `{bus}`: bit rate {bitrate} bit/s is not a classic CAN rate (at most 1000000)")]
    BadBitrate { bus: String, bitrate: u32 },
    #[error("the update rate must be at least 1 Hz")]
    ZeroUpdateRate,
    #[error("sensor `{sensor}` is on unknown link `{link}`")]
    UnknownSensorLink { sensor: String, link: String },
    #[error("sensor `{sensor}` needs the plugin that drives it on real hardware")]
    MissingPlugin { sensor: String },
    #[error("robot name `{name}` must be the snake case of type name `{type_name}`")]
    BadRobotName { name: String, type_name: String },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind.fmt(f)
    }
}

/// Every problem of the robot, in a stable order; empty when the robot is valid.
pub fn validate(robot: &Robot) -> Vec<Problem> {
    let mut out = Problems::default();
    robot_header(robot, &mut out);
    duplicate_names(robot, &mut out);
    numbers_finite(robot, &mut out);
    tree(robot, &mut out);
    for (index, joint) in robot.joints.iter().enumerate() {
        joint_limits(index, joint, &mut out);
        joint_interfaces(index, joint, &mut out);
        joint_control(index, joint, &mut out);
        joint_actuator(robot, index, joint, &mut out);
        joint_mimic(robot, index, joint, &mut out);
    }
    can_ids(robot, &mut out);
    buses(robot, &mut out);
    sensors(robot, &mut out);
    out.0
}

#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn push(&mut self, at: Site, kind: ProblemKind) {
        self.0.push(Problem {
            at,
            kind,
            related: None,
        });
    }

    fn push_related(&mut self, at: Site, kind: ProblemKind, related: Site, note: &'static str) {
        self.0.push(Problem {
            at,
            kind,
            related: Some((related, note)),
        });
    }
}

/// The update rate drives the loop period and the bus-load check; ROS names derive from the type.
fn robot_header(robot: &Robot, out: &mut Problems) {
    if robot.update_rate == 0 {
        out.push(
            Site::Robot(RobotField::UpdateRate),
            ProblemKind::ZeroUpdateRate,
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

/// Names are how every consumer refers to things: URDF links and joints, ros2_control blocks and
/// sensors, our buses. A second definition would silently shadow the first.
fn duplicate_names(robot: &Robot, out: &mut Problems) {
    fn check<'a>(
        what: &'static str,
        names: impl Iterator<Item = &'a str>,
        site: impl Fn(usize) -> Site,
        out: &mut Problems,
    ) {
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (index, name) in names.enumerate() {
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
fn numbers_finite(robot: &Robot, out: &mut Problems) {
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
        for (field, value, at) in values.chain(axis) {
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
fn tree(robot: &Robot, out: &mut Problems) {
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
                "the root",
            );
        }
    }
}

/// The joints on the loop closed by `joint`, walking up from its parent.
fn loop_members(robot: &Robot, parent_joint: &HashMap<&str, usize>, joint: &Joint) -> Vec<usize> {
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

/// urdfdom rejects revolute and prismatic joints without `<limit>`; lower must be below upper;
/// a continuous joint with bounds would be limited by MuJoCo; non-positive velocity or effort
/// limits would clamp every command to nothing.
fn joint_limits(index: usize, joint: &Joint, out: &mut Problems) {
    let name = || joint.name.to_string();
    let kind = joint.kind.urdf_name();
    let Some(limits) = &joint.limits else {
        if joint.kind.is_bounded() {
            out.push(
                Site::Joint(index, JointField::Kind),
                ProblemKind::MissingLimits {
                    joint: name(),
                    kind,
                },
            );
        }
        return;
    };
    match (joint.kind, limits.lower, limits.upper) {
        // `partial_cmp` so that a NaN bound is also out of order.
        (JointKind::Revolute | JointKind::Prismatic, Some(lower), Some(upper))
            if lower.partial_cmp(&upper) != Some(std::cmp::Ordering::Less) =>
        {
            out.push(
                Site::Joint(index, JointField::Lower),
                ProblemKind::LimitOrder {
                    joint: name(),
                    lower,
                    upper,
                    unit: if joint.kind == JointKind::Prismatic {
                        "m"
                    } else {
                        "rad"
                    },
                },
            );
        }
        (JointKind::Revolute | JointKind::Prismatic, Some(_), Some(_)) => {}
        (JointKind::Revolute | JointKind::Prismatic, _, _) => {
            out.push(
                Site::Joint(index, JointField::Limits),
                ProblemKind::MissingPositionLimits {
                    joint: name(),
                    kind,
                },
            );
        }
        (JointKind::Continuous, lower, upper) if lower.is_some() || upper.is_some() => {
            let field = if lower.is_some() {
                JointField::Lower
            } else {
                JointField::Upper
            };
            out.push(
                Site::Joint(index, field),
                ProblemKind::ContinuousWithPositionLimits { joint: name() },
            );
        }
        _ => {}
    }
    for (what, value, field) in [
        ("velocity limit", limits.velocity, JointField::Velocity),
        ("effort limit", limits.effort, JointField::Effort),
    ] {
        if !(value.is_finite() && value > 0.0) {
            out.push(
                Site::Joint(index, field),
                ProblemKind::NotPositive {
                    joint: name(),
                    what,
                    value,
                },
            );
        }
    }
    if let Some(current) = limits.current
        && !(current.is_finite() && current > 0.0)
    {
        {
            out.push(
                Site::Joint(index, JointField::Current),
                ProblemKind::NotPositive {
                    joint: name(),
                    what: "current limit",
                    value: current,
                },
            );
        }
    }
}

/// ros2_control keys handles by `<joint>/<interface>`: a second declaration would export the same
/// handle twice. Stiffness and damping are inputs to the MIT law, temperature is only measured.
fn joint_interfaces(index: usize, joint: &Joint, out: &mut Problems) {
    for (direction, list, field, allowed) in [
        (
            "command",
            &joint.command_interfaces,
            JointField::Command as fn(usize) -> JointField,
            InterfaceKind::is_command as fn(InterfaceKind) -> bool,
        ),
        (
            "state",
            &joint.state_interfaces,
            JointField::State,
            InterfaceKind::is_state,
        ),
    ] {
        for (i, interface) in list.iter().enumerate() {
            if list[..i]
                .iter()
                .any(|earlier| earlier.kind == interface.kind)
            {
                out.push(
                    Site::Joint(index, field(i)),
                    ProblemKind::DuplicateInterface {
                        joint: joint.name.to_string(),
                        direction,
                        interface: interface.kind,
                    },
                );
            }
            if !allowed(interface.kind) {
                out.push(
                    Site::Joint(index, field(i)),
                    ProblemKind::WrongDirection {
                        joint: joint.name.to_string(),
                        direction,
                        interface: interface.kind,
                    },
                );
            }
        }
    }
}

/// ros2_control refuses fixed joints in a block; every exported joint needs a block, and on real
/// hardware the block is its bus's, so a controlled joint needs an actuator (or follows one).
fn joint_control(index: usize, joint: &Joint, out: &mut Problems) {
    let name = || joint.name.to_string();
    if joint.kind == JointKind::Fixed {
        if joint.actuator.is_some() {
            out.push(
                Site::Joint(index, JointField::Actuator),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "an actuator",
                },
            );
        }
        if joint.is_controlled() {
            out.push(
                Site::Joint(index, JointField::Kind),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "interfaces",
                },
            );
        }
        if joint.mimic.is_some() {
            out.push(
                Site::Joint(index, JointField::Mimic),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "a mimic",
                },
            );
        }
        return;
    }
    if joint.is_controlled() && joint.actuator.is_none() && joint.mimic.is_none() {
        out.push(
            Site::Joint(index, JointField::Name),
            ProblemKind::InterfacesWithoutActuator { joint: name() },
        );
    }
    if joint.actuator.is_some() && !joint.is_controlled() {
        out.push(
            Site::Joint(index, JointField::Actuator),
            ProblemKind::ActuatorWithoutInterfaces { joint: name() },
        );
    }
}

/// The actuator model bounds what the joint may ask for (through the four-bar's ratio where there
/// is one), and a four-bar must assemble, away from toggle poses, over the whole joint range.
fn joint_actuator(robot: &Robot, index: usize, joint: &Joint, out: &mut Problems) {
    let Some(actuator) = &joint.actuator else {
        return;
    };
    let name = || joint.name.to_string();
    if robot.bus(&actuator.bus).is_none() {
        out.push(
            Site::Joint(index, JointField::Bus),
            ProblemKind::UnknownBus {
                joint: name(),
                bus: actuator.bus.to_string(),
            },
        );
    }
    let spec = actuator.model.spec();
    // Joint velocity = J · motor velocity and joint torque = motor torque / J; with no linkage J = 1.
    let mut ratio = (1.0_f64, 1.0_f64);
    if let Some(four_bar) = &actuator.four_bar {
        match joint
            .limits
            .and_then(|l| l.lower.zip(l.upper))
            .filter(|_| joint.kind == JointKind::Revolute)
        {
            None => out.push(
                Site::Joint(index, JointField::FourBar),
                ProblemKind::FourBarNeedsRange { joint: name() },
            ),
            Some((lower, upper)) => match four_bar.check_range(lower, upper) {
                Ok(report) => ratio = (report.min_ratio.abs(), report.max_ratio.abs()),
                Err(source) => {
                    out.push(
                        Site::Joint(index, JointField::FourBar),
                        ProblemKind::FourBar {
                            joint: name(),
                            source,
                        },
                    );
                    return;
                }
            },
        }
    }
    let Some(limits) = &joint.limits else { return };
    let (min_ratio, max_ratio) = (ratio.0.min(ratio.1), ratio.0.max(ratio.1));
    // The joint limit must be reachable everywhere in the range: velocity at the smallest ratio,
    // torque at the largest.
    let max_velocity = spec.velocity * min_ratio;
    let max_effort = spec.torque / max_ratio;
    let model = actuator.model.name();
    if limits.velocity > max_velocity * (1.0 + 1e-9) {
        out.push(
            Site::Joint(index, JointField::Velocity),
            ProblemKind::BeyondModel {
                joint: name(),
                what: "velocity",
                value: limits.velocity,
                max: round3(max_velocity),
                unit: "rad/s",
                model,
            },
        );
    }
    if limits.effort > max_effort * (1.0 + 1e-9) {
        out.push(
            Site::Joint(index, JointField::Effort),
            ProblemKind::BeyondModel {
                joint: name(),
                what: "effort",
                value: limits.effort,
                max: round3(max_effort),
                unit: "N·m",
                model,
            },
        );
    }
}

/// A value for a message: at most 4 decimals, and degrees beside radians, since definitions are
/// often written in degrees (`90 deg` reads back as `1.5708 rad (90°)`).
fn quantity(value: f64, unit: &str) -> String {
    let short = |v: f64| {
        let text = format!("{v:.4}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    };
    if unit == "rad" {
        format!("{} rad ({}°)", short(value), short(value.to_degrees()))
    } else {
        format!("{} {unit}", short(value))
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).floor() / 1000.0
}

/// ros2_control's parser wants a mimic joint to follow a joint of the same block, and exports only
/// its states; a joint cannot follow itself or a joint that does not exist.
fn joint_mimic(robot: &Robot, index: usize, joint: &Joint, out: &mut Problems) {
    let Some(mimic) = &joint.mimic else { return };
    let name = || joint.name.to_string();
    let site = Site::Joint(index, JointField::Mimic);
    if mimic.joint == joint.name {
        out.push(site, ProblemKind::MimicSelf { joint: name() });
        return;
    }
    let Some(target) = robot.joint(&mimic.joint) else {
        out.push(
            site,
            ProblemKind::UnknownMimicJoint {
                joint: name(),
                target: mimic.joint.to_string(),
            },
        );
        return;
    };
    if !joint.command_interfaces.is_empty() {
        out.push(
            Site::Joint(index, JointField::Command(0)),
            ProblemKind::MimicWithCommands { joint: name() },
        );
    }
    if joint.actuator.is_some() {
        out.push(
            Site::Joint(index, JointField::Actuator),
            ProblemKind::MimicWithActuator {
                joint: name(),
                target: target.name.to_string(),
            },
        );
    } else if robot.bus_of(joint).is_none() {
        out.push(
            site,
            ProblemKind::MimicOfUncontrolled {
                joint: name(),
                target: target.name.to_string(),
            },
        );
    }
}

/// Two actuators answering to one id on one bus would both obey every frame.
fn can_ids(robot: &Robot, out: &mut Problems) {
    let mut seen: HashMap<(&str, CanId), usize> = HashMap::new();
    for (index, joint) in robot.joints.iter().enumerate() {
        let Some(actuator) = &joint.actuator else {
            continue;
        };
        match seen.get(&(actuator.bus.as_ref(), actuator.can_id)) {
            Some(&first) => out.push_related(
                Site::Joint(index, JointField::CanId),
                ProblemKind::DuplicateCanId {
                    id: actuator.can_id,
                    bus: actuator.bus.to_string(),
                    first: robot.joints[first].name.to_string(),
                    second: joint.name.to_string(),
                },
                Site::Joint(first, JointField::CanId),
                "first used here",
            ),
            None => {
                seen.insert((actuator.bus.as_ref(), actuator.can_id), index);
            }
        }
    }
}

/// A bus must carry every cycle's frames within the cycle: see [`bus_load`].
fn buses(robot: &Robot, out: &mut Problems) {
    for (index, bus) in robot.buses.iter().enumerate() {
        let bitrate = bus.kind.bitrate();
        if bitrate == 0 || bitrate > bus_load::MAX_CLASSIC_CAN_BITRATE {
            out.push(
                Site::Bus(index, BusField::Bitrate),
                ProblemKind::BadBitrate {
                    bus: bus.name.to_string(),
                    bitrate,
                },
            );
            continue;
        }
        let load = bus_load::load(robot, bus);
        if load.needed_bits_per_second > u64::from(bitrate) {
            out.push(
                Site::Bus(index, BusField::Bitrate),
                ProblemKind::BusOverloaded {
                    bus: bus.name.to_string(),
                    frames: load.frames_per_cycle,
                    bits: bus_load::WORST_CASE_FRAME_BITS,
                    rate: robot.update_rate,
                    needed: load.needed_bits_per_second,
                    bitrate,
                },
            );
        }
    }
}

/// A sensor sits on a link of this robot, and real hardware needs a plugin to drive it.
fn sensors(robot: &Robot, out: &mut Problems) {
    for (index, sensor) in robot.sensors.iter().enumerate() {
        if robot.link(&sensor.link).is_none() {
            out.push(
                Site::Sensor(index, SensorField::Link),
                ProblemKind::UnknownSensorLink {
                    sensor: sensor.name.to_string(),
                    link: sensor.link.to_string(),
                },
            );
        }
        if sensor.plugin.trim().is_empty() {
            out.push(
                Site::Sensor(index, SensorField::Plugin),
                ProblemKind::MissingPlugin {
                    sensor: sensor.name.to_string(),
                },
            );
        }
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
