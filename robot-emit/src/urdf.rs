//! URDF and its xacro: links, joints and the `<ros2_control>` blocks, as one tree.
//!
//! [`Target::Xacro`] writes the tree with its `sim_mujoco`/`use_mock_hardware` switches;
//! [`Target::Expanded`] evaluates them for one backend. Both render the same tree, so a
//! `.<backend>.urdf` is by construction what xacro makes of the `.urdf.xacro`.

use super::EmitError;
use super::format::{header_comment, number, numbers};
use super::ros2_control;
use super::xml::{self, Document, Element, Mode, Node};
use crate::ros2_control::launch_args::{LaunchDefaults, prefixed};
use robot_model::model::{Geometry, Inertial, Joint, Link, Pose, Robot, Shape};
use robot_runtime::backend::{Backend, XacroArgs};

/// Which file to write.
pub(crate) enum Target {
    /// The `.urdf.xacro`, with the backend switches.
    Xacro,
    /// The URDF xacro gives for the args that select this backend.
    Expanded(Backend),
}

/// The whole document for `target`.
pub(crate) fn document(robot: &Robot, target: Target) -> Result<String, EmitError> {
    render(&tree(robot, &LaunchDefaults::default())?, target)
}

/// Writes an already built [`tree`] for `target`, so several targets can share one tree.
pub(crate) fn render(tree: &Document, target: Target) -> Result<String, EmitError> {
    let mode = match target {
        Target::Xacro => Mode::Xacro,
        Target::Expanded(backend) => Mode::Expanded(backend.xacro_args()),
    };
    xml::render(tree, mode)
}

/// The one tree both targets render.
pub(crate) fn tree(robot: &Robot, defaults: &LaunchDefaults) -> Result<Document, EmitError> {
    let root = Element::new("robot")
        .attr("name", robot.name.as_ref())
        // Real hardware is the fallback: every switch defaults to off (`docs/backend-selection.md`).
        .children(
            XacroArgs::default()
                .pairs()
                .map(|(name, default)| Node::Arg { name, default }),
        )
        // The devices, set at launch (`can_interface_left_leg:=can2`, `imu_port:=/dev/ttyUSB1`).
        .children(ros2_control::launch_args::declarations(robot, defaults))
        .children(robot.links.iter().map(link))
        .children(robot.joints.iter().map(joint))
        .children(ros2_control::nodes(robot)?);
    Ok(Document {
        declaration: true,
        comments: vec![header_comment(robot), backend_comment()],
        root,
    })
}

/// How the switches select a backend, for a reader of the file (`docs/backend-selection.md`).
fn backend_comment() -> String {
    "Backends, by arg: sim_mujoco:=true selects MuJoCo (mujoco_ros2_control/MujocoSystem) \
     and wins over the others; else use_topic_hardware:=true selects the topic backend \
     (joint_state_topic_hardware_interface/JointStateTopicSystem: commands out on \
     /robot_joint_commands, states in on /robot_joint_states); else use_mock_hardware:=true \
     selects mock_components/GenericSystem; with none set, the real RobStride hardware."
        .to_string()
}

fn link(link: &Link) -> Node {
    Element::new("link")
        .attr("name", prefixed(&link.name))
        .children(link.inertial.as_ref().map(inertial))
        .children(link.visuals.iter().map(|s| shape("visual", s)))
        .children(link.collisions.iter().map(|s| shape("collision", s)))
        .into()
}

fn inertial(inertial: &Inertial) -> Node {
    let inertia = inertial.inertia.entries();
    Element::new("inertial")
        .child(origin(&inertial.origin))
        .child(Element::new("mass").attr("value", number(inertial.mass)))
        .child(
            inertia
                .into_iter()
                .fold(Element::new("inertia"), |e, (name, value)| {
                    e.attr(name, number(value))
                }),
        )
        .into()
}

fn origin(pose: &Pose) -> Element {
    Element::new("origin")
        .attr("xyz", numbers(&pose.xyz))
        .attr("rpy", numbers(&pose.rpy))
}

