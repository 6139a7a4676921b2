//! The definition model: everything a `robot!` invocation can say, as plain data.
//!
//! The macro expands to a `static` [`Robot`] built from borrowed data; a description read back from
//! `<robot>.json` holds owned data. Both are the same type thanks to [`Str`] and [`List`], so every
//! emitter, validator and backend works on one model.
//!
//! Units are SI throughout: metres, radians, kilograms, seconds, newton-metres, amperes.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::interface::InterfaceKind;

mod hardware;

pub use hardware::{
    Actuator, Bus, BusKind, BusName, CanId, CanIdError, DEFAULT_CAN_BITRATE,
    DEFAULT_CONTACT_THRESHOLD, DEFAULT_MAX_LOAD, Direction, MockParams, Param, Sensor, SensorKind,
};

/// A name or other text: borrowed in a generated `static`, owned when deserialized.
pub type Str = Cow<'static, str>;
/// A sequence: borrowed in a generated `static`, owned when deserialized.
pub type List<T> = Cow<'static, [T]>;

/// One robot variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Robot {
    /// The Rust type name of the variant, e.g. `LiteBiped`; block names derive from it.
    pub type_name: Str,
    /// The ROS name, the snake case of `type_name`, e.g. `lite_biped`.
    pub name: Str,
    /// Controller-manager update rate, in Hz.
    pub update_rate: u32,
    /// The root link moves freely (a legged robot): the MJCF gives it a free joint. Otherwise
    /// (an arm on a table) the root is welded to the world.
    #[serde(default)]
    pub floating_base: bool,
    /// Links, in declaration order.
    pub links: List<Link>,
    /// Joints, in declaration order.
    pub joints: List<Joint>,
    /// Field buses the actuators sit on.
    pub buses: List<Bus>,
    /// Sensors (IMUs) mounted on links.
    pub sensors: List<Sensor>,
    /// Parameters of the mock backend (`mock_components/GenericSystem`), emitted on its block.
    #[serde(default)]
    pub mock: MockParams,
    /// Controller groups the definition names, overriding the default grouping by bus for their
    /// joints (see `robot_core::controller_plan`).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub controller_groups: List<ControllerGroup>,
    /// Contacts between links that the design means (two parts that touch at the home pose, a
    /// linkage that overlaps): no collision between them, in MuJoCo an `<exclude>`, and no
    /// self-collision warning.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub allowed_contacts: List<AllowedContact>,
}

/// A contact the design means: `allow_contact name { links: [a, b] }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedContact {
    /// Its name, for messages and MJCF's `<exclude name>`.
    pub name: Str,
    /// The two links, by name.
    pub links: [Str; 2],
}

/// Joints the definition puts under one set of controllers: a joint_trajectory_controller
/// `<name>_trajectory_controller` and forward command controllers `<name>_<interface>_controller`
/// for what it does not take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControllerGroup {
    /// The group's name, the prefix of its controllers' names.
    pub name: Str,
    /// Its joints, by name: actuated, not mimic, each in at most one group.
    pub joints: List<Str>,
    /// What its trajectory controller feeds forward through the `effort` commands of its joints
    /// (`feedforward: gravity`); nothing unless written.
    #[serde(default, skip_serializing_if = "Feedforward::is_none")]
    pub feedforward: Feedforward,
}

/// A torque a group's trajectory controller adds to its servo's, through each joint's `effort`
/// command (where the joint declares one), computed from the definition (`robot_model::dynamics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Feedforward {
    /// None: the servo alone, as joint_trajectory_controller does.
    #[default]
    None,
    /// The gravity torque at the desired positions (the others' measured): what holds the
    /// links up, so the servo's error is left for what gravity does not explain.
    Gravity,
}

impl Feedforward {
    /// Every option, in the order messages list them.
    pub const ALL: [Feedforward; 2] = [Feedforward::None, Feedforward::Gravity];

    /// Whether nothing is fed forward.
    pub fn is_none(&self) -> bool {
        *self == Feedforward::None
    }

    /// Its name in a definition (`gravity`).
    pub const fn name(self) -> &'static str {
        match self {
            Feedforward::None => "none",
            Feedforward::Gravity => "gravity",
        }
    }
}

/// A rigid body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Link name, unique in the robot.
    pub name: Str,
    /// Mass properties; a link without them is a massless frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertial: Option<Inertial>,
    /// Shapes drawn by viewers.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub visuals: List<Shape>,
    /// Shapes used for contact.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub collisions: List<Shape>,
}

fn is_empty<T: Clone>(list: &List<T>) -> bool {
    list.is_empty()
}

/// Mass, centre of mass and inertia tensor of a link.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Inertial {
    /// Mass, kg.
    pub mass: f64,
    /// Centre of mass (and frame of the inertia tensor) in the link frame.
    #[serde(default)]
    pub origin: Pose,
    /// Inertia tensor about the centre of mass, kg·m².
    pub inertia: Inertia,
}

/// The six independent entries of a symmetric inertia tensor, kg·m².
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Inertia {
    pub ixx: f64,
    pub ixy: f64,
    pub ixz: f64,
    pub iyy: f64,
    pub iyz: f64,
    pub izz: f64,
}

