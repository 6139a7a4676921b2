//! `package.xml`, format 3 (REP 149): name, version, description, maintainer, licences, the
//! ament_cmake build tool, and an `exec_depend` on every package the launch files start or load.

use std::collections::BTreeSet;

use super::PackageInfo;
use crate::EmitError;
use crate::controllers;
use crate::format::header_comment;
use crate::xml::{self, Document, Element, Mode, Node};
use robot_model::model::Robot;
use robot_runtime::Backend;

/// What the launch files run, besides the controllers' packages: xacro expands the description,
/// robot_state_publisher publishes it, controller_manager runs it (`ros2_control_node`, the
/// spawners), hardware_interface carries `mock_components/GenericSystem`, the GUI and RViz are
/// `view.launch.py`'s, launch and launch_ros run the files.
const EXEC_DEPENDS: [&str; 9] = [
    "launch",
    "launch_ros",
    "xacro",
    "robot_state_publisher",
    "joint_state_publisher",
    "joint_state_publisher_gui",
    "rviz2",
    "controller_manager",
    "hardware_interface",
];

/// The package of a `pkg/Class` plugin name.
fn plugin_package(plugin: &str) -> &str {
    plugin
        .split_once('/')
        .map_or(plugin, |(package, _)| package)
}

/// The generated description: which robot and what the package holds.
fn default_description(robot: &Robot) -> String {
    format!(
        "The {} robot ({}): its URDF with ros2_control for every hardware backend, \
         controllers.yaml, a MuJoCo model, and launch files to view it and bring it up; \
         generated from its robot! definition",
        robot.name, robot.type_name
    )
}

/// The `package.xml` text.
pub(super) fn document(robot: &Robot, info: &PackageInfo) -> Result<String, EmitError> {
    let text = |name: &'static str, value: &str| Element::new(name).text(value);
    let mut root = Element::new("package")
        .attr("format", "3")
        .child(text("name", &super::package_name(robot)))
        .child(text("version", &info.version))
        .child(text(
            "description",
            &info
                .description
                .clone()
                .unwrap_or_else(|| default_description(robot)),
        ))
        .child(
            Element::new("maintainer")
                .attr("email", info.maintainer.email.as_str())
                .text(info.maintainer.name.as_str()),
        )
        .children(info.licenses.iter().map(|l| text("license", l)))
        .child(text("buildtool_depend", "ament_cmake"));

    // Each package once, in a stable order: ours first, then the controllers' in their order.
    let mut seen = BTreeSet::new();
    let mut depends: Vec<&str> = Vec::new();
    let controllers = controllers::declared(robot);
    let controller_packages = controllers.iter().map(|c| plugin_package(c.plugin));
    for package in EXEC_DEPENDS.into_iter().chain(controller_packages) {
        if seen.insert(package) {
            depends.push(package);
        }
    }
    root = root.children(depends.into_iter().map(|p| text("exec_depend", p)));
    root = root.children(optional_hardware(robot));
    root = root.child(Element::new("export").child(text("build_type", "ament_cmake")));

    let document = Document {
        declaration: true,
        comments: vec![header_comment(robot)],
        root,
    };
    xml::render(&document, Mode::Plain)
}

/// The hardware plugins of the backends other than the mock, as a comment: they are not
/// dependencies, because a robot runs on one backend at a time and none of them is a rosdep key
/// that installs the right thing. `mujoco_ros2_control/MujocoSystem` is moveit's
/// mujoco_ros2_control (built from source); the `mujoco_ros2_control` rosdep key is
/// ros-controls' package of that name, whose plugin has another name.
fn optional_hardware(robot: &Robot) -> Vec<Node> {
    let mut lines = vec![
        "Hardware plugins by backend, not dependencies (one backend runs at a time; build the \
         one you use into your workspace):"
            .to_string(),
        format!(
            "sim_mujoco:=true: {} from moveit/mujoco_ros2_control, built from source (the rosdep \
             key mujoco_ros2_control is ros-controls' package, whose plugin has another name)",
            plugin_package(Backend::Mujoco.plugin())
        ),
        format!(
            "use_topic_hardware:=true: {} (ros-controls/topic_based_hardware_interfaces)",
            plugin_package(Backend::Topic.plugin())
        ),
    ];
    let mut real: Vec<&str> = Vec::new();
    if !robot.buses.is_empty() {
        real.push(plugin_package(Backend::Real.plugin()));
    }
    for sensor in robot.sensors.iter() {
        let package = plugin_package(&sensor.plugin);
        if !real.contains(&package) {
            real.push(package);
        }
    }
    if !real.is_empty() {
        lines.push(format!("real hardware: {}", real.join(", ")));
    }
    lines.into_iter().map(Node::comment).collect()
}
