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
//! MJCF joint and actuator names are the ros2_control joint names, and the IMU sensors are named
//! `<prefix>_quat`, `<prefix>_gyro`, `<prefix>_accel`, which is what MujocoSystem reads. The MuJoCo
//! backend steps at the loop period and writes the MIT torque into each motor's `ctrl`.

use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesText, Event};

use super::EmitError;
use super::format::{self, number, numbers};
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
    let model = Attrs::new("model", &robot.name);
    element(&mut xml, "mujoco", model, |xml| {
        let compiler = Attrs::new("angle", "radian").with("autolimits", "true");
        empty(xml, "compiler", compiler)?;
        // The MuJoCo backend steps the physics once per control cycle.
        let timestep = number(1.0 / f64::from(robot.update_rate));
        let option = Attrs::new("timestep", timestep).with("integrator", "implicitfast");
        empty(xml, "option", option)?;
        assets(xml, robot)?;
        element(xml, "worldbody", Attrs::default(), |xml| {
            body(xml, robot, root, None, 0)
        })?;
        equality(xml, robot)?;
        actuators(xml, robot)?;
        sensors(xml, robot)
    })?;
    let mut bytes = xml.into_inner();
    bytes.push(b'\n');
    String::from_utf8(bytes).map_err(|e| EmitError::Serialize {
        what: "MJCF",
        message: e.to_string(),
    })
}