impl Inertia {
    /// The six entries with their URDF attribute names, in URDF order.
    pub const fn entries(&self) -> [(&'static str, f64); 6] {
        [
            ("ixx", self.ixx),
            ("ixy", self.ixy),
            ("ixz", self.ixz),
            ("iyy", self.iyy),
            ("iyz", self.iyz),
            ("izz", self.izz),
        ]
    }
}

/// A frame relative to its parent: translation, then fixed-axis roll-pitch-yaw (URDF convention).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pose {
    /// Translation, m.
    #[serde(default)]
    pub xyz: [f64; 3],
    /// Roll, pitch, yaw about the parent's fixed x, y, z axes, rad.
    #[serde(default)]
    pub rpy: [f64; 3],
}

impl Pose {
    /// The identity pose.
    pub const IDENTITY: Pose = Pose {
        xyz: [0.0; 3],
        rpy: [0.0; 3],
    };
}

/// A placed geometry, used for visuals and collisions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    /// Placement of the geometry in the link frame.
    #[serde(default)]
    pub origin: Pose,
    /// The geometry itself.
    pub geometry: Geometry,
}

/// Geometry primitives and meshes. Cylinders and capsules lie along their local z axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Geometry {
    /// A box with the given full edge lengths, m.
    Box {
        /// Edge lengths along x, y, z, m.
        size: [f64; 3],
    },
    /// A cylinder.
    Cylinder {
        /// Radius, m.
        radius: f64,
        /// Full length, m.
        length: f64,
    },
    /// A sphere.
    Sphere {
        /// Radius, m.
        radius: f64,
    },
    /// A capsule: a cylinder of `length` capped by two hemispheres. URDF has no capsule, so URDF
    /// output approximates it by a cylinder of the same radius and overall length; MJCF keeps it.
    Capsule {
        /// Radius, m.
        radius: f64,
        /// Length of the cylindrical part, m.
        length: f64,
    },
    /// A mesh file.
    Mesh {
        /// Path or `package://` URI of the mesh.
        filename: Str,
        /// Scale along x, y, z.
        #[serde(default = "unit_scale")]
        scale: [f64; 3],
    },
}

fn unit_scale() -> [f64; 3] {
    [1.0; 3]
}

/// The kinds of joint URDF knows, minus `floating` and `planar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JointKind {
    /// Rotation about the axis between lower and upper limits.
    Revolute,
    /// Unbounded rotation about the axis. On a RobStride actuator, whose MIT frame spans ±4π, the
    /// backend counts the turns of the looping angle the motor reports and sends targets relative
    /// to it (see `robot_core::actuator`).
    Continuous,
    /// Translation along the axis between lower and upper limits.
    Prismatic,
    /// No motion.
    Fixed,
}

impl JointKind {
    /// The URDF `type` attribute.
    pub const fn urdf_name(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
            JointKind::Fixed => "fixed",
        }
    }

    /// Whether the joint moves at all.
    pub const fn is_movable(self) -> bool {
        !matches!(self, JointKind::Fixed)
    }

    /// Whether URDF requires lower and upper position limits.
    pub const fn is_bounded(self) -> bool {
        matches!(self, JointKind::Revolute | JointKind::Prismatic)
    }
}

/// A joint between a parent and a child link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Joint {
    /// Joint name, unique in the robot; also the ros2_control and MJCF joint name.
    pub name: Str,
    /// Joint type.
    pub kind: JointKind,
    /// Parent link.
    pub parent: Str,
    /// Child link.
    pub child: Str,
    /// Joint frame in the parent link frame.
    #[serde(default)]
    pub origin: Pose,
    /// Motion axis in the joint frame (unit vector; ignored for fixed joints).
    #[serde(default = "z_axis")]
    pub axis: [f64; 3],
    /// Position, velocity, effort and current limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// Passive dynamics: viscous damping and dry friction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamics: Option<Dynamics>,
    /// The RobStride actuator driving the joint, for actuated joints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actuator: Option<Actuator>,
    /// This joint follows another one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mimic: Option<Mimic>,
    /// Command interfaces, in declaration order.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub command_interfaces: List<Interface>,
    /// State interfaces, in declaration order.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub state_interfaces: List<Interface>,
}

fn z_axis() -> [f64; 3] {
    [0.0, 0.0, 1.0]
}

impl Joint {
    /// Whether ros2_control exposes the joint: it has interfaces of any kind.
    pub fn is_controlled(&self) -> bool {
        !self.command_interfaces.is_empty() || !self.state_interfaces.is_empty()
    }

    /// The declared command interface of that kind, if any.
    pub fn command_interface(&self, kind: InterfaceKind) -> Option<&Interface> {
        self.command_interfaces.iter().find(|i| i.kind == kind)
    }

    /// The declared state interface of that kind, if any.
    pub fn state_interface(&self, kind: InterfaceKind) -> Option<&Interface> {
        self.state_interfaces.iter().find(|i| i.kind == kind)
    }
}

