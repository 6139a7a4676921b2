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
/// The attributes of one element, in output order.
type Attrs = Vec<(&'static str, String)>;

/// Name of the free joint of a floating-base robot's root body.
const FLOATING_BASE_JOINT: &str = "floating_base_joint";
/// Mass given to a massless link: MuJoCo rejects moving bodies without mass.
const MIN_MASS: f64 = 1e-9;
/// Principal inertia given to a link whose inertia is negligible (lite_biped's `imu`: zero):
/// MuJoCo wants it positive on moving bodies.
const MIN_INERTIA: f64 = 1e-12;

pub(crate) fn document(robot: &Robot) -> Result<String, EmitError> {
    let root = robot.root_link().ok_or_else(|| EmitError::Serialize {
        what: "MJCF",
        message: "the robot has no root link".to_string(),
    })?;
    let mut xml = Writer::new_with_indent(Vec::new(), b' ', 2);
    let comment = format::xml_comment(&format::header_comment(robot));
    xml.write_event(Event::Comment(BytesText::from_escaped(comment)))?;
    xml.create_element("mujoco")
        .with_attribute(("model", robot.name.as_ref()))
        .write_inner_content(|xml| {
            empty(
                xml,
                "compiler",
                vec![("angle", "radian".into()), ("autolimits", "true".into())],
            )?;
            // The MuJoCo backend steps the physics once per control cycle.
            let timestep = 1.0 / f64::from(robot.update_rate);
            empty(
                xml,
                "option",
                vec![
                    ("timestep", number(timestep)),
                    ("integrator", "implicitfast".into()),
                ],
            )?;
            assets(xml, robot)?;
            element(xml, "worldbody", Vec::new(), |xml| {
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

fn empty(xml: &mut Xml, tag: &str, attrs: Attrs) -> io::Result<()> {
    xml.create_element(tag)
        .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
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
        .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
        .write_inner_content(inner)?;
    Ok(())
}

/// `pos` and `quat` of a URDF pose, each left out when it is the identity.
fn push_pose(attrs: &mut Attrs, pose: &Pose) {
    if pose.xyz != [0.0; 3] {
        attrs.push(("pos", numbers(&pose.xyz)));
    }
    if pose.rpy != [0.0; 3] {
        attrs.push(("quat", numbers(&rpy_to_quat(pose.rpy))));
    }
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

/// Name of the mesh asset of a link's `index`th visual or collision shape.
fn mesh_name(link: &Link, role: &str, index: usize) -> String {
    format!("{}_{role}_{index}", link.name)
}

/// A link's shapes with the role they play, in emission order: collisions, then visuals.
fn shapes(link: &Link) -> impl Iterator<Item = (&'static str, usize, &Shape)> {
    let collisions = link
        .collisions
        .iter()
        .enumerate()
        .map(|(i, s)| ("collision", i, s));
    let visuals = link
        .visuals
        .iter()
        .enumerate()
        .map(|(i, s)| ("visual", i, s));
    collisions.chain(visuals)
}

fn assets(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    let meshes: Vec<Attrs> = robot
        .links
        .iter()
        .flat_map(|link| shapes(link).map(move |(role, index, shape)| (link, role, index, shape)))
        .filter_map(|(link, role, index, shape)| match &shape.geometry {
            Geometry::Mesh { filename, scale } => Some(vec![
                ("name", mesh_name(link, role, index)),
                ("file", filename.to_string()),
                ("scale", numbers(scale)),
            ]),
            _ => None,
        })
        .collect();
    if meshes.is_empty() {
        return Ok(());
    }
    element(xml, "asset", Vec::new(), |xml| {
        meshes.into_iter().try_for_each(|m| empty(xml, "mesh", m))
    })
}

/// The body of `link`, reached through `joint` (none for the root), and its subtree.
fn body(
    xml: &mut Xml,
    robot: &Robot,
    link: &Link,
    joint: Option<&Joint>,
    depth: usize,
) -> io::Result<()> {
    let mut attrs = vec![("name", link.name.to_string())];
    if let Some(joint) = joint {
        push_pose(&mut attrs, &joint.origin);
    }
    element(xml, "body", attrs, |xml| {
        match joint {
            Some(joint) => joint_element(xml, joint)?,
            None if is_floating_base(robot) => {
                empty(xml, "freejoint", vec![("name", FLOATING_BASE_JOINT.into())])?;
            }
            None => {}
        }
        inertial(xml, link)?;
        for (role, index, shape) in shapes(link) {
            geom(xml, shape, role == "visual", &mesh_name(link, role, index))?;
        }
        for sensor in robot.sensors.iter().filter(|s| s.link == link.name) {
            empty(xml, "site", vec![("name", site_name(sensor))])?;
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
    let mut attrs = vec![
        ("name", joint.name.to_string()),
        ("type", kind.into()),
        ("axis", numbers(&joint.axis)),
    ];
    if let Some(limits) = joint.limits {
        match (joint.kind, limits.lower, limits.upper) {
            // Explicit, so a continuous joint stays unlimited whatever the compiler defaults.
            (JointKind::Continuous, _, _) => attrs.push(("limited", "false".into())),
            (_, Some(lower), Some(upper)) => attrs.push(("range", numbers(&[lower, upper]))),
            _ => {}
        }
        if limits.effort > 0.0 {
            attrs.push((
                "actuatorfrcrange",
                numbers(&[-limits.effort, limits.effort]),
            ));
        }
    } else if joint.kind == JointKind::Continuous {
        attrs.push(("limited", "false".into()));
    }
    if let Some(dynamics) = joint.dynamics {
        for (name, value) in [
            ("damping", dynamics.damping),
            ("frictionloss", dynamics.friction),
            ("armature", dynamics.armature),
        ] {
            if value != 0.0 {
                attrs.push((name, number(value)));
            }
        }
    }
    empty(xml, "joint", attrs)
}

/// The link's mass properties. Every body gets an explicit `<inertial>`, so MuJoCo never infers
/// mass from the collision geoms (density 1000 by default); a massless link or a negligible
/// inertia gets [`MIN_MASS`] / [`MIN_INERTIA`], which MuJoCo accepts on a moving body.
///
/// MuJoCo refuses `fullinertia` together with an orientation (`quat`), so a rotated inertial
/// frame is applied to the tensor instead: I_link = R·I·Rᵀ.
fn inertial(xml: &mut Xml, link: &Link) -> io::Result<()> {
    let (origin, mass, inertia) = match &link.inertial {
        Some(inertial) => (inertial.origin, inertial.mass, Some(inertial.inertia)),
        None => (Pose::IDENTITY, 0.0, None),
    };
    let mut attrs = vec![("pos", numbers(&origin.xyz))];
    // `max` also maps NaN to the minimum.
    attrs.push(("mass", number(mass.max(MIN_MASS))));
    match inertia.filter(|i| !is_negligible(i)) {
        Some(i) => {
            let [ixx, iyy, izz, ixy, ixz, iyz] = if origin.rpy == [0.0; 3] {
                [i.ixx, i.iyy, i.izz, i.ixy, i.ixz, i.iyz]
            } else {
                rotate_inertia(&i, origin.rpy)
            };
            attrs.push(("fullinertia", numbers(&[ixx, iyy, izz, ixy, ixz, iyz])));
        }
        None => attrs.push(("diaginertia", numbers(&[MIN_INERTIA; 3]))),
    }
    empty(xml, "inertial", attrs)
}

fn is_negligible(i: &Inertia) -> bool {
    !(i.ixx.max(i.iyy).max(i.izz) >= MIN_INERTIA)
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

/// R·I·Rᵀ of a tensor given in a frame rotated by `rpy`, as `[ixx, iyy, izz, ixy, ixz, iyz]`.
fn rotate_inertia(i: &Inertia, rpy: [f64; 3]) -> [f64; 6] {
    let r = rpy_to_matrix(rpy);
    let t = [
        [i.ixx, i.ixy, i.ixz],
        [i.ixy, i.iyy, i.iyz],
        [i.ixz, i.iyz, i.izz],
    ];
    let entry = |a: usize, b: usize| -> f64 {
        (0..3)
            .flat_map(|k| (0..3).map(move |l| (k, l)))
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
    let (kind, size) = match &shape.geometry {
        Geometry::Box { size } => ("box", Some(numbers(&size.map(|s| s / 2.0)))),
        Geometry::Cylinder { radius, length } => {
            ("cylinder", Some(numbers(&[*radius, length / 2.0])))
        }
        Geometry::Capsule { radius, length } => {
            ("capsule", Some(numbers(&[*radius, length / 2.0])))
        }
        Geometry::Sphere { radius } => ("sphere", Some(number(*radius))),
        Geometry::Mesh { .. } => ("mesh", None),
    };
    let mut attrs = vec![("type", kind.to_string())];
    match size {
        Some(size) => attrs.push(("size", size)),
        None => attrs.push(("mesh", mesh.to_string())),
    }
    push_pose(&mut attrs, &shape.origin);
    if visual {
        for (name, value) in [
            ("contype", "0"),
            ("conaffinity", "0"),
            ("group", "1"),
            ("density", "0"),
        ] {
            attrs.push((name, value.into()));
        }
    }
    empty(xml, "geom", attrs)
}

fn site_name(sensor: &Sensor) -> String {
    format!("{}_site", sensor.name)
}

/// Mimic joints as joint equalities: q(mimic) = offset + multiplier·q(target).
fn equality(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    let mimics: Vec<(&Joint, _)> = robot
        .joints
        .iter()
        .filter_map(|j| Some((j, j.mimic.as_ref()?)))
        .collect();
    if mimics.is_empty() {
        return Ok(());
    }
    element(xml, "equality", Vec::new(), |xml| {
        mimics.into_iter().try_for_each(|(joint, mimic)| {
            let polycoef = numbers(&[mimic.offset, mimic.multiplier, 0.0, 0.0, 0.0]);
            empty(
                xml,
                "joint",
                vec![
                    ("joint1", joint.name.to_string()),
                    ("joint2", mimic.joint.to_string()),
                    ("polycoef", polycoef),
                ],
            )
        })
    })
}

/// One torque motor per actuated joint; the backend writes the MIT law's torque into `ctrl`.
fn actuators(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    // A fixed joint has no MJCF joint to drive (validation rejects an actuated one anyway).
    let joints: Vec<&Joint> = robot
        .actuated_joints()
        .filter(|j| j.kind.is_movable())
        .collect();
    if joints.is_empty() {
        return Ok(());
    }
    element(xml, "actuator", Vec::new(), |xml| {
        joints.into_iter().try_for_each(|joint| {
            let mut attrs = vec![
                ("name", joint.name.to_string()),
                ("joint", joint.name.to_string()),
                ("gear", "1".into()),
            ];
            if let Some(effort) = joint.limits.map(|l| l.effort).filter(|&e| e > 0.0) {
                let range = numbers(&[-effort, effort]);
                attrs.push(("ctrllimited", "true".into()));
                attrs.push(("ctrlrange", range.clone()));
                attrs.push(("forcelimited", "true".into()));
                attrs.push(("forcerange", range));
            }
            empty(xml, "motor", attrs)
        })
    })
}

/// Each IMU as orientation, angular velocity and linear acceleration of its site.
fn sensors(xml: &mut Xml, robot: &Robot) -> io::Result<()> {
    if robot.sensors.is_empty() {
        return Ok(());
    }
    element(xml, "sensor", Vec::new(), |xml| {
        robot
            .sensors
            .iter()
            .try_for_each(|sensor| match sensor.kind {
                SensorKind::Imu => {
                    let (prefix, site) = (sensor.mujoco_prefix(), site_name(sensor));
                    empty(
                        xml,
                        "framequat",
                        vec![
                            ("name", format!("{prefix}_quat")),
                            ("objtype", "site".into()),
                            ("objname", site.clone()),
                        ],
                    )?;
                    empty(
                        xml,
                        "gyro",
                        vec![("name", format!("{prefix}_gyro")), ("site", site.clone())],
                    )?;
                    empty(
                        xml,
                        "accelerometer",
                        vec![("name", format!("{prefix}_accel")), ("site", site)],
                    )
                }
            })
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::emit::fixture;

    fn without_imu() -> Robot {
        let mut robot = fixture::robot();
        robot.sensors = Vec::new().into();
        robot
    }

    fn emit(robot: &Robot) -> String {
        document(robot).unwrap()
    }

    fn parse(text: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(text).unwrap()
    }

    type Node<'a> = roxmltree::Node<'a, 'a>;

    fn elements<'a>(doc: &'a roxmltree::Document<'a>, tag: &str) -> Vec<Node<'a>> {
        doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
    }

    fn children<'a>(node: Node<'a>, tag: &str) -> Vec<Node<'a>> {
        node.children().filter(|n| n.has_tag_name(tag)).collect()
    }

    fn names(doc: &roxmltree::Document<'_>, tag: &str) -> Vec<String> {
        elements(doc, tag)
            .iter()
            .filter_map(|n| n.attribute("name"))
            .map(String::from)
            .collect()
    }

    fn named<'a>(doc: &'a roxmltree::Document<'a>, tag: &str, name: &str) -> Node<'a> {
        *elements(doc, tag)
            .iter()
            .find(|b| b.attribute("name") == Some(name))
            .unwrap()
    }

    fn values(node: Node<'_>, attribute: &str) -> Vec<f64> {
        node.attribute(attribute)
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect()
    }

    type Matrix = [[f64; 3]; 3];

    fn mul(a: Matrix, b: Matrix) -> Matrix {
        std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
    }

    fn rx(a: f64) -> Matrix {
        let (s, c) = a.sin_cos();
        [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
    }

    fn ry(a: f64) -> Matrix {
        let (s, c) = a.sin_cos();
        [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
    }

    fn rz(a: f64) -> Matrix {
        let (s, c) = a.sin_cos();
        [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
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

    fn assert_close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        assert!(
            a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12),
            "{a:?} != {b:?}"
        );
    }

    #[test]
    fn rpy_to_quat_known_rotations() {
        use std::f64::consts::{FRAC_1_SQRT_2 as H, FRAC_PI_2, PI};
        assert_close(&rpy_to_quat([0.0; 3]), &[1.0, 0.0, 0.0, 0.0]);
        assert_close(&rpy_to_quat([FRAC_PI_2, 0.0, 0.0]), &[H, H, 0.0, 0.0]);
        assert_close(&rpy_to_quat([0.0, FRAC_PI_2, 0.0]), &[H, 0.0, H, 0.0]);
        assert_close(&rpy_to_quat([0.0, 0.0, FRAC_PI_2]), &[H, 0.0, 0.0, H]);
        assert_close(&rpy_to_quat([PI, 0.0, 0.0]), &[0.0, 1.0, 0.0, 0.0]);
        // lite_biped's left_hip_pitch: rpy (-1.74533, 0, 0) is the reference MJCF's quat 0.642787 -0.766045 0 0.
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
            [0.0, std::f64::consts::FRAC_PI_2, 1.0],
        ] {
            let [roll, pitch, yaw] = rpy;
            let expected = mul(rz(yaw), mul(ry(pitch), rx(roll)));
            let q = rpy_to_quat(rpy);
            assert!(
                (q.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12,
                "unit quaternion"
            );
            assert_close(quat_to_matrix(q).as_flattened(), expected.as_flattened());
            assert_close(rpy_to_matrix(rpy).as_flattened(), expected.as_flattened());
        }
    }

    #[test]
    fn layout_and_header() {
        let text = emit(&fixture::robot());
        assert!(text.starts_with("<!-- GENERATED by robot-core"), "{text}");
        assert!(text.ends_with("</mujoco>\n"));
        let doc = parse(&text);
        let root = doc.root_element();
        assert_eq!(
            (root.tag_name().name(), root.attribute("model")),
            ("mujoco", Some("test_bot"))
        );
        let tags: Vec<&str> = root
            .children()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name())
            .collect();
        assert_eq!(
            tags,
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
        let option = elements(&doc, "option")[0];
        assert_eq!(
            option.attribute("timestep"),
            Some("0.002"),
            "the loop period at 500 Hz"
        );
        assert_eq!(option.attribute("integrator"), Some("implicitfast"));
        let compiler = elements(&doc, "compiler")[0];
        assert_eq!(
            (
                compiler.attribute("angle"),
                compiler.attribute("autolimits")
            ),
            (Some("radian"), Some("true"))
        );
    }

    #[test]
    fn body_tree_follows_the_joints() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let parent = |link: &str| {
            named(&doc, "body", link)
                .parent_element()
                .unwrap()
                .attribute("name")
        };
        assert_eq!(parent("base"), None, "the root body is in the worldbody");
        for (link, parent_link) in [
            ("foot", "base"),
            ("carriage", "base"),
            ("wheel_link", "base"),
            ("toe", "foot"),
        ] {
            assert_eq!(parent(link), Some(parent_link));
        }
        assert_eq!(
            parent("imu_link"),
            Some("base"),
            "a fixed joint nests its child"
        );
        let foot = named(&doc, "body", "foot");
        assert_eq!(
            (foot.attribute("pos"), foot.attribute("quat")),
            (Some("0 0.05 -0.1"), None)
        );
        let wheel = named(&doc, "body", "wheel_link");
        assert_close(
            &values(wheel, "quat"),
            &rpy_to_quat([std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
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
        assert!(children(named(&doc, "body", "imu_link"), "joint").is_empty());
        assert_eq!(names(&doc, "freejoint"), ["floating_base_joint"]);
        let ankle = named(&doc, "joint", "ankle");
        assert_eq!(
            (ankle.attribute("type"), ankle.attribute("axis")),
            (Some("hinge"), Some("0 1 0"))
        );
        assert_close(
            &values(ankle, "range"),
            &[(-30.0_f64).to_radians(), 50.0_f64.to_radians()],
        );
        assert_eq!(values(ankle, "actuatorfrcrange"), [-5.0, 5.0]);
        let wheel = named(&doc, "joint", "wheel");
        assert_eq!(
            (wheel.attribute("type"), wheel.attribute("range")),
            (Some("hinge"), None),
            "continuous: no range"
        );
        assert_eq!(wheel.attribute("limited"), Some("false"));
        for (attribute, value) in [
            ("damping", "0.1"),
            ("frictionloss", "0.05"),
            ("armature", "0.001"),
        ] {
            assert_eq!(wheel.attribute(attribute), Some(value));
        }
        assert_eq!(ankle.attribute("damping"), None, "no dynamics, no damping");
        let slider = named(&doc, "joint", "slider");
        assert_eq!(
            (slider.attribute("type"), slider.attribute("axis")),
            (Some("slide"), Some("1 0 0"))
        );
        assert_eq!(values(slider, "range"), [-0.05, 0.05]);
    }

    #[test]
    fn one_motor_per_actuated_joint_with_the_torque_limit() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let motors = elements(&doc, "motor");
        let joints: Vec<_> = motors
            .iter()
            .map(|m| (m.attribute("name"), m.attribute("joint")))
            .collect();
        assert_eq!(
            joints,
            ["ankle", "slider", "wheel"].map(|n| (Some(n), Some(n))),
            "the mimic joint has none"
        );
        for (motor, effort) in motors.iter().zip([5.0, 5.0, 10.0]) {
            assert_eq!(values(*motor, "forcerange"), [-effort, effort]);
            assert_eq!(values(*motor, "ctrlrange"), [-effort, effort]);
            assert_eq!(
                (
                    motor.attribute("ctrllimited"),
                    motor.attribute("forcelimited")
                ),
                (Some("true"), Some("true"))
            );
            assert_eq!(motor.attribute("gear"), Some("1"));
        }
    }

    #[test]
    fn mimic_joint_is_an_equality() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let equalities: Vec<_> = elements(&doc, "equality")[0]
            .children()
            .filter(|n| n.is_element())
            .collect();
        let [e] = equalities[..] else {
            panic!("{equalities:?}")
        };
        assert_eq!(
            (e.attribute("joint1"), e.attribute("joint2")),
            (Some("follower"), Some("ankle"))
        );
        assert_eq!(values(e, "polycoef"), [0.1, -0.5, 0.0, 0.0, 0.0]);
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
        let sensors: Vec<_> = elements(&doc, "sensor")[0]
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
        assert_eq!(
            (
                sensors[0].attribute("objtype"),
                sensors[0].attribute("objname")
            ),
            (Some("site"), Some("base_imu_site"))
        );
        assert!(
            sensors[1..]
                .iter()
                .all(|s| s.attribute("site") == Some("base_imu_site"))
        );
    }

    #[test]
    fn without_an_imu_the_root_is_welded_to_the_world() {
        let text = emit(&without_imu());
        let doc = parse(&text);
        assert!(elements(&doc, "freejoint").is_empty());
        assert!(elements(&doc, "sensor").is_empty() && elements(&doc, "site").is_empty());
        assert_eq!(
            names(&doc, "joint"),
            ["ankle", "follower", "slider", "wheel"]
        );
    }

    #[test]
    fn geoms_use_mujoco_sizes_and_visuals_do_not_collide() {
        let text = emit(&fixture::robot());
        let doc = parse(&text);
        let geoms = |link: &str| children(named(&doc, "body", link), "geom");
        let visual_flags = [
            ("contype", "0"),
            ("conaffinity", "0"),
            ("group", "1"),
            ("density", "0"),
        ];
        // Collisions first, keeping MuJoCo's contact defaults, then visuals.
        let [capsule, visual] = geoms("base")[..] else {
            panic!()
        };
        assert_eq!(
            (capsule.attribute("type"), capsule.attribute("size")),
            (Some("capsule"), Some("0.02 0.05"))
        );
        assert_eq!(capsule.attribute("pos"), Some("0 0 0.1"));
        assert_close(
            &values(capsule, "quat"),
            &rpy_to_quat([std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
        );
        assert_eq!(capsule.attribute("contype"), None);
        assert_eq!(
            (visual.attribute("type"), visual.attribute("size")),
            (Some("box"), Some("0.1 0.05 0.025"))
        );
        for (attribute, value) in visual_flags {
            assert_eq!(visual.attribute(attribute), Some(value));
        }
        let mesh = geoms("foot")[0];
        assert_eq!(
            (mesh.attribute("type"), mesh.attribute("mesh")),
            (Some("mesh"), Some("foot_visual_0"))
        );
        let asset = named(&doc, "mesh", "foot_visual_0");
        assert_eq!(asset.parent_element().unwrap().tag_name().name(), "asset");
        assert_eq!(
            asset.attribute("file"),
            Some("package://test_bot/meshes/foot.stl")
        );
        assert_eq!(asset.attribute("scale"), Some("0.001 0.001 0.001"));
        assert_eq!(
            geoms("wheel_link")[0].attribute("size"),
            Some("0.05 0.01"),
            "cylinder: radius, half length"
        );
        assert_eq!(geoms("carriage")[0].attribute("size"), Some("0.03"));
    }

    #[test]
    fn every_body_has_a_valid_inertial() {
        let mut robot = fixture::robot();
        // lite_biped's `imu` link: a mass of 1e-9 and a zero inertia.
        let toe = robot
            .links
            .to_mut()
            .iter_mut()
            .find(|l| l.name == "toe")
            .unwrap();
        toe.inertial = Some(crate::model::Inertial {
            mass: 1e-9,
            origin: Pose::IDENTITY,
            inertia: Inertia::default(),
        });
        let text = emit(&robot);
        let doc = parse(&text);
        for body in elements(&doc, "body") {
            let [inertial] = children(body, "inertial")[..] else {
                panic!("{:?}", body.attribute("name"))
            };
            assert!(values(inertial, "mass")[0] > 0.0);
        }
        let inertial = |link: &str| children(named(&doc, "body", link), "inertial")[0];
        let base = inertial("base");
        assert_eq!(
            (base.attribute("pos"), base.attribute("mass")),
            (Some("0 0 0.01"), Some("2"))
        );
        assert_eq!(
            base.attribute("fullinertia"),
            Some("0.002 0.004 0.003 0 0 0")
        );
        // `imu_link` has no inertial, `toe` a zero inertia: both get a tiny valid one.
        for link in ["imu_link", "toe"] {
            assert_eq!(values(inertial(link), "mass"), [MIN_MASS]);
            assert_eq!(values(inertial(link), "diaginertia"), [MIN_INERTIA; 3]);
        }
    }

    #[test]
    fn a_rotated_inertial_frame_rotates_the_tensor() {
        let mut robot = fixture::robot();
        let base = robot
            .links
            .to_mut()
            .iter_mut()
            .find(|l| l.name == "base")
            .unwrap();
        let inertial = base.inertial.as_mut().unwrap();
        inertial.origin.rpy = [0.1, 0.2, 0.3];
        inertial.inertia.ixy = 1e-4;
        let i = inertial.inertia;
        let text = emit(&robot);
        let doc = parse(&text);
        // MuJoCo refuses `quat` next to `fullinertia`: the tensor is given in the link frame instead.
        let emitted = children(named(&doc, "body", "base"), "inertial")[0];
        assert_eq!(emitted.attribute("quat"), None);
        let [ixx, iyy, izz, ixy, ixz, iyz] = values(emitted, "fullinertia")[..] else {
            panic!()
        };
        let r = mul(rz(0.3), mul(ry(0.2), rx(0.1)));
        let rt: Matrix = std::array::from_fn(|a| std::array::from_fn(|b| r[b][a]));
        let tensor = [
            [i.ixx, i.ixy, i.ixz],
            [i.ixy, i.iyy, i.iyz],
            [i.ixz, i.iyz, i.izz],
        ];
        let expected = mul(r, mul(tensor, rt));
        assert_close(
            &[ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz],
            expected.as_flattened(),
        );
        // A quarter turn about z swaps ixx and iyy.
        let i = Inertia {
            ixx: 1.0,
            iyy: 2.0,
            izz: 3.0,
            ..Inertia::default()
        };
        assert_close(
            &rotate_inertia(&i, [0.0, 0.0, std::f64::consts::FRAC_PI_2]),
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

    #[test]
    #[ignore = "scratch: writes MJCF for a manual MuJoCo check"]
    fn scratch_write() {
        let dir = std::path::Path::new("/tmp/mjcf_check");
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("fixture.xml"), emit(&fixture::robot())).unwrap();
        std::fs::write(dir.join("arm.xml"), emit(&without_imu())).unwrap();
    }
}
