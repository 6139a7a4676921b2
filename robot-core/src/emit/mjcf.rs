//! `<robot>.mjcf.xml`: a MuJoCo (3.17) model of the robot's kinematics and inertias.
//!
//! ```text
//! <!-- header -->
//! <mujoco model="lite_biped">
//!   <compiler angle="radian" autolimits="true"/>
//!   <option timestep="1/update_rate" integrator="implicitfast"/>
//!   <asset><mesh name file scale/>…</asset>              only with mesh geometry
//!   <worldbody>
//!     <body name="pelvis">                               the root link
//!       <freejoint name="floating_base_joint"/>          floating-base robots only
//!       <inertial/> <geom/>… <site/>…                    the link's contents
//!       <body name="child" pos quat>                     one per child joint, declaration order
//!         <joint name="the joint"/>                      none for a fixed joint
//!         …
//!   </worldbody>
//!   <equality><joint joint1 joint2 polycoef/>…</equality>   mimic joints
//!   <actuator><motor/>…</actuator>                          one per actuated joint
//!   <sensor>framequat, gyro, accelerometer…</sensor>        per IMU
//! </mujoco>
//! ```
//!
//! The scenes around it (`<robot>.scene.xml`, `<robot>.stand.scene.xml`) are in [`scene`].
//!
//! MJCF joint and actuator names are the ros2_control joint names, and the IMU sensors are named
//! `<prefix>_quat`, `<prefix>_gyro`, `<prefix>_accel`, which is what MujocoSystem reads. The MuJoCo
//! backend steps at the loop period and writes the MIT torque into each motor's `ctrl`.

use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesText, Event};

use super::EmitError;
use super::format::{self, number, numbers};
use crate::kinematics;
use crate::model::{
    Geometry, Inertia, Joint, JointKind, Link, Pose, Robot, Sensor, SensorKind, Shape,
};

type Xml = Writer<Vec<u8>>;

/// Name of the free joint of a floating-base robot's root body.
const FLOATING_BASE_JOINT: &str = "floating_base_joint";
/// Mass given to a massless link: MuJoCo rejects moving bodies without mass.
const MIN_MASS: f64 = 1e-9;
/// Principal inertia given to a link whose inertia is negligible (lite_biped's `imu`: zero):
/// MuJoCo rejects a moving body whose inertia is not positive.
const MIN_INERTIA: f64 = 1e-12;

pub(crate) fn document(robot: &Robot) -> Result<String, EmitError> {
    let root = robot.root_link().ok_or_else(|| EmitError::Serialize {
        what: "MJCF",
        message: "the robot has no root link".to_string(),
    })?;
    let mut xml = Writer::new_with_indent(Vec::new(), b' ', 2);
    let comment = format::xml_comment(&format::header_comment(robot));
    xml.write_event(Event::Comment(BytesText::from_escaped(comment)))?;
    element(
        &mut xml,
        "mujoco",
        Attrs::new("model", &robot.name),
        |xml| {
            let compiler = Attrs::new("angle", "radian").with("autolimits", "true");
            empty(xml, "compiler", compiler)?;
            // The MuJoCo backend steps the physics once per control cycle.
            let timestep = number(1.0 / f64::from(robot.update_rate));
            let option = Attrs::new("timestep", timestep).with("integrator", "implicitfast");
            empty(xml, "option", option)?;
            assets(xml, robot)?;
            element(xml, "worldbody", Attrs::default(), |xml| {
                body(xml, robot, root, Parent::Root, 0)
            })?;
            equality(xml, robot)?;
            actuators(xml, robot)?;
            sensors(xml, robot)
        },
    )?;
    finish(xml, "MJCF")
}

/// The document's text, with a final newline.
fn finish(xml: Xml, what: &'static str) -> Result<String, EmitError> {
    let mut bytes = xml.into_inner();
    bytes.push(b'\n');
    String::from_utf8(bytes).map_err(|e| EmitError::Serialize {
        what,
        message: e.to_string(),
    })
}

/// How a body is reached: the root from the world (through a free joint on a floating base),
/// any other body through its joint.
#[derive(Debug, Clone, Copy)]
enum Parent<'a> {
    Root,
    Joint(&'a Joint),
}

/// Whether the root body gets a free joint: the definition says so.
fn is_floating_base(robot: &Robot) -> bool {
    robot.floating_base
}