fn shape(tag: &'static str, shape: &Shape) -> Node {
    Element::new(tag)
        .child(origin(&shape.origin))
        .child(Element::new("geometry").children(geometry(&shape.geometry)))
        .into()
}

fn geometry(geometry: &Geometry) -> Vec<Node> {
    let cylinder = |radius: f64, length: f64| {
        Element::new("cylinder")
            .attr("radius", number(radius))
            .attr("length", number(length))
            .into()
    };
    match geometry {
        Geometry::Box { size } => vec![Element::new("box").attr("size", numbers(size)).into()],
        Geometry::Cylinder { radius, length } => vec![cylinder(*radius, *length)],
        Geometry::Sphere { radius } => vec![
            Element::new("sphere")
                .attr("radius", number(*radius))
                .into(),
        ],
        // URDF has no capsule: the cylinder spanning it, caps included, stands in (MJCF keeps it).
        Geometry::Capsule { radius, length } => vec![
            Node::comment(format!(
                "capsule of radius {} and length {} (without caps), as a cylinder of its overall length",
                number(*radius),
                number(*length)
            )),
            cylinder(*radius, length + 2.0 * radius),
        ],
        Geometry::Mesh { filename, scale } => {
            let mesh = Element::new("mesh").attr("filename", filename.as_ref());
            let mesh = if *scale == [1.0; 3] {
                mesh
            } else {
                mesh.attr("scale", numbers(scale))
            };
            vec![mesh.into()]
        }
    }
}

