//! Where a problem is ([`Site`]) and what it is ([`ProblemKind`]).

use super::suggest::did_you_mean;
use crate::fourbar::FourBarError;
use crate::interface::InterfaceKind;
use crate::model::CanId;

/// Where in the definition a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Site {
    /// The robot header.
    Robot(RobotField),
    /// Link `index` of [`Robot::links`](crate::Robot::links).
    Link(usize, LinkField),
    /// Joint `index` of [`Robot::joints`](crate::Robot::joints).
    Joint(usize, JointField),
    /// Bus `index` of [`Robot::buses`](crate::Robot::buses).
    Bus(usize, BusField),
    /// Sensor `index` of [`Robot::sensors`](crate::Robot::sensors).
    Sensor(usize, SensorField),
    /// Controller group `index` of [`Robot::controller_groups`](crate::Robot::controller_groups).
    ControllerGroup(usize, ControllerGroupField),
    /// Allowed contact `index` of [`Robot::allowed_contacts`](crate::Robot::allowed_contacts).
    AllowedContact(usize, AllowedContactField),
}

/// A field of an allowed contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllowedContactField {
    /// Its name.
    Name,
    /// Its `links` list as a whole.
    Links,
    /// The link at this index of the list.
    Link(usize),
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
    /// A parameter's value inside `four_bar { .. }`.
    FourBarParam(crate::fourbar::FourBarParam),
    Lead,
    Mimic,
    /// The command interface at this index of [`Joint::command_interfaces`](crate::model::Joint::command_interfaces).
    Command(usize),
    /// The state interface at this index of [`Joint::state_interfaces`](crate::model::Joint::state_interfaces).
    State(usize),
}

/// A field of a bus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BusField {
    Name,
    Bitrate,
    MaxLoad,
}

/// A field of a sensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum SensorField {
    Name,
    Link,
    Plugin,
    Threshold,
}