/// Whether the root body gets a free joint. The model has no such flag, so the rule is: a robot
/// with an IMU is a floating-base robot (a legged or mobile base needs one to know its attitude);
/// a fixed-base arm has none, and its root body is welded to the world.
fn is_floating_base(robot: &Robot) -> bool {
    robot.sensors.iter().any(|s| s.kind == SensorKind::Imu)
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

/// The rotation matrix of URDF roll-pitch-yaw, R = Rz(yaw)·Ry(pitch)·Rx(roll).
fn rpy_to_matrix([roll, pitch, yaw]: [f64; 3]) -> [[f64; 3]; 3] {
    let (sr, cr) = roll.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let (sy, cy) = yaw.sin_cos();
    [
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
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
    section(xml, "asset", meshes, |xml, mesh| empty(xml, "mesh", mesh))
}

/// The body of `link`, reached through `joint` (none for the root), and its subtree.
fn body(
    xml: &mut Xml,
    robot: &Robot,
    link: &Link,
    joint: Option<&Joint>,
    depth: usize,
) -> io::Result<()> {
    let attrs = Attrs::new("name", &link.name).pose(&joint.map_or(Pose::IDENTITY, |j| j.origin));
    element(xml, "body", attrs, |xml| {
        match joint {
            Some(joint) => joint_element(xml, joint)?,
            None if is_floating_base(robot) => {
                empty(xml, "freejoint", Attrs::new("name", FLOATING_BASE_JOINT))?;
            }
            None => {}
        }
        inertial(xml, link)?;
        for (shape, visual, mesh) in shapes(link) {
            geom(xml, shape, visual, &mesh)?;
        }
        for sensor in robot.sensors.iter().filter(|s| s.link == link.name) {
            empty(xml, "site", Attrs::new("name", site_name(sensor)))?;
        }
        // A valid tree is at most as deep as it has links; the bound keeps an unvalidated
        // description with a loop from recursing forever.
        if depth < robot.links.len() {
            for child_joint in robot.joints.iter().filter(|j| j.parent == link.name) {
                if let Some(child) = robot.link(&child_joint.child) {
                    body(xml, robot, child, Some(child_joint), depth + 1)?;
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
    let r = rpy_to_matrix(rpy);
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, PI};

    use super::*;
    use crate::emit::fixture;
    use crate::model::Inertial;

    type Doc<'a> = roxmltree::Document<'a>;
    type Node<'a> = roxmltree::Node<'a, 'a>;
    type Matrix = [[f64; 3]; 3];

    fn emit(robot: &Robot) -> String {
        document(robot).unwrap()
    }

    fn parse(text: &str) -> Doc<'_> {
        Doc::parse(text).unwrap()
    }

    fn all<'a>(doc: &'a Doc<'a>, tag: &str) -> Vec<Node<'a>> {
        doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
    }

    /// The names of the `<tag>`s that have one (an equality's `<joint>` has none).
    fn names(doc: &Doc<'_>, tag: &str) -> Vec<String> {
        all(doc, tag)
            .iter()
            .filter_map(|n| n.attribute("name"))
            .map(String::from)
            .collect()
    }

    /// The `<tag name="name">`.
    fn named<'a>(doc: &'a Doc<'a>, tag: &str, name: &str) -> Node<'a> {
        *all(doc, tag)
            .iter()
            .find(|b| b.attribute("name") == Some(name))
            .unwrap()
    }

    /// The `<tag>` children of the body of `link`.
    fn in_body<'a>(doc: &'a Doc<'a>, link: &str, tag: &str) -> Vec<Node<'a>> {
        named(doc, "body", link)
            .children()
            .filter(|n| n.has_tag_name(tag))
            .collect()
    }

    fn values(node: Node<'_>, attribute: &str) -> Vec<f64> {
        node.attribute(attribute)
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect()
    }

    fn assert_close(a: &[f64], b: &[f64]) {
        assert!(
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12),
            "{a:?} != {b:?}"
        );
    }

    fn without_imu() -> Robot {
        Robot {
            sensors: Vec::new().into(),
            ..fixture::robot()
        }
    }

    fn link_mut<'a>(robot: &'a mut Robot, name: &str) -> &'a mut Link {
        robot
            .links
            .to_mut()
            .iter_mut()
            .find(|l| l.name == name)
            .unwrap()
    }

    fn mul(a: Matrix, b: Matrix) -> Matrix {
        std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
    }

    fn transpose(a: Matrix) -> Matrix {
        std::array::from_fn(|i| std::array::from_fn(|j| a[j][i]))
    }

    /// R = Rz(yaw)·Ry(pitch)·Rx(roll), composed from the elementary rotations.
    fn composed([roll, pitch, yaw]: [f64; 3]) -> Matrix {
        let ((sr, cr), (sp, cp), (sy, cy)) = (roll.sin_cos(), pitch.sin_cos(), yaw.sin_cos());
        let rx = [[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]];
        let ry = [[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]];
        let rz = [[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]];
        mul(rz, mul(ry, rx))
    }

    fn quat_to_matrix([w, x, y, z]: [f64; 4]) -> Matrix {
        [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - w * z),
                2.0 * (x * z + w * y),
            ],
            [
                2.0 * (x * y + w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - w * x),
            ],
            [
                2.0 * (x * z - w * y),
                2.0 * (y * z + w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ]
    }

    #[test]
    fn rpy_to_quat_known_rotations() {
        let h = FRAC_1_SQRT_2;
        assert_close(&rpy_to_quat([0.0; 3]), &[1.0, 0.0, 0.0, 0.0]);
        assert_close(&rpy_to_quat([FRAC_PI_2, 0.0, 0.0]), &[h, h, 0.0, 0.0]);
        assert_close(&rpy_to_quat([0.0, FRAC_PI_2, 0.0]), &[h, 0.0, h, 0.0]);
        assert_close(&rpy_to_quat([0.0, 0.0, FRAC_PI_2]), &[h, 0.0, 0.0, h]);
        assert_close(&rpy_to_quat([PI, 0.0, 0.0]), &[0.0, 1.0, 0.0, 0.0]);
        // lite_biped's left_hip_pitch: rpy (-1.74533, 0, 0), quat 0.642787 -0.766045 0 0 in its MJCF.
        let q = rpy_to_quat([-1.74533, 0.0, 0.0]);
        assert!(
            (q[0] - 0.642787).abs() < 1e-6 && (q[1] + 0.766045).abs() < 1e-6,
            "{q:?}"
        );
    }

    #[test]
    fn rpy_to_quat_composes_fixed_axes_as_urdf() {
        for rpy in [
            [0.1, 0.2, 0.3],
            [-1.2, 0.7, 2.9],
            [3.0, -1.5, -0.4],
            [0.0, FRAC_PI_2, 1.0],
        ] {
            let q = rpy_to_quat(rpy);
            assert!(
                (q.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12,
                "unit quaternion"
            );
            assert_close(
                quat_to_matrix(q).as_flattened(),
                composed(rpy).as_flattened(),
            );
            assert_close(
                rpy_to_matrix(rpy).as_flattened(),
                composed(rpy).as_flattened(),
            );
        }
    }

    #[test]
    fn layout() {
        let text = emit(&fixture::robot());
        assert!(
            text.starts_with("<!-- GENERATED by robot-core") && text.ends_with("</mujoco>\n"),
            "{text}"
        );
        let doc = parse(&text);
        let root = doc.root_element();
        assert_eq!(
            (root.tag_name().name(), root.attribute("model")),
            ("mujoco", Some("test_bot"))
        );
        let sections: Vec<_> = root
            .children()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name())
            .collect();
        assert_eq!(
            sections,
            [
                "compiler",
                "option",
                "asset",
                "worldbody",
                "equality",
                "actuator",
                "sensor"
            ]
        );
        let option = all(&doc, "option")[0];
        assert_eq!(
            option.attribute("timestep"),
            Some("0.002"),
            "the loop period at 500 Hz"
        );
        assert_eq!(option.attribute("integrator"), Some("implicitfast"));
        let compiler = all(&doc, "compiler")[0];
        assert_eq!(
            (
                compiler.attribute("angle"),
                compiler.attribute("autolimits")
            ),
            (Some("radian"), Some("true"))
        );
        // The body tree is the link tree; a fixed joint only nests its child.
        let parent = |link: &str| {
            named(&doc, "body", link)
                .parent_element()
                .unwrap()
                .attribute("name")
        };
        assert_eq!(parent("base"), None, "the root body is in the worldbody");
        for (link, expected) in [
            ("foot", "base"),
            ("toe", "foot"),
            ("wheel_link", "base"),
            ("imu_link", "base"),
        ] {
            assert_eq!(parent(link), Some(expected));
        }
        let foot = named(&doc, "body", "foot");
        assert_eq!(
            (foot.attribute("pos"), foot.attribute("quat")),
            (Some("0 0.05 -0.1"), None)
        );
        assert_close(
            &values(named(&doc, "body", "wheel_link"), "quat"),
            &rpy_to_quat([FRAC_PI_2, 0.0, 0.0]),
        );
    }

    #[test]
    fn joints_are_named_as_in_ros2_control() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        // Depth first, children in declaration order; no <joint> for the fixed `imu_mount`.
        assert_eq!(
            names(&doc, "joint"),
            ["ankle", "follower", "slider", "wheel"]
        );
        assert!(in_body(&doc, "imu_link", "joint").is_empty());
        assert_eq!(names(&doc, "freejoint"), ["floating_base_joint"]);
        let joint = |name: &str, attribute: &str| named(&doc, "joint", name).attribute(attribute);
        let kinds = ["ankle", "slider", "wheel"].map(|j| (joint(j, "type"), joint(j, "axis")));
        assert_eq!(
            kinds,
            [
                (Some("hinge"), Some("0 1 0")),
                (Some("slide"), Some("1 0 0")),
                (Some("hinge"), Some("0 0 1"))
            ]
        );
        let ankle = named(&doc, "joint", "ankle");
        assert_close(
            &values(ankle, "range"),
            &[(-30.0_f64).to_radians(), 50.0_f64.to_radians()],
        );
        assert_eq!(values(ankle, "actuatorfrcrange"), [-5.0, 5.0]);
        assert_eq!(
            values(named(&doc, "joint", "slider"), "range"),
            [-0.05, 0.05]
        );
        assert_eq!(
            (joint("wheel", "range"), joint("wheel", "limited")),
            (None, Some("false")),
            "continuous"
        );
        let dynamics = ["damping", "frictionloss", "armature"];
        assert_eq!(
            dynamics.map(|a| joint("wheel", a)),
            [Some("0.1"), Some("0.05"), Some("0.001")]
        );
        assert_eq!(dynamics.map(|a| joint("ankle", a)), [None; 3]);
        // The mimic joint follows through an equality.
        let [equality] = all(&doc, "equality")[0]
            .children()
            .filter(|n| n.is_element())
            .collect::<Vec<_>>()[..]
        else {
            panic!("one equality")
        };
        assert_eq!(
            (equality.attribute("joint1"), equality.attribute("joint2")),
            (Some("follower"), Some("ankle"))
        );
        assert_eq!(values(equality, "polycoef"), [0.1, -0.5, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn one_motor_per_actuated_joint_with_the_torque_limit() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let motors = all(&doc, "motor");
        let joints: Vec<_> = motors
            .iter()
            .map(|m| (m.attribute("name"), m.attribute("joint")))
            .collect();
        assert_eq!(
            joints,
            ["ankle", "slider", "wheel"].map(|n| (Some(n), Some(n))),
            "none for the mimic joint"
        );
        for (motor, effort) in motors.iter().zip([5.0, 5.0, 10.0]) {
            assert_eq!(
                (values(*motor, "forcerange"), values(*motor, "ctrlrange")),
                (vec![-effort, effort], vec![-effort, effort])
            );
            let flags = ["ctrllimited", "forcelimited", "gear"].map(|a| motor.attribute(a));
            assert_eq!(flags, [Some("true"), Some("true"), Some("1")]);
        }
    }

    #[test]
    fn imu_is_a_site_with_three_sensors() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let site = named(&doc, "site", "base_imu_site");
        assert_eq!(
            site.parent_element().unwrap().attribute("name"),
            Some("imu_link")
        );
        assert_eq!(site.attribute("pos"), None, "at the link origin");
        let sensors: Vec<_> = all(&doc, "sensor")[0]
            .children()
            .filter(|n| n.is_element())
            .collect();
        let kinds: Vec<_> = sensors
            .iter()
            .map(|s| (s.tag_name().name(), s.attribute("name").unwrap()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("framequat", "base_quat"),
                ("gyro", "base_gyro"),
                ("accelerometer", "base_accel")
            ]
        );
        assert_eq!(sensors[0].attribute("objtype"), Some("site"));
        let sites =
            [("objname", 0), ("site", 1), ("site", 2)].map(|(a, i)| sensors[i].attribute(a));
        assert_eq!(sites, [Some("base_imu_site"); 3]);
    }

    #[test]
    fn without_an_imu_the_root_is_welded_to_the_world() {
        let text = emit(&without_imu());
        let doc = parse(&text);
        assert!(
            all(&doc, "freejoint").is_empty()
                && all(&doc, "sensor").is_empty()
                && all(&doc, "site").is_empty()
        );
        assert_eq!(
            names(&doc, "joint"),
            ["ankle", "follower", "slider", "wheel"]
        );
    }

    #[test]
    fn geoms_use_mujoco_sizes_and_visuals_do_not_collide() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let attributes = |geom: Node<'_>, names: &[&str]| -> Vec<Option<String>> {
            names
                .iter()
                .map(|a| geom.attribute(*a).map(String::from))
                .collect()
        };
        let visual = ["contype", "conaffinity", "group", "density"];
        let some = |v: &[&str]| v.iter().map(|s| Some(s.to_string())).collect::<Vec<_>>();
        // Collisions first, with MuJoCo's contact defaults, then visuals.
        let [capsule, boxed] = in_body(&doc, "base", "geom")[..] else {
            panic!()
        };
        assert_eq!(
            attributes(capsule, &["type", "size", "pos"]),
            some(&["capsule", "0.02 0.05", "0 0 0.1"])
        );
        assert_close(
            &values(capsule, "quat"),
            &rpy_to_quat([FRAC_PI_2, 0.0, 0.0]),
        );
        assert_eq!(attributes(capsule, &visual), [None, None, None, None]);
        assert_eq!(
            attributes(boxed, &["type", "size"]),
            some(&["box", "0.1 0.05 0.025"])
        );
        assert_eq!(attributes(boxed, &visual), some(&["0", "0", "1", "0"]));
        let mesh = in_body(&doc, "foot", "geom")[0];
        assert_eq!(
            attributes(mesh, &["type", "mesh"]),
            some(&["mesh", "foot_visual_0"])
        );
        let asset = named(&doc, "mesh", "foot_visual_0");
        assert_eq!(asset.parent_element().unwrap().tag_name().name(), "asset");
        let file = ["package://test_bot/meshes/foot.stl", "0.001 0.001 0.001"];
        assert_eq!(attributes(asset, &["file", "scale"]), some(&file));
        assert_eq!(
            attributes(in_body(&doc, "wheel_link", "geom")[0], &["size"]),
            some(&["0.05 0.01"])
        );
        assert_eq!(
            attributes(in_body(&doc, "carriage", "geom")[0], &["size"]),
            some(&["0.03"])
        );
    }

    #[test]
    fn every_body_has_an_inertial_mujoco_accepts() {
        let mut robot = fixture::robot();
        // As lite_biped's `imu` link: a mass of 1e-9 and a zero inertia.
        let zero = Inertial {
            mass: 1e-9,
            origin: Pose::IDENTITY,
            inertia: Inertia::default(),
        };
        link_mut(&mut robot, "toe").inertial = Some(zero);
        let text = emit(&robot);
        let doc = parse(&text);
        for body in all(&doc, "body") {
            let inertial = body
                .children()
                .filter(|n| n.has_tag_name("inertial"))
                .collect::<Vec<_>>();
            assert!(
                inertial.len() == 1 && values(inertial[0], "mass")[0] > 0.0,
                "{:?}",
                body.attribute("name")
            );
        }
        let base = in_body(&doc, "base", "inertial")[0];
        let expected = [Some("0 0 0.01"), Some("2"), Some("0.002 0.004 0.003 0 0 0")];
        assert_eq!(
            ["pos", "mass", "fullinertia"].map(|a| base.attribute(a)),
            expected
        );
        // `imu_link` has no inertial, `toe` a zero inertia: both get a tiny valid one.
        for link in ["imu_link", "toe"] {
            let inertial = in_body(&doc, link, "inertial")[0];
            assert_eq!(
                (values(inertial, "mass"), values(inertial, "diaginertia")),
                (vec![MIN_MASS], vec![MIN_INERTIA; 3])
            );
        }
    }

    #[test]
    fn a_rotated_inertial_frame_rotates_the_tensor() {
        let mut robot = fixture::robot();
        let inertial = link_mut(&mut robot, "base").inertial.as_mut().unwrap();
        inertial.origin.rpy = [0.1, 0.2, 0.3];
        inertial.inertia.ixy = 1e-4;
        let i = inertial.inertia;
        let text = emit(&robot);
        let doc = parse(&text);
        // MuJoCo refuses `quat` next to `fullinertia`: the tensor goes in the link frame.
        let emitted = in_body(&doc, "base", "inertial")[0];
        assert_eq!(emitted.attribute("quat"), None);
        let [xx, yy, zz, xy, xz, yz] = values(emitted, "fullinertia")[..] else {
            panic!()
        };
        let r = composed([0.1, 0.2, 0.3]);
        let tensor = [
            [i.ixx, i.ixy, i.ixz],
            [i.ixy, i.iyy, i.iyz],
            [i.ixz, i.iyz, i.izz],
        ];
        let expected = mul(r, mul(tensor, transpose(r)));
        assert_close(
            &[xx, xy, xz, xy, yy, yz, xz, yz, zz],
            expected.as_flattened(),
        );
        // A quarter turn about z swaps ixx and iyy.
        let diagonal = Inertia {
            ixx: 1.0,
            iyy: 2.0,
            izz: 3.0,
            ..Inertia::default()
        };
        assert_close(
            &rotate_inertia(&diagonal, [0.0, 0.0, FRAC_PI_2]),
            &[2.0, 1.0, 3.0, 0.0, 0.0, 0.0],
        );
    }

    #[test]
    fn names_are_escaped() {
        let mut robot = fixture::robot();
        robot.name = r#"test"bot&<1>"#.into();
        robot.joints.to_mut()[2].name = "wheel<&>".into();
        let text = emit(&robot);
        assert!(
            text.contains(r#"<mujoco model="test&quot;bot&amp;&lt;1&gt;">"#),
            "{text}"
        );
        let doc = parse(&text);
        assert_eq!(
            doc.root_element().attribute("model"),
            Some(r#"test"bot&<1>"#)
        );
        assert_eq!(
            named(&doc, "motor", "wheel<&>").attribute("joint"),
            Some("wheel<&>")
        );
        assert_eq!(
            named(&doc, "joint", "wheel<&>").attribute("type"),
            Some("hinge")
        );
    }

    #[test]
    fn output_is_deterministic() {
        let robot = fixture::robot();
        assert_eq!(emit(&robot), emit(&robot.clone()));
    }
}