fn joint(joint: &Joint) -> Node {
    let mut element = Element::new("joint")
        .attr("name", prefixed(&joint.name))
        .attr("type", joint.kind.urdf_name())
        .child(origin(&joint.origin))
        .child(Element::new("parent").attr("link", prefixed(&joint.parent)))
        .child(Element::new("child").attr("link", prefixed(&joint.child)));
    if joint.kind.is_movable() {
        element = element.child(Element::new("axis").attr("xyz", numbers(&joint.axis)));
        if let Some(limits) = &joint.limits {
            let mut limit = Element::new("limit");
            // A continuous joint with lower/upper would be limited by MuJoCo.
            if joint.kind.is_bounded() {
                if let Some(lower) = limits.lower {
                    limit = limit.attr("lower", number(lower));
                }
                if let Some(upper) = limits.upper {
                    limit = limit.attr("upper", number(upper));
                }
            }
            let limit = limit
                .attr("effort", number(limits.effort))
                .attr("velocity", number(limits.velocity));
            element = element.child(limit);
        }
    }
    if let Some(dynamics) = &joint.dynamics {
        element = element.child(
            Element::new("dynamics")
                .attr("damping", number(dynamics.damping))
                .attr("friction", number(dynamics.friction)),
        );
    }
    if let Some(mimic) = &joint.mimic {
        element = element.child(
            Element::new("mimic")
                .attr("joint", prefixed(&mimic.joint))
                .attr("multiplier", number(mimic.multiplier))
                .attr("offset", number(mimic.offset)),
        );
    }
    element.into()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::read::{evaluate_xacro, plain};
    use crate::{urdf, urdf_xacro};
    use robot_model::fixture;

    fn expanded(robot: &Robot, args: XacroArgs) -> String {
        xml::render(
            &tree(robot, &LaunchDefaults::default()).unwrap(),
            Mode::Expanded(args),
        )
        .unwrap()
    }

    #[test]
    fn every_arg_combination_gives_the_selected_backend() {
        let robot = fixture::robot();
        let xacro = urdf_xacro(&robot).unwrap();
        for args in XacroArgs::ALL {
            let want = urdf(&robot, Backend::from_xacro_args(args)).unwrap();
            assert_eq!(expanded(&robot, args), want, "{args:?}");
            // The xacro text itself, read back and evaluated apart from the renderer.
            assert_eq!(
                evaluate_xacro(&xacro, &args.pairs()),
                plain(&want),
                "{args:?}"
            );
        }
    }

    #[test]
    fn expanded_files_have_no_xacro_left() {
        let robot = fixture::robot();
        for backend in Backend::ALL {
            let text = urdf(&robot, backend).unwrap();
            assert!(!text.contains("xacro"), "{backend}:\n{text}");
            roxmltree::Document::parse(&text).unwrap();
        }
    }

    #[test]
    fn the_xacro_declares_every_switch_off_then_the_devices_with_defaults() {
        let text = urdf_xacro(&fixture::robot()).unwrap();
        let document = roxmltree::Document::parse(&text).unwrap();
        let root = document.root_element();
        assert_eq!(root.tag_name().name(), "robot");
        assert_eq!(root.attribute("name"), Some("test_bot"));
        assert_eq!(
            root.lookup_namespace_uri(Some("xacro")),
            Some(xml::XACRO_NAMESPACE)
        );
        let args: Vec<_> = root
            .children()
            .filter(|c| {
                c.tag_name().namespace() == Some(xml::XACRO_NAMESPACE)
                    && c.tag_name().name() == "arg"
            })
            .map(|c| {
                (
                    c.attribute("name").unwrap(),
                    c.attribute("default").unwrap(),
                )
            })
            .collect();
        assert_eq!(
            args,
            [
                ("sim_mujoco", "false"),
                ("use_topic_hardware", "false"),
                ("use_mock_hardware", "false"),
                ("prefix", ""),
                ("can_interface_front", "can0"),
                ("can_interface_rear", "can1"),
                ("calibration_file", ""),
                ("joint_commands_topic", "/robot_joint_commands"),
                ("joint_states_topic", "/robot_joint_states"),
            ]
        );
    }

    #[test]
    fn the_header_comment_comes_first() {
        let robot = fixture::robot();
        for text in [
            urdf_xacro(&robot).unwrap(),
            urdf(&robot, Backend::Real).unwrap(),
        ] {
            let document = roxmltree::Document::parse(&text).unwrap();
            let first = document.root().first_child().unwrap();
            assert!(first.is_comment(), "{text}");
            assert!(
                first.text().unwrap().contains("GENERATED by robot-core"),
                "{text}"
            );
            assert!(
                text.starts_with("<?xml version=\"1.0\"?>\n<!-- GENERATED"),
                "{text}"
            );
        }
    }

    /// The URDF `<joint>` of that name.
    fn urdf_joint<'a, 'i>(
        document: &'a roxmltree::Document<'i>,
        name: &str,
    ) -> roxmltree::Node<'a, 'i> {
        document
            .root_element()
            .children()
            .find(|n| n.has_tag_name("joint") && n.attribute("name") == Some(name))
            .unwrap()
    }

    fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
        node.children().find(|c| c.has_tag_name(tag))
    }

    #[test]
    fn joints_carry_type_origin_axis_limits_dynamics_and_mimic() {
        let text = urdf(&fixture::robot(), Backend::Real).unwrap();
        let document = roxmltree::Document::parse(&text).unwrap();

        let wheel = urdf_joint(&document, "wheel");
        assert_eq!(wheel.attribute("type"), Some("continuous"));
        let limit = child(wheel, "limit").unwrap();
        let attributes: Vec<_> = limit.attributes().map(|a| (a.name(), a.value())).collect();
        assert_eq!(
            attributes,
            [("effort", "10"), ("velocity", "20")],
            "no lower/upper on a continuous joint"
        );
        let dynamics = child(wheel, "dynamics").unwrap();
        assert_eq!(
            (
                dynamics.attribute("damping"),
                dynamics.attribute("friction")
            ),
            (Some("0.1"), Some("0.05"))
        );

        let slider = urdf_joint(&document, "slider");
        assert_eq!(slider.attribute("type"), Some("prismatic"));
        let limit = child(slider, "limit").unwrap();
        assert_eq!(
            (limit.attribute("lower"), limit.attribute("upper")),
            (Some("-0.05"), Some("0.05"))
        );
        assert_eq!(
            child(slider, "axis").unwrap().attribute("xyz"),
            Some("1 0 0")
        );
        assert_eq!(
            child(slider, "origin").unwrap().attribute("xyz"),
            Some("0.1 0 0")
        );
        assert_eq!(
            child(slider, "parent").unwrap().attribute("link"),
            Some("base")
        );
        assert_eq!(
            child(slider, "child").unwrap().attribute("link"),
            Some("carriage")
        );

        let mimic = child(urdf_joint(&document, "follower"), "mimic").unwrap();
        let attributes: Vec<_> = mimic.attributes().map(|a| (a.name(), a.value())).collect();
        assert_eq!(
            attributes,
            [
                ("joint", "ankle"),
                ("multiplier", "-0.5"),
                ("offset", "0.1")
            ]
        );

        let fixed = urdf_joint(&document, "imu_mount");
        assert_eq!(fixed.attribute("type"), Some("fixed"));
        assert!(child(fixed, "axis").is_none() && child(fixed, "limit").is_none());
    }

    #[test]
    fn links_carry_inertials_and_geometry() {
        let text = urdf(&fixture::robot(), Backend::Real).unwrap();
        let document = roxmltree::Document::parse(&text).unwrap();
        let link = |name: &str| {
            document
                .root_element()
                .children()
                .find(|n| n.has_tag_name("link") && n.attribute("name") == Some(name))
                .unwrap()
        };
        let base = link("base");
        let inertial = child(base, "inertial").unwrap();
        assert_eq!(
            child(inertial, "mass").unwrap().attribute("value"),
            Some("2")
        );
        assert_eq!(
            child(inertial, "inertia").unwrap().attribute("iyy"),
            Some("0.004")
        );
        let box_ = child(
            child(child(base, "visual").unwrap(), "geometry").unwrap(),
            "box",
        )
        .unwrap();
        assert_eq!(box_.attribute("size"), Some("0.2 0.1 0.05"));
        // A capsule of radius 0.02 and length 0.1 is a cylinder of length 0.1 + 2 * 0.02.
        let collision = child(base, "collision").unwrap();
        assert_eq!(
            child(collision, "origin").unwrap().attribute("rpy"),
            Some(&*numbers(&[std::f64::consts::FRAC_PI_2, 0.0, 0.0]))
        );
        let cylinder = child(child(collision, "geometry").unwrap(), "cylinder").unwrap();
        assert_eq!(
            (cylinder.attribute("radius"), cylinder.attribute("length")),
            (Some("0.02"), Some("0.14"))
        );
        let mesh = child(
            child(child(link("foot"), "visual").unwrap(), "geometry").unwrap(),
            "mesh",
        )
        .unwrap();
        assert_eq!(
            mesh.attribute("filename"),
            Some("package://test_bot/meshes/foot.stl")
        );
        assert_eq!(mesh.attribute("scale"), Some("0.001 0.001 0.001"));
        assert!(
            link("imu_link").children().all(|c| !c.is_element()),
            "a massless frame is an empty link"
        );
    }

    #[test]
    fn names_and_values_are_escaped() {
        let odd = r#"odd&<"name>"#;
        let mut robot = fixture::robot();
        let links = robot.links.to_mut();
        links[1].visuals.to_mut()[0].geometry = Geometry::Mesh {
            filename: odd.into(),
            scale: [1.0; 3],
        };
        robot.sensors.to_mut()[0].params.to_mut()[0].value = odd.into();
        robot.joints.to_mut()[2].name = odd.into();
        for text in [
            urdf_xacro(&robot).unwrap(),
            urdf(&robot, Backend::Real).unwrap(),
        ] {
            assert!(text.contains("odd&amp;&lt;&quot;name&gt;"), "{text}");
            let document = roxmltree::Document::parse(&text).unwrap();
            let values = document
                .descendants()
                .flat_map(|n| n.attributes().map(|a| a.value()).chain(n.text()));
            assert!(values.filter(|v| *v == odd).count() >= 3, "{text}");
        }
    }

    #[test]
    fn output_is_deterministic() {
        for _ in 0..2 {
            let (first, second) = (fixture::robot(), fixture::robot());
            assert_eq!(urdf_xacro(&first).unwrap(), urdf_xacro(&second).unwrap());
            for backend in Backend::ALL {
                assert_eq!(
                    urdf(&first, backend).unwrap(),
                    urdf(&second, backend).unwrap()
                );
            }
        }
    }
}