/// A field of a controller group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControllerGroupField {
    /// The group's name.
    Name,
    /// Its `joints` list as a whole.
    Joints,
    /// The joint at this index of [`ControllerGroup::joints`](crate::model::ControllerGroup::joints).
    Joint(usize),
    /// Its `feedforward`.
    Feedforward,
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
    #[error("{what} name `{name}` is not a name: a letter or `_`, then letters, digits and `_`")]
    BadName { what: &'static str, name: String },
    #[error("{what} name `{name}` cannot be used in generated code: {reason}")]
    UnusableName {
        what: &'static str,
        name: String,
        reason: String,
    },
    #[error(
        "{what} `{first}` and {other_what} `{second}` both become `{generated}` in generated names; rename one"
    )]
    NameCollision {
        what: &'static str,
        first: String,
        other_what: &'static str,
        second: String,
        generated: String,
    },
    #[error("{what} `{name}` is defined twice")]
    Duplicate { what: &'static str, name: String },
    #[error("joint `{joint}` names unknown link `{link}`{}", did_you_mean(.suggestion))]
    UnknownLink {
        joint: String,
        link: String,
        /// The known link closest to `link`, if one is close.
        suggestion: Option<String>,
    },
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
    #[error("joint `{joint}` is on unknown bus `{bus}`{}", did_you_mean(.suggestion))]
    UnknownBus {
        joint: String,
        bus: String,
        /// The known bus closest to `bus`, if one is close.
        suggestion: Option<String>,
    },
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
        "joint `{joint}`: {what} {value} {unit} is beyond what {} {model} can do ({max} {unit}{})",
        article(.model),
        at_the_joint(*.through)
    )]
    BeyondModel {
        joint: String,
        /// `velocity limit`, `initial stiffness`, ...
        what: &'static str,
        value: f64,
        /// What the model gives at the joint: through `through`, where there is a linkage.
        max: f64,
        unit: &'static str,
        model: &'static str,
        /// `four-bar` or `lead`: the model's range seen at the joint through it.
        through: Option<&'static str>,
    },
    #[error(
        "joint `{joint}`: its {end} limit {} puts the motor {} from its zero, beyond the ±{} {} {model}'s turns are counted over (past it, the motor's f32 multi-turn angle steps coarser than its feedback); narrow the limits or change the actuator's `zero_offset`",
        quantity(*.limit, .unit),
        turns(*.motor),
        turns(*.range),
        article(.model)
    )]
    BeyondPositionRange {
        joint: String,
        /// `lower` or `upper`.
        end: &'static str,
        limit: f64,
        /// `rad` for revolute joints, `m` for prismatic ones.
        unit: &'static str,
        /// The motor angle at that limit, rad.
        motor: f64,
        /// How far the turn counter reaches either way, rad
        /// ([`crate::actuator::TURN_COUNTER_SPAN`]).
        range: f64,
        model: &'static str,
    },
    #[error("joint `{joint}`: {what} {value} is negative; MIT gains start at 0")]
    NegativeGain {
        joint: String,
        what: &'static str,
        value: f64,
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
    #[error("joint `{joint}` mimics unknown joint `{target}`{}", did_you_mean(.suggestion))]
    UnknownMimicJoint {
        joint: String,
        target: String,
        /// The known joint closest to `target`, if one is close.
        suggestion: Option<String>,
    },
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
    #[error(
        "prismatic joint `{joint}`: its actuator turns, so it needs `lead`, the travel per motor \
         revolution (a lead screw's lead, or 2π times a pinion's pitch radius: `lead: 50 mm`)"
    )]
    PrismaticNeedsLead { joint: String },
    #[error(
        "{kind} joint `{joint}` cannot have a `lead`: a lead turns motor rotation into the travel \
         of a prismatic joint"
    )]
    LeadOnRotaryJoint { joint: String, kind: &'static str },
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
    #[error("{0}")]
    BusOverloaded(crate::bus_load::BusOverload),
    #[error("bus `{bus}`: `max_load` must be above 0 % and at most 100 %, not {}", crate::bus_load::percent(*.value))]
    BadMaxLoad { bus: String, value: f64 },
    #[error("bus `{bus}`: bit rate {bitrate} bit/s is not a classic CAN rate (at most 1000000)")]
    BadBitrate { bus: String, bitrate: u32 },
    #[error("the update rate must be at least 1 Hz")]
    ZeroUpdateRate,
    #[error("sensor `{sensor}` is on unknown link `{link}`{}", did_you_mean(.suggestion))]
    UnknownSensorLink {
        sensor: String,
        link: String,
        /// The known link closest to `link`, if one is close.
        suggestion: Option<String>,
    },
    #[error("sensor `{sensor}` needs the plugin that drives it on real hardware")]
    MissingPlugin { sensor: String },
    #[error("contact sensor `{sensor}`: the threshold must be a force above 0 N, not {value} N")]
    BadContactThreshold { sensor: String, value: f64 },
    #[error("{kind} `{sensor}`: only a contact sensor has a threshold")]
    ThresholdWithoutContact { sensor: String, kind: &'static str },
    #[error(
        "contact sensor `{sensor}` senses the collision geometry of link `{link}`, which has {}",
        if *.meshes_only { "only meshes: give it a box, sphere, capsule or cylinder collision" }
        else { "none: give it a collision box, sphere, capsule or cylinder" }
    )]
    ContactWithoutGeometry {
        sensor: String,
        link: String,
        meshes_only: bool,
    },
    #[error(
        "force/torque sensor `{sensor}` measures what link `{link}`'s parent exerts on it, and \
         `{link}` is the root link: put the sensor on a link below a joint"
    )]
    ForceTorqueOnRoot { sensor: String, link: String },
    #[error("robot name `{name}` must be the snake case of type name `{type_name}`")]
    BadRobotName { name: String, type_name: String },
    #[error("allowed contact `{contact}` names unknown link `{link}`{}", did_you_mean(.suggestion))]
    UnknownContactLink {
        contact: String,
        link: String,
        /// The known link closest to `link`, if one is close.
        suggestion: Option<String>,
    },
    #[error(
        "allowed contact `{contact}` names `{link}` twice: a contact is between two different links"
    )]
    ContactWithItself { contact: String, link: String },
    #[error("controller group `{group}` lists no joints")]
    EmptyControllerGroup { group: String },
    #[error(
        "controller group `{group}` feeds {feedforward} forward, but none of its joints takes an \
         `effort` command to carry it; add `effort` to the `command` of the joints it should \
         reach"
    )]
    FeedforwardWithoutEffort {
        group: String,
        feedforward: &'static str,
    },
    #[error("controller group `{group}` lists unknown joint `{joint}`{}", did_you_mean(.suggestion))]
    UnknownControllerJoint {
        group: String,
        joint: String,
        /// The commanded joint closest to `joint`, if one is close.
        suggestion: Option<String>,
    },
    #[error("controller group `{group}` lists joint `{joint}`, which takes no commands: {reason}")]
    UncommandedControllerJoint {
        group: String,
        joint: String,
        reason: String,
    },
    #[error("joint `{joint}` is in controller group `{first}` already; a joint is in one group")]
    JointInTwoGroups { joint: String, first: String },
    #[error(
        "controller group `{group}` mixes `{with}`, which takes `position` and gets a \
         joint_trajectory_controller, and `{without}`, which does not; put them in separate groups"
    )]
    MixedControllerGroup {
        group: String,
        with: String,
        without: String,
    },
    #[error(
        "controller group `{group}` names its controller `{controller}`, as does {other}; \
         rename the group"
    )]
    ControllerNameTaken {
        group: String,
        controller: String,
        other: String,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind.fmt(f)
    }
}

