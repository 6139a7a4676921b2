//! The package's launch files, as Python that ROS 2's `launch` runs: `view.launch.py`, to look at
//! the robot, and `bringup.launch.py`, the robot under ros2_control on the backend its args select.
//!
//! Everything a launch file names is written out literally (each `LaunchConfiguration`, each
//! spawner's controller, each file under the package's share folder), so a test can read the
//! syntax tree and check it against the package without running ROS.

use std::fmt::Write as _;

use crate::controllers::{self, Role};
use crate::format::header_comment;
use crate::ros2_control::{backs_sensors, launch_args};
use crate::{EmitError, LaunchDefaults};
use robot_model::model::Robot;
use robot_runtime::Backend;
use robot_runtime::backend::{SIM_MUJOCO_ARG, USE_MOCK_HARDWARE_ARG, USE_TOPIC_HARDWARE_ARG};

/// A Python string literal of `text`: JSON's escapes are Python's too.
fn py(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

/// The header comment and the imports every launch file starts with.
fn preamble(robot: &Robot, docstring: &str, imports: &[&str]) -> String {
    let mut out = format!("# {}\n\"\"\"{docstring}\"\"\"\n\n", header_comment(robot));
    for import in imports {
        out.push_str(import);
        out.push('\n');
    }
    out
}

/// `PathJoinSubstitution([share, "folder", "file"])`: a file installed in the package.
fn installed(folder: &str, file: &str) -> String {
    format!(
        "PathJoinSubstitution([share, {}, {}])",
        py(folder),
        py(file)
    )
}

/// The xacro command expanding the package's description, with `args` as `name:='value'`
/// (quoted, so an empty or spaced value stays one argument).
fn xacro_command(robot: &Robot, args: &[(String, String)]) -> String {
    let mut out = String::from(
        "ParameterValue(\n        Command(\n            [\n                \
         PathJoinSubstitution([FindExecutable(name=\"xacro\")]),\n                \" \",\n",
    );
    let _ = writeln!(
        out,
        "                {},",
        installed("urdf", &format!("{}.urdf.xacro", robot.name))
    );
    for (name, value) in args {
        let _ = writeln!(
            out,
            "                {},\n                {value},\n                \"'\",",
            py(&format!(" {name}:='"))
        );
    }
    out.push_str("            ]\n        ),\n        value_type=str,\n    )");
    out
}

/// What each launch-time arg of the `.urdf.xacro` is for.
fn describe(robot: &Robot, name: &str) -> String {
    let bus = robot
        .buses
        .iter()
        .find(|b| launch_args::can_interface_arg(robot, b).name == name);
    if let Some(bus) = bus {
        return format!("SocketCAN interface of bus {} (real hardware)", bus.name);
    }
    match name {
        "prefix" => "put before every link, joint, sensor and ros2_control name; must be the \
                     prefix controllers.yaml was emitted with (robot emit --prefix)"
            .to_string(),
        "calibration_file" => {
            "calibration (zero offsets) file of the real hardware; empty: the definition's"
                .to_string()
        }
        "joint_commands_topic" => "topic the topic backend publishes commands on".to_string(),
        "joint_states_topic" => "topic the topic backend reads joint states from".to_string(),
        _ if name.ends_with("_port") => "serial port of the IMU (real hardware)".to_string(),
        _ => String::new(),
    }
}

/// `view.launch.py`: robot_state_publisher with the description at its defaults, the joint
/// sliders and RViz.
pub(super) fn view(robot: &Robot) -> String {
    let name = &robot.name;
    let mut out = preamble(
        robot,
        &format!(
            "Look at {name}: robot_state_publisher, joint sliders and RViz.\n\n    \
             ros2 launch {package} view.launch.py\n",
            package = super::package_name(robot)
        ),
        &[
            "from launch import LaunchDescription",
            "from launch.actions import DeclareLaunchArgument",
            "from launch.conditions import IfCondition, UnlessCondition",
            "from launch.substitutions import Command, FindExecutable, LaunchConfiguration, PathJoinSubstitution",
            "from launch_ros.actions import Node",
            "from launch_ros.parameter_descriptions import ParameterValue",
            "from launch_ros.substitutions import FindPackageShare",
        ],
    );
    let _ = write!(
        out,
        r#"

def generate_launch_description():
    share = FindPackageShare({package})
    gui = LaunchConfiguration("gui")
    robot_description = {xacro}
    return LaunchDescription(
        [
            DeclareLaunchArgument(
                "gui",
                default_value="true",
                description="joint sliders in a window (joint_state_publisher_gui); false: all joints at zero",
            ),
            Node(
                package="robot_state_publisher",
                executable="robot_state_publisher",
                output="both",
                parameters=[{{"robot_description": robot_description}}],
            ),
            Node(
                package="joint_state_publisher_gui",
                executable="joint_state_publisher_gui",
                condition=IfCondition(gui),
            ),
            Node(
                package="joint_state_publisher",
                executable="joint_state_publisher",
                condition=UnlessCondition(gui),
            ),
            Node(
                package="rviz2",
                executable="rviz2",
                output="log",
                arguments=["-d", {rviz}],
            ),
        ]
    )
"#,
        package = py(&super::package_name(robot)),
        xacro = xacro_command(robot, &[]),
        rviz = installed("rviz", &format!("{name}.rviz")),
    );
    out
}

/// `bringup.launch.py`.
pub(super) fn bringup(robot: &Robot, defaults: &LaunchDefaults) -> Result<String, EmitError> {
    let name = &robot.name;
    let package = super::package_name(robot);
    let declared = controllers::declared(robot);
    let sensor_backends: Vec<&str> = Backend::ALL
        .into_iter()
        .filter(|&b| backs_sensors(robot, b))
        .map(Backend::name)
        .collect();
    let mut out = preamble(
        robot,
        &format!(
            "Bring {name} up under ros2_control on the backend the args select.\n\n    \
             ros2 launch {package} bringup.launch.py use_mock_hardware:=true\n\n\
             sim_mujoco:=true runs MuJoCo (moveit/mujoco_ros2_control's node) and wins over\n\
             use_topic_hardware:=true (the topic backend), which wins over use_mock_hardware:=true\n\
             (the mock); with none set, the real hardware. The other args are the URDF's\n\
             launch-time facts. Spawns the joint state broadcaster, the sensor broadcasters where\n\
             the backend has the sensors, the trajectory controllers (active) and the forward command\n\
             controllers (inactive, to switch to).\n"
        ),
        &[
            "from launch import LaunchDescription",
            "from launch.actions import DeclareLaunchArgument",
            "from launch.conditions import IfCondition, UnlessCondition",
            "from launch.substitutions import (\n    Command,\n    FindExecutable,\n    \
             LaunchConfiguration,\n    PathJoinSubstitution,\n    PythonExpression,\n)",
            "from launch_ros.actions import Node",
            "from launch_ros.parameter_descriptions import ParameterValue",
            "from launch_ros.substitutions import FindPackageShare",
        ],
    );

    out.push_str(&format!(
        "\n# The controllers spawned below, with the type config/{name}.controllers.yaml gives each\n\
         # (the package's tests check that they agree).\nCONTROLLER_TYPES = {{\n"
    ));
    for controller in &declared {
        let _ = writeln!(
            out,
            "    {}: {},",
            py(&controller.name),
            py(controller.plugin)
        );
    }
    out.push_str("}\n\n\ndef generate_launch_description():\n");
    let _ = writeln!(out, "    share = FindPackageShare({})", py(&package));
    let _ = writeln!(
        out,
        "    controllers = {}",
        installed("config", &format!("{name}.controllers.yaml"))
    );

    // The declarations: the switches, then the `.urdf.xacro`'s launch-time args, same defaults.
    let switches = [
        (SIM_MUJOCO_ARG, "MuJoCo (wins over the other switches)"),
        (
            USE_TOPIC_HARDWARE_ARG,
            "the topic backend, JointStateTopicSystem (wins over use_mock_hardware)",
        ),
        (
            USE_MOCK_HARDWARE_ARG,
            "the mock, mock_components/GenericSystem; with no switch set, the real hardware",
        ),
    ];
    let mut args: Vec<(String, String, String)> = switches
        .iter()
        .map(|(n, d)| (n.to_string(), "false".to_string(), d.to_string()))
        .collect();
    args.extend(
        launch_args::args(robot, defaults)
            .into_iter()
            .map(|a| (a.name.clone(), a.default, describe(robot, &a.name))),
    );
    out.push_str("    arguments = [\n");
    for (arg, default, description) in &args {
        let _ = writeln!(
            out,
            "        DeclareLaunchArgument(\n            {},\n            default_value={},\n            description={},\n        ),",
            py(arg),
            py(default),
            py(description)
        );
    }
    out.push_str("    ]\n");
    for switch in [
        SIM_MUJOCO_ARG,
        USE_TOPIC_HARDWARE_ARG,
        USE_MOCK_HARDWARE_ARG,
    ] {
        let _ = writeln!(out, "    {switch} = LaunchConfiguration({})", py(switch));
    }
    let xacro_args: Vec<(String, String)> = args
        .iter()
        .map(|(arg, _, _)| {
            let value = if [
                SIM_MUJOCO_ARG,
                USE_TOPIC_HARDWARE_ARG,
                USE_MOCK_HARDWARE_ARG,
            ]
            .contains(&arg.as_str())
            {
                arg.clone()
            } else {
                format!("LaunchConfiguration({})", py(arg))
            };
            (arg.clone(), value)
        })
        .collect();
    let _ = writeln!(
        out,
        "    robot_description = {}",
        xacro_command(robot, &xacro_args)
    );
    let _ = write!(
        out,
        r#"
    robot_state_publisher = Node(
        package="robot_state_publisher",
        executable="robot_state_publisher",
        output="both",
        parameters=[{{"robot_description": robot_description}}],
    )
    # Every backend but MuJoCo: the controller manager, which takes the description from
    # robot_state_publisher's topic.
    control_node = Node(
        package="controller_manager",
        executable="ros2_control_node",
        output="both",
        parameters=[controllers],
        remappings=[("~/robot_description", "/robot_description")],
        condition=UnlessCondition(sim_mujoco),
    )
    # MuJoCo: moveit/mujoco_ros2_control's node steps the model and runs the controller manager
    # in one process; it reads the model from `mujoco_model_path`.
    mujoco_node = Node(
        package="mujoco_ros2_control",
        executable="mujoco_ros2_control",
        output="both",
        parameters=[
            {{"robot_description": robot_description}},
            controllers,
            {{"mujoco_model_path": {scene}}},
        ],
        condition=IfCondition(sim_mujoco),
    )
"#,
        scene = installed("mjcf", &format!("{name}.scene.xml")),
    );
    if declared.iter().any(|c| c.role == Role::Sensor) {
        out.push_str(
            "    # The backend the URDF selects: sim_mujoco wins over use_topic_hardware, which wins\n    \
             # over use_mock_hardware; real hardware is the fallback (xacro reads true/1 as true).\n    \
             backend = PythonExpression(\n        [\n            \
             \"'mujoco' if '\",\n            sim_mujoco,\n            \
             \"'.lower() in ('true', '1') else 'topic' if '\",\n            use_topic_hardware,\n            \
             \"'.lower() in ('true', '1') else 'mock' if '\",\n            use_mock_hardware,\n            \
             \"'.lower() in ('true', '1') else 'real'\",\n        ]\n    )\n",
        );
        let _ = writeln!(
            out,
            "    # The sensors are in the URDF on these backends only; elsewhere their broadcasters\n    \
             # find no sensor and fail to configure.\n    \
             has_sensors = PythonExpression([\"'\", backend, \"' in ({})\"])",
            sensor_backends
                .iter()
                .map(|b| format!("'{b}', "))
                .collect::<String>()
                .trim_end()
        );
    }
    out.push_str("    spawners = [\n");
    for controller in &declared {
        let mut arguments = vec![py(&controller.name)];
        if controller.role == Role::Forward {
            arguments.push(py("--inactive"));
        }
        let condition = match controller.role {
            Role::Sensor => "\n            condition=IfCondition(has_sensors),",
            _ => "",
        };
        let _ = writeln!(
            out,
            "        Node(\n            package=\"controller_manager\",\n            \
             executable=\"spawner\",\n            arguments=[{}],{condition}\n        ),",
            arguments.join(", ")
        );
    }
    out.push_str(
        "    ]\n    return LaunchDescription(\n        \
         arguments + [robot_state_publisher, control_node, mujoco_node] + spawners\n    )\n",
    );
    Ok(out)
}