/// The attributes of one element, in writing order; quick-xml escapes the values.
#[derive(Debug, Default)]
struct Attrs(Vec<(&'static str, String)>);

impl Attrs {
    fn new(name: &'static str, value: impl AsRef<str>) -> Self {
        Attrs::default().with(name, value)
    }

    fn with(mut self, name: &'static str, value: impl AsRef<str>) -> Self {
        self.push(name, value);
        self
    }

    fn push(&mut self, name: &'static str, value: impl AsRef<str>) {
        self.0.push((name, value.as_ref().to_string()));
    }

    /// `pos` and `quat` of a URDF pose, each left out when it is the identity.
    fn pose(mut self, pose: &Pose) -> Self {
        if pose.xyz != [0.0; 3] {
            self.push("pos", numbers(&pose.xyz));
        }
        if pose.rpy != [0.0; 3] {
            self.push("quat", numbers(&rpy_to_quat(pose.rpy)));
        }
        self
    }

    fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (*k, v.as_str()))
    }
}

fn empty(xml: &mut Xml, tag: &str, attrs: Attrs) -> io::Result<()> {
    xml.create_element(tag)
        .with_attributes(attrs.iter())
        .write_empty()?;
    Ok(())
}

fn element(
    xml: &mut Xml,
    tag: &str,
    attrs: Attrs,
    inner: impl FnOnce(&mut Xml) -> io::Result<()>,
) -> io::Result<()> {
    xml.create_element(tag)
        .with_attributes(attrs.iter())
        .write_inner_content(inner)?;
    Ok(())
}

/// An element holding `items`, or nothing when there are none.
fn section<T>(
    xml: &mut Xml,
    tag: &str,
    items: Vec<T>,
    mut write: impl FnMut(&mut Xml, T) -> io::Result<()>,
) -> io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    element(xml, tag, Attrs::default(), |xml| {
        items.into_iter().try_for_each(|item| write(xml, item))
    })
}

/// The MuJoCo quaternion `[w, x, y, z]` of URDF fixed-axis roll-pitch-yaw:
/// R = Rz(yaw)·Ry(pitch)·Rx(roll), so q = qz·qy·qx.
fn rpy_to_quat([roll, pitch, yaw]: [f64; 3]) -> [f64; 4] {
    let (sr, cr) = (roll / 2.0).sin_cos();
    let (sp, cp) = (pitch / 2.0).sin_cos();
    let (sy, cy) = (yaw / 2.0).sin_cos();
    [
        cr * cp * cy + sr * sp * sy,
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
    ]
}

/// A link's shapes in emission order, collisions then visuals, with the name of the mesh asset
/// each would use: `<link>_<collision|visual>_<index>`.
fn shapes(link: &Link) -> impl Iterator<Item = (&Shape, bool, String)> {
    let named = |role: &'static str, visual: bool| {
        move |(i, shape)| (shape, visual, format!("{}_{role}_{i}", link.name))
    };
    let collisions = link
        .collisions
        .iter()
        .enumerate()
        .map(named("collision", false));
    collisions.chain(link.visuals.iter().enumerate().map(named("visual", true)))
}

fn assets(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    let meshes: Vec<Attrs> = (robot.links.iter().flat_map(shapes))
        .filter_map(|(shape, _, name)| match &shape.geometry {
            Geometry::Mesh { filename, scale } => Some(
                Attrs::new("name", name)
                    .with("file", filename)
                    .with("scale", numbers(scale)),
            ),
            _ => None,
        })
        .collect();
    if meshes.is_empty() {
        return Ok(());
    }
    element(xml, "asset", Attrs::default(), |xml| {
        for mesh in meshes {
            empty(xml, "mesh", mesh)?;
        }
        Ok(())
    })
}

/// The body of `link`, reached from `parent`, and its subtree.
fn body(
    xml: &mut Xml,
    robot: &Robot,
    link: &Link,
    parent: Parent<'_>,
    depth: usize,
) -> io::Result<()> {
    let attrs = Attrs::new("name", &link.name);
    let attrs = match parent {
        Parent::Joint(joint) => attrs.pose(&joint.origin),
        Parent::Root => attrs,
    };
    element(xml, "body", attrs, |xml| {
        match parent {
            Parent::Joint(joint) => joint_element(xml, joint)?,
            Parent::Root if is_floating_base(robot) => {
                empty(xml, "freejoint", Attrs::new("name", FLOATING_BASE_JOINT))?;
            }
            Parent::Root => {}
        }
        inertial(xml, link)?;
        for (shape, visual, mesh) in shapes(link) {
            geom(xml, shape, visual, &mesh)?;
        }
        for sensor in robot.sensors.iter().filter(|s| s.link == link.name) {
            empty(xml, "site", site(robot, sensor))?;
        }
        // A valid tree is at most as deep as it has links; the bound keeps an unvalidated
        // description with a loop from recursing forever.
        if depth < robot.links.len() {
            for child_joint in robot.joints.iter().filter(|j| j.parent == link.name) {
                if let Some(child) = robot.link(&child_joint.child) {
                    body(xml, robot, child, Parent::Joint(child_joint), depth + 1)?;
                }
            }
        }
        Ok(())
    })
}

