//! The `<ros2_control>` blocks of the URDF, as tree nodes (`docs/backend-selection.md`).
//!
//! Each `<joint>` and `<sensor>` element is written once, in a parameterless macro: one macro
//! per bus holding that bus's joints, one per sensor (IMU, force/torque, contact). Both layouts
//! call them:
//!
//! * MuJoCo and mock share one `<Robot>Hardware` system block, whose plugin is switched on
//!   `sim_mujoco`, as are the `<sensor>`s (only MuJoCo can back them, or the mock with
//!   `mock_sensor_commands`);
//! * the topic backend gets a `<Robot>Hardware` system block of its own, plugin
//!   JointStateTopicSystem with upstream's default params, every joint and no sensor (upstream
//!   has none);
//! * real hardware gets one RobstrideSystem block per bus and a `type="sensor"` block per sensor.
//!
//! The layout switch nests the plain args (`sim_mujoco` wins over `use_topic_hardware`, which
//! wins over `use_mock_hardware`; real is the fallback) rather than writing a `${…}`
//! expression: xacro's coercion of arg strings in expressions is a trap.
//! Joint elements are backend-agnostic: every backend ignores the params it does not know.

use std::collections::HashSet;

use heck::ToSnakeCase;

use super::EmitError;
use super::format::number;
use super::xml::{Element, Node};
use robot_model::fourbar::FourBar;
use robot_model::interface::InterfaceKind;
use robot_model::model::{Bus, Interface, Joint, Robot, Sensor, SensorKind};
use robot_runtime::backend::{
    Backend, SIM_MUJOCO_ARG, USE_MOCK_HARDWARE_ARG, USE_TOPIC_HARDWARE_ARG, topic_defaults,
};

/// The macro definitions and the layout switch, to be placed in `<robot>` after the joints.
pub(crate) fn nodes(robot: &Robot) -> Result<Vec<Node>, EmitError> {
    let mut names = MacroNames::default();
    let mut out = Vec::new();
    let groups = joint_groups(robot, &mut names, &mut out)?;
    let sensors = sensor_macros(robot, &mut names, &mut out);
    let combined = names.unique(format!("{}_hardware", robot.name));
    out.push(Node::Macro {
        name: combined.clone(),
        children: vec![combined_block(robot, &groups, &sensors)],
    });
    let topic = names.unique(format!("{}_topic_hardware", robot.name));
    out.push(Node::Macro {
        name: topic.clone(),
        children: vec![topic_block(robot, &groups)],
    });
    out.push(Node::when(SIM_MUJOCO_ARG, true, vec![call(&combined)]));
    out.push(Node::when(
        SIM_MUJOCO_ARG,
        false,
        vec![
            Node::when(USE_TOPIC_HARDWARE_ARG, true, vec![call(&topic)]),
            Node::when(
                USE_TOPIC_HARDWARE_ARG,
                false,
                vec![
                    Node::when(USE_MOCK_HARDWARE_ARG, true, vec![call(&combined)]),
                    Node::when(
                        USE_MOCK_HARDWARE_ARG,
                        false,
                        real_blocks(robot, &groups, &sensors),
                    ),
                ],
            ),
        ],
    ));
    Ok(out)
}

/// A macro holding the `<joint>` elements of one bus (`None`: of no declared bus).
struct Group<'a> {
    bus: Option<&'a Bus>,
    macro_name: String,
}

/// One joint macro per bus with joints, in bus order. A controlled joint no declared bus owns
/// (only in an invalid robot) still reaches the combined block, through a group of its own.
fn joint_groups<'a>(
    robot: &'a Robot,
    names: &mut MacroNames,
    out: &mut Vec<Node>,
) -> Result<Vec<Group<'a>>, EmitError> {
    let mut groups = Vec::new();
    let orphans: Vec<&Joint> = robot
        .controlled_joints()
        .filter(|j| robot.bus_of(j).is_none_or(|bus| robot.bus(bus).is_none()))
        .collect();
    let buses = robot.buses.iter().map(|bus| {
        (
            Some(bus),
            robot.joints_on_bus(&bus.name).collect::<Vec<_>>(),
        )
    });
    for (bus, joints) in buses.chain([(None, orphans)]) {
        if joints.is_empty() {
            continue;
        }
        let wanted = bus.map_or("other", |b| b.name.as_ref());
        let macro_name = names.unique(format!("{}_{wanted}_joints", robot.name));
        let children = joints
            .iter()
            .map(|j| joint_element(j))
            .collect::<Result<_, _>>()?;
        out.push(Node::Macro {
            name: macro_name.clone(),
            children,
        });
        groups.push(Group { bus, macro_name });
    }
    Ok(groups)
}

