//! The launch-time facts of the real devices, which a definition cannot know (device names are
//! set at launch: `docs/runtime-configuration.md`): each bus's OS interface, the calibration
//! file, each IMU's serial port, and the topic backend's topics. The `.urdf.xacro` takes each as an
//! `<xacro:arg>` with a default and feeds it to its `<param>`, as lite_description's
//! `lite_biped.ros2_control.xacro` does; the expanded URDFs carry the defaults.

use std::collections::BTreeMap;

use heck::ToSnakeCase;

use crate::xml::{Element, Node, Value};
use robot_model::model::{Bus, Robot, Sensor, SensorKind};
use robot_runtime::backend::topic_defaults;

/// The RobStride block's param naming the bus's OS interface (lite_description's name).
pub(crate) const CAN_INTERFACE_PARAM: &str = "can_interface";
/// The RobStride block's param naming the calibration file (lite_description's name).
pub(crate) const CALIBRATION_FILE_PARAM: &str = "calibration_file";
/// The IMU block's param naming its serial port (lite_description's name).
pub(crate) const PORT_PARAM: &str = "port";

/// The arg put before every link, joint, sensor and `<ros2_control>` name, as the UR and
/// ros2_control_demos descriptions do, so two robots can share one graph; default empty.
pub(crate) const PREFIX_ARG: &str = "prefix";

/// `name` with the prefix before it, as an attribute value (`$(arg prefix)pelvis`).
pub(crate) fn prefixed(name: &str) -> Value {
    Value::ArgThen {
        arg: PREFIX_ARG.to_string(),
        text: name.to_string(),
    }
}

/// `name` with the prefix before it, as text content (a `<param>` naming a joint or link).
pub(crate) fn prefixed_text(name: &str) -> [Node; 2] {
    [
        Node::ArgText {
            name: PREFIX_ARG.to_string(),
        },
        Node::Text(name.to_string()),
    ]
}

/// An `<xacro:arg>` and its default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LaunchArg {
    pub(crate) name: String,
    pub(crate) default: String,
}

impl LaunchArg {
    /// `<param name="{param}">$(arg NAME)</param>`.
    pub(crate) fn param(&self, param: &str) -> Node {
        Element::new("param")
            .attr("name", param)
            .child(Node::ArgText {
                name: self.name.clone(),
            })
            .into()
    }

    /// `<param name="PARAM">$(arg NAME)</param>`, left out when the arg is empty: ros2_control's
    /// URDF parser warns of a param with no text, at every launch.
    pub(crate) fn param_unless_empty(&self, param: &str) -> Node {
        Node::IfText {
            name: self.name.clone(),
            children: vec![self.param(param)],
        }
    }

    /// Its declaration, `<xacro:arg name=… default=…/>`.
    fn declaration(self) -> Node {
        Node::TextArg {
            name: self.name,
            default: self.default,
        }
    }
}

/// `can_interface_<bus>`, default `can0`, `can1`, … in the definition's bus order (the order
/// SocketCAN numbers adapters plugged in that order; a runtime configuration names the real
/// ones).
pub(crate) fn can_interface_arg(robot: &Robot, bus: &Bus) -> LaunchArg {
    let index = robot
        .buses
        .iter()
        .position(|b| b.name == bus.name)
        .unwrap_or(0);
    LaunchArg {
        name: format!("can_interface_{}", bus.name.to_snake_case()),
        default: format!("can{index}"),
    }
}

/// `calibration_file`, default empty (no file: the zero offsets of the definition), shared by
/// every RobStride block; its param is left out while it is empty.
pub(crate) fn calibration_file_arg() -> LaunchArg {
    LaunchArg {
        name: CALIBRATION_FILE_PARAM.to_string(),
        default: String::new(),
    }
}

/// The port arg of `sensor`: `imu_port` for a robot's only IMU (lite_description's name),
/// `<sensor>_port` for each of several, defaults `/dev/ttyUSB0`, `/dev/ttyUSB1`, … in sensor
/// order; `None` when the definition gives its block a `port` param of its own (kept as
/// written) or the sensor is not an IMU.
pub(crate) fn port_arg(robot: &Robot, sensor: &Sensor) -> Option<LaunchArg> {
    if sensor.params.iter().any(|p| p.name == PORT_PARAM) {
        return None;
    }
    let imus: Vec<&Sensor> = robot.sensors_of(SensorKind::Imu).map(|(_, s)| s).collect();
    let index = imus.iter().position(|s| s.name == sensor.name)?;
    let name = match imus.len() {
        1 => "imu_port".to_string(),
        _ => format!("{}_port", sensor.name.to_snake_case()),
    };
    Some(LaunchArg {
        name,
        default: format!("/dev/ttyUSB{index}"),
    })
}