/// The `<joint>` of a movable joint; a fixed joint has none, its child body is only nested.
fn joint_element(xml: &mut Xml, joint: &Joint) -> io::Result<()> {
    let kind = match joint.kind {
        JointKind::Revolute | JointKind::Continuous => "hinge",
        JointKind::Prismatic => "slide",
        JointKind::Fixed => return Ok(()),
    };
    let mut attrs = Attrs::new("name", &joint.name)
        .with("type", kind)
        .with("axis", numbers(&joint.axis));
    let limits = joint.limits;
    if joint.kind == JointKind::Continuous {
        // Explicit, so a continuous joint stays unlimited whatever the compiler's defaults.
        attrs.push("limited", "false");
    } else if let Some((lower, upper)) = limits.and_then(|l| Some((l.lower?, l.upper?))) {
        attrs.push("range", numbers(&[lower, upper]));
    }
    if let Some(effort) = limits.map(|l| l.effort).filter(|&e| e > 0.0) {
        attrs.push("actuatorfrcrange", numbers(&[-effort, effort]));
    }
    let dynamics = joint.dynamics.unwrap_or_default();
    for (name, value) in [
        ("damping", dynamics.damping),
        ("frictionloss", dynamics.friction),
        ("armature", dynamics.armature),
    ] {
        if value != 0.0 {
            attrs.push(name, number(value));
        }
    }
    empty(xml, "joint", attrs)
}

/// The link's mass properties. Every body gets an explicit `<inertial>`, so MuJoCo never infers
/// mass from the collision geoms (density 1000 by default); a massless link or a negligible
/// inertia gets [`MIN_MASS`] / [`MIN_INERTIA`], which MuJoCo accepts on a moving body.
///
/// MuJoCo refuses `fullinertia` next to an orientation (`quat`), so a rotated inertial frame is
/// applied to the tensor instead: I_link = R·I·Rᵀ.
fn inertial(xml: &mut Xml, link: &Link) -> io::Result<()> {
    let (origin, mass, inertia) = match &link.inertial {
        Some(inertial) => (inertial.origin, inertial.mass, Some(inertial.inertia)),
        None => (Pose::IDENTITY, 0.0, None),
    };
    // `max` also maps NaN to the minimum.
    let mut attrs =
        Attrs::new("pos", numbers(&origin.xyz)).with("mass", number(mass.max(MIN_MASS)));
    match inertia.filter(|i| !is_negligible(i)) {
        Some(i) if origin.rpy == [0.0; 3] => {
            attrs.push(
                "fullinertia",
                numbers(&[i.ixx, i.iyy, i.izz, i.ixy, i.ixz, i.iyz]),
            );
        }
        Some(i) => attrs.push("fullinertia", numbers(&rotate_inertia(&i, origin.rpy))),
        None => attrs.push("diaginertia", numbers(&[MIN_INERTIA; 3])),
    }
    empty(xml, "inertial", attrs)
}

/// Whether no diagonal entry reaches [`MIN_INERTIA`] (NaN counts as negligible).
fn is_negligible(i: &Inertia) -> bool {
    let largest = i.ixx.max(i.iyy).max(i.izz);
    largest.is_nan() || largest < MIN_INERTIA
}

/// R·I·Rᵀ of a tensor given in a frame rotated by `rpy`, as `[ixx, iyy, izz, ixy, ixz, iyz]`.
fn rotate_inertia(i: &Inertia, rpy: [f64; 3]) -> [f64; 6] {
    let r = kinematics::rpy_to_matrix(rpy);
    let t = [
        [i.ixx, i.ixy, i.ixz],
        [i.ixy, i.iyy, i.iyz],
        [i.ixz, i.iyz, i.izz],
    ];
    let entry = |a: usize, b: usize| -> f64 {
        (0..9)
            .map(|n| (n / 3, n % 3))
            .map(|(k, l)| r[a][k] * t[k][l] * r[b][l])
            .sum()
    };
    [
        entry(0, 0),
        entry(1, 1),
        entry(2, 2),
        entry(0, 1),
        entry(0, 2),
        entry(1, 2),
    ]
}

