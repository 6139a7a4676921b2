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
//!   <sensor>…</sensor>        framequat, gyro, accelerometer per IMU; force, torque per
//!                             force/torque sensor; touch per contact sensor's site
//! </mujoco>
//! ```
//!
//! The scenes around it (`<robot>.scene.xml`, `<robot>.stand.scene.xml`) are in [`scene`].
//!
//! MJCF joint and actuator names are the ros2_control joint names, and the IMU sensors are named
//! `<prefix>_quat`, `<prefix>_gyro`, `<prefix>_accel`, which is what MujocoSystem reads; a
//! force/torque sensor's are `<name>_force` and `<name>_torque` (its `mujoco_sensor_name` param
//! says so to mujoco_ros2_control); a contact sensor's are `<name>_touch_<i>`, one per collision
//! primitive of its link, on a site of that primitive's shape grown by
//! [`CONTACT_SITE_MARGIN`], which the backend sums. The MuJoCo
//! backend steps at the loop period and writes the MIT torque into each motor's `ctrl`.
//!
//! The model and the scenes are built as the same XML tree as the URDF (`emit::xml`) and written
//! by its one renderer, as plain XML.

use super::EmitError;
use super::format::{header_comment, number, numbers};
use super::xml::{self, Document, Element, Mode};
use robot_model::kinematics;
use robot_model::model::{
    Geometry, Inertia, Joint, JointKind, Link, Pose, Robot, Sensor, SensorKind, Shape,
};

/// How much a contact sensor's site is larger than the collision shape it covers, m: MuJoCo's
/// touch sensor counts the contacts whose point lies in the site, and a contact point sits
/// between the two surfaces, up to half a penetration outside the shape.
pub const CONTACT_SITE_MARGIN: f64 = 0.005;

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
    // The MuJoCo backend steps the physics once per control cycle.
    let timestep = number(1.0 / f64::from(robot.update_rate));
    let mujoco = Element::new("mujoco")
        .attr("model", robot.name.as_ref())
        .child(
            Element::new("compiler")
                .attr("angle", "radian")
                .attr("autolimits", "true"),
        )
        .child(
            Element::new("option")
                .attr("timestep", timestep)
                .attr("integrator", "implicitfast"),
        )
        .children(assets(robot))
        .child(Element::new("worldbody").child(body(robot, root, Parent::Root, 0)))
        .children(contacts(robot))
        .children(equality(robot))
        .children(actuators(robot))
        .children(sensors(robot));
    render(vec![header_comment(robot)], mujoco)
}