/// ` at the joint, through its four-bar` after a limit where one stands between motor and joint.
fn at_the_joint(through: Option<&str>) -> String {
    through.map_or(String::new(), |linkage| {
        format!(" at the joint, through its {linkage}")
    })
}

/// "a" or "an" before `word`, by how its first letter sounds: an initialism is read letter by
/// letter ("an RS03", "an LED", "a CAN bus"), another word by whether it starts with a vowel.
pub(crate) fn article(word: &str) -> &'static str {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return "a";
    };
    let initialism = first.is_ascii_uppercase()
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    let vowel_sound = if initialism {
        // A, E, F, H, I, L, M, N, O, R, S, X are said starting with a vowel ("ar", "ess", ...).
        "AEFHILMNORSX".contains(first)
    } else {
        "aeiouAEIOU".contains(first)
    };
    if vowel_sound { "an" } else { "a" }
}

/// A value for a message: at most 4 decimals, and degrees beside radians, since definitions are
/// often written in degrees (`90 deg` reads back as `1.5708 rad (90°)`).
fn quantity(value: f64, unit: &str) -> String {
    if unit == "rad" {
        format!(
            "{} rad ({}°)",
            trimmed(value, 4),
            trimmed(value.to_degrees(), 4)
        )
    } else {
        format!("{} {unit}", trimmed(value, 4))
    }
}

/// A motor angle in radians and turns: `4712.3889 rad (750 turns)`.
fn turns(angle: f64) -> String {
    format!(
        "{} rad ({} turns)",
        trimmed(angle, 4),
        trimmed(angle / std::f64::consts::TAU, 1)
    )
}

/// `value` to `decimals` places, without trailing zeros or a negative zero.
fn trimmed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_follows_the_first_sound() {
        assert_eq!(article("RS03"), "an");
        assert_eq!(article("RS00"), "an");
        assert_eq!(article("CAN"), "a");
        assert_eq!(article("actuator"), "an");
        assert_eq!(article("revolute"), "a");
        assert_eq!(article("LED"), "an");
    }

    #[test]
    fn beyond_model_says_an_rs02() {
        let kind = ProblemKind::BeyondModel {
            joint: "j".into(),
            what: "velocity limit",
            value: 100.0,
            max: 44.0,
            unit: "rad/s",
            model: "RS02",
            through: None,
        };
        assert_eq!(
            kind.to_string(),
            "joint `j`: velocity limit 100 rad/s is beyond what an RS02 can do (44 rad/s)"
        );
        let kind = ProblemKind::BeyondModel {
            joint: "ankle".into(),
            what: "effort limit",
            value: 14.0,
            max: 12.82,
            unit: "N·m",
            model: "RS00",
            through: Some("four-bar"),
        };
        assert_eq!(
            kind.to_string(),
            "joint `ankle`: effort limit 14 N·m is beyond what an RS00 can do (12.82 N·m at the \
             joint, through its four-bar)"
        );
    }
}