/// The topic backend's topics, as (param, arg): the args are named as upstream's params, with
/// upstream's defaults.
pub(crate) fn topic_args() -> [(&'static str, LaunchArg); 2] {
    [
        topic_arg("joint_commands_topic", topic_defaults::JOINT_COMMANDS_TOPIC),
        topic_arg("joint_states_topic", topic_defaults::JOINT_STATES_TOPIC),
    ]
}

fn topic_arg(param: &'static str, default: &str) -> (&'static str, LaunchArg) {
    (
        param,
        LaunchArg {
            name: param.to_string(),
            default: default.to_string(),
        },
    )
}

/// Defaults of the launch args other than the definition's own, as a runtime configuration
/// gives them (`robot emit --config`), so one file serves both the Rust runner and the ROS
/// launch: each bus's OS interface, each IMU's port, the topic backend's topics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LaunchDefaults {
    /// By bus name.
    pub bus_interfaces: BTreeMap<String, String>,
    /// By sensor name.
    pub imu_ports: BTreeMap<String, String>,
    /// `joint_commands_topic`, `joint_states_topic`.
    pub topics: Option<(String, String)>,
    /// The `prefix` arg's default (`robot emit --prefix`); empty when `None`.
    pub prefix: Option<String>,
}

/// A prefix that cannot go before a joint or link name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "prefix `{0}`: expected ASCII letters, digits and `_`, not starting with a digit (it goes before every joint, link and sensor name, which must stay ROS names)"
)]
pub struct PrefixError(pub String);

impl LaunchDefaults {
    /// These defaults with `prefix` as the `prefix` arg's default (and before every name in
    /// `controllers.yaml`).
    pub fn with_prefix(mut self, prefix: &str) -> Result<LaunchDefaults, PrefixError> {
        let valid = !prefix.starts_with(|c: char| c.is_ascii_digit())
            && prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(PrefixError(prefix.to_string()));
        }
        self.prefix = Some(prefix.to_string());
        Ok(self)
    }

    /// The default of every arg, ours where `self` has none.
    fn apply(&self, robot: &Robot, mut arg: LaunchArg) -> LaunchArg {
        let given = robot
            .buses
            .iter()
            .find(|b| can_interface_arg(robot, b).name == arg.name)
            .and_then(|b| self.bus_interfaces.get(b.name.as_ref()))
            .or_else(|| {
                robot
                    .sensors
                    .iter()
                    .find(|s| port_arg(robot, s).is_some_and(|a| a.name == arg.name))
                    .and_then(|s| self.imu_ports.get(s.name.as_ref()))
            })
            .or_else(|| {
                (arg.name == PREFIX_ARG)
                    .then_some(self.prefix.as_ref())
                    .flatten()
            })
            .or_else(|| {
                let (commands, states) = self.topics.as_ref()?;
                match arg.name.as_str() {
                    "joint_commands_topic" => Some(commands),
                    "joint_states_topic" => Some(states),
                    _ => None,
                }
            });
        if let Some(value) = given {
            arg.default = value.clone();
        }
        arg
    }
}

/// Every launch arg's declaration, to be placed before anything that uses them: the prefix,
/// the buses' interfaces (a robot with buses), the calibration file (likewise), the IMUs'
/// ports, the topics; each default from `defaults` where it has one.
pub(crate) fn declarations(robot: &Robot, defaults: &LaunchDefaults) -> Vec<Node> {
    args(robot, defaults)
        .into_iter()
        .map(LaunchArg::declaration)
        .collect()
}

/// Every launch arg of the `.urdf.xacro` but the backend switches, in declaration order, each
/// default from `defaults` where it has one: what a launch file declares and passes on.
pub(crate) fn args(robot: &Robot, defaults: &LaunchDefaults) -> Vec<LaunchArg> {
    let mut args = vec![LaunchArg {
        name: PREFIX_ARG.to_string(),
        default: String::new(),
    }];
    args.extend(robot.buses.iter().map(|bus| can_interface_arg(robot, bus)));
    if !robot.buses.is_empty() {
        args.push(calibration_file_arg());
    }
    args.extend(robot.sensors.iter().filter_map(|s| port_arg(robot, s)));
    args.extend(topic_args().into_iter().map(|(_, arg)| arg));
    args.into_iter()
        .map(|arg| defaults.apply(robot, arg))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_must_keep_names_ros_names() {
        for good in ["", "left_", "arm2_", "_x"] {
            assert!(
                LaunchDefaults::default().with_prefix(good).is_ok(),
                "{good}"
            );
        }
        for bad in ["2arm_", "left-", "a/b", "ü_", "x y"] {
            let error = LaunchDefaults::default().with_prefix(bad).unwrap_err();
            assert!(
                error.to_string().starts_with(&format!("prefix `{bad}`: ")),
                "{error}"
            );
        }
    }
}