/// Joint limits. Position limits are required for revolute and prismatic joints and forbidden for
/// continuous ones (MuJoCo would otherwise limit a continuous joint).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Lower position limit, rad or m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower: Option<f64>,
    /// Upper position limit, rad or m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<f64>,
    /// Velocity limit, rad/s or m/s.
    pub velocity: f64,
    /// Effort (torque or force) limit, N·m or N.
    pub effort: f64,
    /// Motor current limit, A. Checked to be positive, not against the model, whose manuals
    /// state no peak current (see `robot_core::actuator`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<f64>,
}

/// Passive joint dynamics.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dynamics {
    /// Viscous damping, N·m·s/rad.
    #[serde(default)]
    pub damping: f64,
    /// Dry (Coulomb) friction, N·m.
    #[serde(default)]
    pub friction: f64,
    /// Reflected rotor inertia, kg·m² (MJCF `armature`).
    #[serde(default)]
    pub armature: f64,
}

/// This joint's position is `multiplier · q(joint) + offset`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mimic {
    /// The joint followed.
    pub joint: Str,
    /// Gain on the followed joint's position.
    #[serde(default = "one")]
    pub multiplier: f64,
    /// Offset added after the gain, rad or m.
    #[serde(default)]
    pub offset: f64,
}

fn one() -> f64 {
    1.0
}

/// A declared command or state interface of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Interface {
    /// Which interface.
    pub kind: InterfaceKind,
    /// Value before the first read or command (ros2_control `initial_value`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_value: Option<f64>,
}

impl Robot {
    /// The link of that name.
    pub fn link(&self, name: &str) -> Option<&Link> {
        self.links.iter().find(|l| l.name == name)
    }

    /// The joint of that name.
    pub fn joint(&self, name: &str) -> Option<&Joint> {
        self.joints.iter().find(|j| j.name == name)
    }

    /// The bus of that name.
    pub fn bus(&self, name: &str) -> Option<&Bus> {
        self.buses.iter().find(|b| b.name == name)
    }

    /// Joints exposed to ros2_control, in declaration order.
    pub fn controlled_joints(&self) -> impl Iterator<Item = &Joint> {
        self.joints.iter().filter(|j| j.is_controlled())
    }

    /// Joints with an actuator, in declaration order.
    pub fn actuated_joints(&self) -> impl Iterator<Item = &Joint> {
        self.joints.iter().filter(|j| j.actuator.is_some())
    }

    /// The joints ros2_control places in a bus's block: the bus's actuated joints and the mimic
    /// joints that follow them, in declaration order.
    pub fn joints_on_bus<'a>(&'a self, bus: &'a str) -> impl Iterator<Item = &'a Joint> + 'a {
        self.joints
            .iter()
            .filter(move |j| self.bus_of(j) == Some(bus))
    }

    /// The name of the real-hardware `<ros2_control>` block (and so of the backend component) of
    /// bus `bus`: the robot's type name then the bus's in upper camel case (`LiteBipedLeftLeg`).
    pub fn bus_block_name(&self, bus: &str) -> String {
        format!(
            "{}{}",
            self.type_name,
            heck::ToUpperCamelCase::to_upper_camel_case(bus)
        )
    }

    /// The sensors of one kind, each with its index into [`Robot::sensors`] (which its state
    /// slots are found by), in declaration order.
    pub fn sensors_of(&self, kind: SensorKind) -> impl Iterator<Item = (usize, &Sensor)> {
        (self.sensors.iter().enumerate()).filter(move |(_, s)| s.kind == kind)
    }

    /// The name of the real-hardware `type="sensor"` block (and so of the backend component) of
    /// `sensor`: `<Robot>IMU` for a robot's only IMU, the customary name; `<Robot><Sensor>` in
    /// upper camel case for each of several IMUs (`LiteBipedHeadImu`) and for every other sensor
    /// (`StriderLeftFootFt`).
    pub fn sensor_block_name(&self, sensor: &str) -> String {
        let imus = self.sensors_of(SensorKind::Imu).count();
        let is_imu = self
            .sensors_of(SensorKind::Imu)
            .any(|(_, s)| s.name == sensor);
        match imus {
            1 if is_imu => format!("{}IMU", self.type_name),
            _ => format!(
                "{}{}",
                self.type_name,
                heck::ToUpperCamelCase::to_upper_camel_case(sensor)
            ),
        }
    }

    /// The bus a controlled joint belongs to: its actuator's, or for a mimic joint, the bus of the
    /// joint it follows.
    pub fn bus_of<'a>(&'a self, joint: &'a Joint) -> Option<&'a str> {
        let mut current = joint;
        // A mimic chain is at most as long as the joint list; the bound keeps a bad (unvalidated)
        // description from looping.
        for _ in 0..=self.joints.len() {
            if let Some(actuator) = &current.actuator {
                return Some(&actuator.bus);
            }
            current = self.joint(&current.mimic.as_ref()?.joint)?;
        }
        None
    }

    /// The root link: the one link that is no joint's child, when the tree is valid.
    pub fn root_link(&self) -> Option<&Link> {
        self.links
            .iter()
            .find(|l| !self.joints.iter().any(|j| j.child == l.name))
    }
}