/// A collision geom, or a visual one that neither collides nor adds mass.
fn geom(xml: &mut Xml, shape: &Shape, visual: bool, mesh: &str) -> io::Result<()> {
    let mut attrs = Attrs::default();
    match &shape.geometry {
        Geometry::Box { size } => {
            attrs = attrs
                .with("type", "box")
                .with("size", numbers(&size.map(|s| s / 2.0)))
        }
        Geometry::Cylinder { radius, length } => {
            attrs = attrs
                .with("type", "cylinder")
                .with("size", numbers(&[*radius, length / 2.0]));
        }
        Geometry::Capsule { radius, length } => {
            attrs = attrs
                .with("type", "capsule")
                .with("size", numbers(&[*radius, length / 2.0]));
        }
        Geometry::Sphere { radius } => {
            attrs = attrs.with("type", "sphere").with("size", number(*radius))
        }
        Geometry::Mesh { .. } => attrs = attrs.with("type", "mesh").with("mesh", mesh),
    }
    attrs = attrs.pose(&shape.origin);
    if visual {
        for (name, value) in [
            ("contype", "0"),
            ("conaffinity", "0"),
            ("group", "1"),
            ("density", "0"),
        ] {
            attrs.push(name, value);
        }
    }
    empty(xml, "geom", attrs)
}

/// An IMU's site, turned so that its axes are those of the body the IMU is fixed to (the first
/// link up through fixed joints): MuJoCo's sensors then report what the real path's component
/// reports, the body's orientation and rates in the body's axes, however the IMU's link is turned
/// (`backend_witmotion::mounting`). Square on the link when the link is square in its body.
fn site(robot: &Robot, sensor: &Sensor) -> Attrs {
    let attrs = Attrs::new("name", site_name(sensor));
    let Some((_, pose)) = crate::kinematics::rigid_body_of(robot, &sensor.link) else {
        return attrs;
    };
    let [w, x, y, z] = crate::kinematics::matrix_to_quaternion(&pose.rotation);
    if (w - 1.0).abs() < 1e-12 {
        return attrs;
    }
    // The body in the link's frame: the inverse of the link's rotation in the body.
    attrs.with("quat", numbers(&[w, -x, -y, -z]))
}

fn site_name(sensor: &Sensor) -> String {
    format!("{}_site", sensor.name)
}

/// Mimic joints as joint equalities: q(mimic) = offset + multiplier·q(target).
fn equality(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    let mimics: Vec<_> = robot
        .joints
        .iter()
        .filter_map(|j| Some((j, j.mimic.as_ref()?)))
        .collect();
    section(xml, "equality", mimics, |xml, (joint, mimic)| {
        let polycoef = numbers(&[mimic.offset, mimic.multiplier, 0.0, 0.0, 0.0]);
        let attrs = Attrs::new("joint1", &joint.name)
            .with("joint2", &mimic.joint)
            .with("polycoef", polycoef);
        empty(xml, "joint", attrs)
    })
}

/// One torque motor per actuated joint; the backend writes the MIT law's torque into `ctrl`.
fn actuators(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    // A fixed joint has no MJCF joint to drive (validation rejects an actuated one anyway).
    let joints: Vec<&Joint> = robot
        .actuated_joints()
        .filter(|j| j.kind.is_movable())
        .collect();
    section(xml, "actuator", joints, |xml, joint| {
        let mut attrs = Attrs::new("name", &joint.name)
            .with("joint", &joint.name)
            .with("gear", "1");
        if let Some(effort) = joint.limits.map(|l| l.effort).filter(|&e| e > 0.0) {
            let range = numbers(&[-effort, effort]);
            attrs = attrs.with("ctrllimited", "true").with("ctrlrange", &range);
            attrs = attrs
                .with("forcelimited", "true")
                .with("forcerange", &range);
        }
        empty(xml, "motor", attrs)
    })
}

/// Each IMU as orientation, angular velocity and linear acceleration of its site.
fn sensors(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    section(
        xml,
        "sensor",
        robot.sensors.iter().collect(),
        |xml, sensor| match sensor.kind {
            SensorKind::Imu => {
                let (prefix, site) = (sensor.mujoco_prefix(), site_name(sensor));
                let named = |suffix: &str| Attrs::new("name", format!("{prefix}_{suffix}"));
                empty(
                    xml,
                    "framequat",
                    named("quat").with("objtype", "site").with("objname", &site),
                )?;
                empty(xml, "gyro", named("gyro").with("site", &site))?;
                empty(xml, "accelerometer", named("accel").with("site", &site))
            }
        },
    )
}

mod scene;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

pub use scene::{STAND_CLEARANCE, STAND_WELD};
pub(crate) use scene::{scene, stand_scene};