/// One macro per sensor holding its `<sensor>` element.
fn sensor_macros<'a>(
    robot: &'a Robot,
    names: &mut MacroNames,
    out: &mut Vec<Node>,
) -> Vec<(&'a Sensor, String)> {
    (robot.sensors.iter())
        .map(|sensor| {
            let name = names.unique(format!("{}_{}_sensor", robot.name, sensor.name));
            out.push(Node::Macro {
                name: name.clone(),
                children: vec![sensor_element(sensor)],
            });
            (sensor, name)
        })
        .collect()
}

/// Whether `backend`'s blocks hold the robot's sensors (when it has any): real hardware and
/// MuJoCo do; the mock only with `mock_sensor_commands` ([`combined_block`]); the topic backend
/// never. A launch file spawns the sensor broadcasters on these backends only: elsewhere they
/// cannot find their sensors and fail.
pub(crate) fn backs_sensors(robot: &Robot, backend: Backend) -> bool {
    match backend {
        Backend::Real | Backend::Mujoco => true,
        Backend::Mock => robot.mock.mock_sensor_commands,
        Backend::Topic => false,
    }
}

/// MuJoCo and mock: one block of every joint; the plugin and the sensors depend on `sim_mujoco`
/// (the mock carries the sensors only with `mock_sensor_commands`).
fn combined_block(robot: &Robot, groups: &[Group<'_>], sensors: &[(&Sensor, String)]) -> Node {
    let mock = robot.mock;
    let mock_params = [
        ("calculate_dynamics", boolean(mock.calculate_dynamics)),
        (
            "position_state_following_offset",
            number(mock.position_state_following_offset),
        ),
        ("mock_sensor_commands", boolean(mock.mock_sensor_commands)),
        ("disable_commands", boolean(mock.disable_commands)),
    ];
    let hardware = Element::new("hardware")
        .child(Node::when(
            SIM_MUJOCO_ARG,
            true,
            vec![plugin(Backend::Mujoco.plugin())],
        ))
        .child(Node::when(
            SIM_MUJOCO_ARG,
            false,
            params_after(plugin(Backend::Mock.plugin()), mock_params),
        ));
    let mut body: Vec<Node> = groups.iter().map(|g| call(&g.macro_name)).collect();
    if !sensors.is_empty() {
        let sensors: Vec<Node> = sensors.iter().map(|(_, m)| call(m)).collect();
        if mock.mock_sensor_commands {
            // The mock backs the sensors too: their states come from injected sensor commands.
            body.extend(sensors);
        } else {
            // Only MuJoCo can back a sensor; the mock block has none.
            body.push(Node::when(SIM_MUJOCO_ARG, true, sensors));
        }
    }
    ros2_control(
        format!("{}Hardware", robot.type_name),
        "system",
        hardware,
        body,
    )
}

/// The topic backend: one block of every joint, JointStateTopicSystem with upstream's default
/// params (the runtime configuration changes them for `robot run`), no sensors.
fn topic_block(robot: &Robot, groups: &[Group<'_>]) -> Node {
    // The topics are launch-time facts (the simulator's or driver's names); the rest is fixed.
    let params = [
        (
            "trigger_joint_command_threshold",
            number(topic_defaults::TRIGGER_JOINT_COMMAND_THRESHOLD),
        ),
        (
            "sum_wrapped_joint_states",
            boolean(topic_defaults::SUM_WRAPPED_JOINT_STATES),
        ),
    ];
    let topics = launch_args::topic_args()
        .into_iter()
        .map(|(param, arg)| arg.param(param));
    let hardware = Element::new("hardware")
        .child(plugin(Backend::Topic.plugin()))
        .children(topics)
        .children(params.into_iter().map(|(name, value)| param(name, value)));
    ros2_control(
        format!("{}Hardware", robot.type_name),
        "system",
        hardware,
        groups.iter().map(|g| call(&g.macro_name)).collect(),
    )
}

/// Real hardware: a RobstrideSystem per bus, then each sensor with its own plugin.
fn real_blocks(robot: &Robot, groups: &[Group<'_>], sensors: &[(&Sensor, String)]) -> Vec<Node> {
    let mut blocks = Vec::new();
    for group in groups {
        let Some(bus) = group.bus else { continue };
        let params = [
            ("bus", bus.name.to_string()),
            ("bitrate", bus.kind.bitrate().to_string()),
        ];
        // The devices are launch-time facts: the OS interface and the calibration file.
        let hardware = Element::new("hardware")
            .children(params_after(plugin(Backend::Real.plugin()), params))
            .child(
                launch_args::can_interface_arg(robot, bus).param(launch_args::CAN_INTERFACE_PARAM),
            )
            .child(
                launch_args::calibration_file_arg()
                    .param_unless_empty(launch_args::CALIBRATION_FILE_PARAM),
            );
        let name = robot.bus_block_name(&bus.name);
        blocks.push(ros2_control(
            name,
            "system",
            hardware,
            vec![call(&group.macro_name)],
        ));
    }
    for (sensor, macro_name) in sensors {
        // One IMU keeps the customary `<Robot>IMU`; every other sensor gets a block of its own
        // name, as each has its own driver.
        let name = robot.sensor_block_name(&sensor.name);
        let params = sensor
            .params
            .iter()
            .map(|p| (p.name.as_ref(), p.value.to_string()));
        let mut hardware =
            Element::new("hardware").children(params_after(plugin(&sensor.plugin), params));
        if let Some(arg) = launch_args::port_arg(robot, sensor) {
            hardware = hardware.child(arg.param(launch_args::PORT_PARAM));
        }
        blocks.push(ros2_control(
            name,
            "sensor",
            hardware,
            vec![call(macro_name)],
        ));
    }
    blocks
}

/// Macro names become tag names: snake case keeps them plain XML names, and a suffix keeps two
/// buses whose names differ only in punctuation apart.
#[derive(Default)]
struct MacroNames(HashSet<String>);

impl MacroNames {
    fn unique(&mut self, wanted: String) -> String {
        let base = wanted.to_snake_case();
        let mut name = base.clone();
        let mut n = 2;
        while !self.0.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

/// One `<joint>`: interfaces in declaration order, then the hardware params.
fn joint_element(joint: &Joint) -> Result<Node, EmitError> {
    let mut element = Element::new("joint").attr("name", launch_args::prefixed(&joint.name));
    let limits = joint.limits.as_ref();
    let bounds = limits
        .and_then(|l| l.lower.zip(l.upper))
        .filter(|_| joint.kind.is_bounded());
    if joint.mimic.is_some() {
        // ros2_control exports only the states of a mimic joint.
        element = element.attr("mimic", "true");
    } else {
        for interface in joint.command_interfaces.iter() {
            // Position commands carry the URDF limits, as the Lucy generator does.
            let range = bounds.filter(|_| interface.kind == InterfaceKind::Position);
            element = element.child(interface_element("command_interface", interface, range));
        }
    }
    for interface in joint.state_interfaces.iter() {
        element = element.child(interface_element("state_interface", interface, None));
    }
    let mut params: Vec<(&str, String)> = Vec::new();
    if let Some(actuator) = &joint.actuator {
        params.push(("bus", actuator.bus.to_string()));
        params.push(("can_id", actuator.can_id.to_string()));
        params.push(("model", actuator.model.plugin_name().to_string()));
        params.push(("direction", i8::from(actuator.direction).to_string()));
        params.push(("zero_offset", number(actuator.zero_offset)));
        if let Some((lower, upper)) = bounds {
            params.push(("lower_limit", number(lower)));
            params.push(("upper_limit", number(upper)));
        }
        if let Some(limits) = limits {
            params.push(("velocity_limit", number(limits.velocity)));
            params.push(("torque_limit", number(limits.effort)));
            if let Some(current) = limits.current {
                params.push(("current_limit", number(current)));
            }
        }
        if let Some(four_bar) = &actuator.four_bar {
            params.extend(four_bar_params(four_bar)?);
        }
        if let Some(lead) = actuator.lead {
            params.push(("lead", number(lead)));
        }
    }
    let mut element = element.children(params.into_iter().map(|(name, value)| param(name, value)));
    if let Some(mimic) = &joint.mimic {
        // What MujocoSystem reads; the URDF `<mimic>` element says the same.
        element = element
            .child(
                Element::new("param")
                    .attr("name", "mimic")
                    .children(launch_args::prefixed_text(&mimic.joint)),
            )
            .child(param("multiplier", number(mimic.multiplier)));
    }
    Ok(element.into())
}

fn four_bar_params(four_bar: &FourBar) -> Result<[(&'static str, String); 8], EmitError> {
    // The branch is spelt as in `<robot>.json`.
    let branch = match serde_json::to_value(four_bar.branch) {
        Ok(serde_json::Value::String(text)) => text,
        Ok(other) => other.to_string(),
        Err(e) => {
            return Err(EmitError::Serialize {
                what: "four-bar branch",
                message: e.to_string(),
            });
        }
    };
    Ok([
        ("four_bar_ground_x", number(four_bar.ground[0])),
        ("four_bar_ground_z", number(four_bar.ground[1])),
        ("four_bar_input_crank", number(four_bar.input_crank)),
        ("four_bar_coupler", number(four_bar.coupler)),
        ("four_bar_output_crank", number(four_bar.output_crank)),
        ("four_bar_alpha_zero", number(four_bar.alpha_zero)),
        ("four_bar_sign", number(four_bar.sign)),
        ("four_bar_branch", branch),
    ])
}

fn interface_element(tag: &'static str, interface: &Interface, range: Option<(f64, f64)>) -> Node {
    let mut element = Element::new(tag).attr("name", interface.kind.name());
    if let Some((min, max)) = range {
        element = element
            .child(param("min", number(min)))
            .child(param("max", number(max)));
    }
    if let Some(initial) = interface.initial_value {
        element = element.child(param("initial_value", number(initial)));
    }
    element.into()
}

/// A sensor's state interfaces and its frame. A force/torque sensor also says which MJCF sensors
/// back it (`<name>_force`, `<name>_torque`), in the params mujoco_ros2_control reads.
fn sensor_element(sensor: &Sensor) -> Node {
    let element = Element::new("sensor")
        .attr("name", launch_args::prefixed(&sensor.name))
        .children(
            (sensor.state_interfaces().iter())
                .map(|name| Element::new("state_interface").attr("name", *name)),
        )
        .child(
            Element::new("param")
                .attr("name", "frame_id")
                .children(launch_args::prefixed_text(&sensor.link)),
        );
    match sensor.kind {
        SensorKind::ForceTorque => element
            .child(param("mujoco_type", "fts".to_string()))
            .child(param("mujoco_sensor_name", sensor.name.to_string()))
            .into(),
        SensorKind::Imu | SensorKind::Contact => element.into(),
    }
}

fn ros2_control(name: String, kind: &'static str, hardware: Element, body: Vec<Node>) -> Node {
    Element::new("ros2_control")
        .attr("name", launch_args::prefixed(&name))
        .attr("type", kind)
        .child(hardware)
        .children(body)
        .into()
}

fn plugin(name: &str) -> Node {
    Element::new("plugin").text(name).into()
}

/// The plugin, then its hardware params.
fn params_after<'a>(
    plugin: Node,
    params: impl IntoIterator<Item = (&'a str, String)>,
) -> Vec<Node> {
    std::iter::once(plugin)
        .chain(params.into_iter().map(|(name, value)| param(name, value)))
        .collect()
}

fn param(name: &str, value: String) -> Node {
    Element::new("param").attr("name", name).text(value).into()
}

fn call(name: &str) -> Node {
    Node::Call {
        name: name.to_string(),
    }
}

fn boolean(value: bool) -> String {
    if value { "true" } else { "false" }.to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

pub mod launch_args;