/// An MJCF document's text: `comments`, then `root`; MJCF files have no XML declaration.
fn render(comments: Vec<String>, root: Element) -> Result<String, EmitError> {
    let document = Document {
        declaration: false,
        comments,
        root,
    };
    xml::render(&document, Mode::Plain)
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

/// `pos` and `quat` of a URDF pose, each left out when it is the identity.
fn with_pose(element: Element, pose: &Pose) -> Element {
    let moved = pose.xyz != [0.0; 3];
    let rotated = pose.rpy != [0.0; 3];
    element
        .optional_attr("pos", moved.then(|| numbers(&pose.xyz)))
        .optional_attr("quat", rotated.then(|| numbers(&rpy_to_quat(pose.rpy))))
}

/// An element holding `children`, or none when there are none.
fn section(tag: &'static str, children: Vec<Element>) -> Option<Element> {
    (!children.is_empty()).then(|| Element::new(tag).children(children))
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

fn assets(robot: &Robot) -> Option<Element> {
    let meshes = (robot.links.iter().flat_map(shapes))
        .filter_map(|(shape, _, name)| match &shape.geometry {
            Geometry::Mesh { filename, scale } => Some(
                Element::new("mesh")
                    .attr("name", name)
                    .attr("file", filename.as_ref())
                    .attr("scale", numbers(scale)),
            ),
            _ => None,
        })
        .collect();
    section("asset", meshes)
}

/// The body of `link`, reached from `parent`, and its subtree.
fn body(robot: &Robot, link: &Link, parent: Parent<'_>, depth: usize) -> Element {
    let element = Element::new("body").attr("name", link.name.as_ref());
    let element = match parent {
        Parent::Joint(joint) => with_pose(element, &joint.origin).children(joint_element(joint)),
        Parent::Root if is_floating_base(robot) => {
            element.child(Element::new("freejoint").attr("name", FLOATING_BASE_JOINT))
        }
        Parent::Root => element,
    };
    let sites = (robot.sensors.iter())
        .filter(|s| s.link == link.name)
        .flat_map(|sensor| sensor_sites(robot, link, sensor));
    let element = element
        .child(inertial(link))
        .children(shapes(link).map(|(shape, visual, mesh)| geom(shape, visual, &mesh)))
        .children(sites);
    // A valid tree is at most as deep as it has links; the bound keeps an unvalidated
    // description with a loop from recursing forever.
    if depth >= robot.links.len() {
        return element;
    }
    let children = (robot.joints.iter())
        .filter(|j| j.parent == link.name)
        .filter_map(|joint| {
            let child = robot.link(&joint.child)?;
            Some(body(robot, child, Parent::Joint(joint), depth + 1))
        });
    element.children(children)
}

/// The `<joint>` of a movable joint; a fixed joint has none, its child body is only nested.
fn joint_element(joint: &Joint) -> Option<Element> {
    let kind = match joint.kind {
        JointKind::Revolute | JointKind::Continuous => "hinge",
        JointKind::Prismatic => "slide",
        JointKind::Fixed => return None,
    };
    let mut element = Element::new("joint")
        .attr("name", joint.name.as_ref())
        .attr("type", kind)
        .attr("axis", numbers(&joint.axis));
    let limits = joint.limits;
    if joint.kind == JointKind::Continuous {
        // Explicit, so a continuous joint stays unlimited whatever the compiler's defaults.
        element = element.attr("limited", "false");
    } else if let Some((lower, upper)) = limits.and_then(|l| Some((l.lower?, l.upper?))) {
        element = element.attr("range", numbers(&[lower, upper]));
    }
    let effort = limits.map(|l| l.effort).filter(|&e| e > 0.0);
    element = element.optional_attr("actuatorfrcrange", effort.map(|e| numbers(&[-e, e])));
    let dynamics = joint.dynamics.unwrap_or_default();
    for (name, value) in [
        ("damping", dynamics.damping),
        ("frictionloss", dynamics.friction),
        ("armature", dynamics.armature),
    ] {
        element = element.optional_attr(name, (value != 0.0).then(|| number(value)));
    }
    Some(element)
}

/// The link's mass properties. Every body gets an explicit `<inertial>`, so MuJoCo never infers
/// mass from the collision geoms (density 1000 by default); a massless link or a negligible
/// inertia gets [`MIN_MASS`] / [`MIN_INERTIA`], which MuJoCo accepts on a moving body.
///
/// MuJoCo refuses `fullinertia` next to an orientation (`quat`), so a rotated inertial frame is
/// applied to the tensor instead: I_link = R·I·Rᵀ.
fn inertial(link: &Link) -> Element {
    let (origin, mass, inertia) = match &link.inertial {
        Some(inertial) => (inertial.origin, inertial.mass, Some(inertial.inertia)),
        None => (Pose::IDENTITY, 0.0, None),
    };
    // `max` also maps NaN to the minimum.
    let element = Element::new("inertial")
        .attr("pos", numbers(&origin.xyz))
        .attr("mass", number(mass.max(MIN_MASS)));
    match inertia.filter(|i| !is_negligible(i)) {
        Some(i) if origin.rpy == [0.0; 3] => element.attr(
            "fullinertia",
            numbers(&[i.ixx, i.iyy, i.izz, i.ixy, i.ixz, i.iyz]),
        ),
        Some(i) => element.attr("fullinertia", numbers(&rotate_inertia(&i, origin.rpy))),
        None => element.attr("diaginertia", numbers(&[MIN_INERTIA; 3])),
    }
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
fn geom(shape: &Shape, visual: bool, mesh: &str) -> Element {
    let sized = |kind: &'static str, size: String| {
        Element::new("geom").attr("type", kind).attr("size", size)
    };
    let element = match &shape.geometry {
        Geometry::Box { size } => sized("box", numbers(&size.map(|s| s / 2.0))),
        Geometry::Cylinder { radius, length } => {
            sized("cylinder", numbers(&[*radius, length / 2.0]))
        }
        Geometry::Capsule { radius, length } => sized("capsule", numbers(&[*radius, length / 2.0])),
        Geometry::Sphere { radius } => sized("sphere", number(*radius)),
        Geometry::Mesh { .. } => Element::new("geom").attr("type", "mesh").attr("mesh", mesh),
    };
    let element = with_pose(element, &shape.origin);
    if !visual {
        return element;
    }
    element
        .attr("contype", "0")
        .attr("conaffinity", "0")
        .attr("group", "1")
        .attr("density", "0")
}

/// An IMU's site, turned so that its axes are those of the body the IMU is fixed to (the first
/// link up through fixed joints): MuJoCo's sensors then report what the real path's component
/// reports, the body's orientation and rates in the body's axes, however the IMU's link is turned
/// (`backend_witmotion::mounting`). Square on the link when the link is square in its body.
fn site(robot: &Robot, sensor: &Sensor) -> Element {
    let element = Element::new("site").attr("name", site_name(sensor));
    let Some((_, pose)) = robot_model::kinematics::rigid_body_of(robot, &sensor.link) else {
        return element;
    };
    let [w, x, y, z] = robot_model::kinematics::matrix_to_quaternion(&pose.rotation);
    if (w - 1.0).abs() < 1e-12 {
        return element;
    }
    // The body in the link's frame: the inverse of the link's rotation in the body.
    element.attr("quat", numbers(&[w, -x, -y, -z]))
}

fn site_name(sensor: &Sensor) -> String {
    format!("{}_site", sensor.name)
}

/// The sites a sensor needs on its link's body: one at the link's frame (IMU, force/torque), or
/// one per collision primitive (contact).
fn sensor_sites(robot: &Robot, link: &Link, sensor: &Sensor) -> Vec<Element> {
    match sensor.kind {
        SensorKind::Imu => vec![site(robot, sensor)],
        // MuJoCo's force and torque sensors read in the site's frame: the link's.
        SensorKind::ForceTorque => vec![Element::new("site").attr("name", site_name(sensor))],
        SensorKind::Contact => contact_shapes(link)
            .map(|(i, shape)| {
                let grown = |v: f64| v + CONTACT_SITE_MARGIN;
                let (kind, size) = match shape.geometry {
                    Geometry::Box { size } => ("box", numbers(&size.map(|s| grown(s / 2.0)))),
                    Geometry::Cylinder { radius, length } => {
                        ("cylinder", numbers(&[grown(radius), grown(length / 2.0)]))
                    }
                    Geometry::Capsule { radius, length } => {
                        ("capsule", numbers(&[grown(radius), length / 2.0]))
                    }
                    Geometry::Sphere { radius } => ("sphere", number(grown(radius))),
                    // contact_shapes leaves meshes out.
                    Geometry::Mesh { .. } => ("sphere", number(CONTACT_SITE_MARGIN)),
                };
                let element = Element::new("site")
                    .attr("name", contact_site_name(sensor, i))
                    .attr("type", kind)
                    .attr("size", size)
                    .attr("group", "3");
                with_pose(element, &shape.origin)
            })
            .collect(),
    }
}

/// The collision primitives a contact sensor covers, with their index among them.
pub fn contact_shapes(link: &Link) -> impl Iterator<Item = (usize, &Shape)> {
    (link.collisions.iter())
        .filter(|s| !matches!(s.geometry, Geometry::Mesh { .. }))
        .enumerate()
}

fn contact_site_name(sensor: &Sensor, index: usize) -> String {
    format!("{}_site_{index}", sensor.name)
}

/// The MJCF name of the touch sensor on a contact sensor's `index`th site.
pub fn touch_sensor_name(sensor: &str, index: usize) -> String {
    format!("{sensor}_touch_{index}")
}

/// Mimic joints as joint equalities: q(mimic) = offset + multiplier·q(target).
/// `<contact>`: an `<exclude>` per contact the definition allows, so MuJoCo does not push those
/// bodies apart (every link is a body of its own, named as the link).
fn contacts(robot: &Robot) -> Option<Element> {
    section(
        "contact",
        robot
            .allowed_contacts
            .iter()
            .map(|c| {
                Element::new("exclude")
                    .attr("name", c.name.as_ref())
                    .attr("body1", c.links[0].as_ref())
                    .attr("body2", c.links[1].as_ref())
            })
            .collect(),
    )
}

fn equality(robot: &Robot) -> Option<Element> {
    let mimics = (robot.joints.iter())
        .filter_map(|joint| {
            let mimic = joint.mimic.as_ref()?;
            let polycoef = numbers(&[mimic.offset, mimic.multiplier, 0.0, 0.0, 0.0]);
            let equality = Element::new("joint")
                .attr("joint1", joint.name.as_ref())
                .attr("joint2", mimic.joint.as_ref())
                .attr("polycoef", polycoef);
            Some(equality)
        })
        .collect();
    section("equality", mimics)
}

/// One torque motor per actuated joint; the backend writes the MIT law's torque into `ctrl`.
fn actuators(robot: &Robot) -> Option<Element> {
    // A fixed joint has no MJCF joint to drive (validation rejects an actuated one anyway).
    let motors = (robot.actuated_joints())
        .filter(|j| j.kind.is_movable())
        .map(|joint| {
            let motor = Element::new("motor")
                .attr("name", joint.name.as_ref())
                .attr("joint", joint.name.as_ref())
                .attr("gear", "1");
            let Some(effort) = joint.limits.map(|l| l.effort).filter(|&e| e > 0.0) else {
                return motor;
            };
            let range = numbers(&[-effort, effort]);
            motor
                .attr("ctrllimited", "true")
                .attr("ctrlrange", range.as_str())
                .attr("forcelimited", "true")
                .attr("forcerange", range)
        })
        .collect();
    section("actuator", motors)
}

/// Each IMU as orientation, angular velocity and linear acceleration of its site; each
/// force/torque sensor as force and torque at its site; each contact sensor as a touch sensor
/// per site.
fn sensors(robot: &Robot) -> Option<Element> {
    let sensors = (robot.sensors.iter())
        .flat_map(|sensor| -> Vec<Element> {
            match sensor.kind {
                SensorKind::Imu => {
                    let (prefix, site) = (sensor.mujoco_prefix(), site_name(sensor));
                    let named = |tag, suffix: &str| {
                        Element::new(tag).attr("name", format!("{prefix}_{suffix}"))
                    };
                    vec![
                        named("framequat", "quat")
                            .attr("objtype", "site")
                            .attr("objname", site.as_str()),
                        named("gyro", "gyro").attr("site", site.as_str()),
                        named("accelerometer", "accel").attr("site", site),
                    ]
                }
                SensorKind::ForceTorque => {
                    let site = site_name(sensor);
                    ["force", "torque"]
                        .map(|tag| {
                            Element::new(tag)
                                .attr("name", format!("{}_{tag}", sensor.name))
                                .attr("site", site.as_str())
                        })
                        .into()
                }
                SensorKind::Contact => {
                    let link = robot.link(&sensor.link);
                    let count = link.map_or(0, |l| contact_shapes(l).count());
                    (0..count)
                        .map(|i| {
                            Element::new("touch")
                                .attr("name", touch_sensor_name(&sensor.name, i))
                                .attr("site", contact_site_name(sensor, i))
                        })
                        .collect()
                }
            }
        })
        .collect();
    section("sensor", sensors)
}

mod scene;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

pub use scene::{STAND_CLEARANCE, STAND_WELD};
pub(crate) use scene::{scene, stand_scene};
