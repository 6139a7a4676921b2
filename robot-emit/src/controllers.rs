//! `<robot>.controllers.yaml`: the controller_manager parameters for the robot's interfaces.
//!
//! * `joint_state_broadcaster`, always;
//! * `imu_sensor_broadcaster` for the IMU (`<sensor>_broadcaster` each when there are several);
//! * a `force_torque_sensor_broadcaster`, `<sensor>_broadcaster`, per force/torque sensor
//!   (ros2_controllers has no broadcaster for a contact sensor: controllers read its two states);
//! * the trajectory and forward command controllers of [`robot_model::controller_plan`], which claim
//!   every command interface of every actuated joint, none twice.
//!
//! Only parameters that current ros2_controllers still reads are written (no `state_publish_rate`,
//! no `open_loop_control`); a test checks every emitted file against the controllers' own
//! parameter definitions.

use serde_yaml_ng::{Mapping, Value};

use super::EmitError;
use super::format::header_comment;
use robot_model::controller_plan::{self, ControllerKind};
use robot_model::interface::InterfaceKind;
use robot_model::model::{Robot, SensorKind};

const JOINT_STATE_BROADCASTER: &str = "joint_state_broadcaster/JointStateBroadcaster";
const IMU_SENSOR_BROADCASTER: &str = "imu_sensor_broadcaster/IMUSensorBroadcaster";
const FORCE_TORQUE_SENSOR_BROADCASTER: &str =
    "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster";
const JOINT_TRAJECTORY_CONTROLLER: &str = "joint_trajectory_controller/JointTrajectoryController";
const FORWARD_COMMAND_CONTROLLER: &str = "forward_command_controller/ForwardCommandController";

/// The controllers of `robot`; `prefix` goes before every joint, sensor and frame name, as the
/// `.urdf.xacro`'s `prefix` arg puts it before them there (the controllers keep their names:
/// a namespace tells two robots' controller managers apart).
pub(crate) fn yaml(robot: &Robot, prefix: &str) -> Result<String, EmitError> {
    let prefixed = |name: &str| format!("{prefix}{name}");
    let mut manager = map([("update_rate", robot.update_rate.into())]);
    let mut controllers: Vec<(String, Mapping)> = Vec::new();
    for broadcaster in controller_plan::broadcasters(robot) {
        let plugin = broadcaster_plugin(&broadcaster);
        manager.insert(broadcaster.name.as_str().into(), typed(plugin));
        if let Some(sensor) = broadcaster.sensor {
            let params = map([
                ("sensor_name", prefixed(&sensor.name).into()),
                ("frame_id", prefixed(&sensor.link).into()),
            ]);
            controllers.push((broadcaster.name, params));
        }
    }
    for controller in controller_plan::controllers(robot) {
        let joints: Value = controller.joints.iter().map(|j| prefixed(j)).collect();
        let (plugin, params) = match controller.kind {
            ControllerKind::Trajectory { command, state } => (
                JOINT_TRAJECTORY_CONTROLLER,
                map([
                    ("joints", joints),
                    ("command_interfaces", interface_names(command)),
                    ("state_interfaces", interface_names(state)),
                    ("allow_partial_joints_goal", false.into()),
                    ("constraints", constraints(&controller.joints, &prefixed)),
                ]),
            ),
            ControllerKind::Forward { interface } => (
                FORWARD_COMMAND_CONTROLLER,
                map([
                    ("joints", joints),
                    ("interface_name", interface.name().into()),
                ]),
            ),
        };
        manager.insert(controller.name.as_str().into(), typed(plugin));
        controllers.push((controller.name, params));
    }

    let mut document = map([("controller_manager", ros_parameters(manager))]);
    for (name, params) in controllers {
        document.insert(name.into(), ros_parameters(params));
    }
    let text = serde_yaml_ng::to_string(&document).map_err(|e| EmitError::Serialize {
        what: "controllers YAML",
        message: e.to_string(),
    })?;
    Ok(format!("# {}\n{text}", header_comment(robot)))
}

/// The plugin of a broadcaster of the plan.
fn broadcaster_plugin(broadcaster: &controller_plan::Broadcaster<'_>) -> &'static str {
    match broadcaster.sensor.map(|s| s.kind) {
        None => JOINT_STATE_BROADCASTER,
        Some(SensorKind::ForceTorque) => FORCE_TORQUE_SENSOR_BROADCASTER,
        // An IMU: contact sensors have no broadcaster.
        Some(_) => IMU_SENSOR_BROADCASTER,
    }
}

/// One controller of [`yaml`]: its name and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Declared {
    pub(crate) name: String,
    pub(crate) plugin: &'static str,
    /// What it claims or reads.
    pub(crate) role: Role,
}

/// What a controller works on, which says when a launch file may start it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Every joint's states: always.
    JointStates,
    /// A sensor (an IMU, a force/torque sensor): only on a backend whose blocks hold it.
    Sensor,
    /// A joint trajectory controller: started active.
    Trajectory,
    /// A forward command controller of one more interface (effort, stiffness, damping): loaded
    /// inactive, for the user to switch to.
    Forward,
}

/// Every controller [`yaml`] declares, in its order.
pub(crate) fn declared(robot: &Robot) -> Vec<Declared> {
    let mut out: Vec<Declared> = controller_plan::broadcasters(robot)
        .into_iter()
        .map(|broadcaster| Declared {
            plugin: broadcaster_plugin(&broadcaster),
            role: match broadcaster.sensor {
                None => Role::JointStates,
                Some(_) => Role::Sensor,
            },
            name: broadcaster.name,
        })
        .collect();
    out.extend(
        controller_plan::controllers(robot)
            .into_iter()
            .map(|c| match c.kind {
                ControllerKind::Trajectory { .. } => Declared {
                    name: c.name,
                    plugin: JOINT_TRAJECTORY_CONTROLLER,
                    role: Role::Trajectory,
                },
                ControllerKind::Forward { .. } => Declared {
                    name: c.name,
                    plugin: FORWARD_COMMAND_CONTROLLER,
                    role: Role::Forward,
                },
            }),
    );
    out
}

/// joint_trajectory_controller's `constraints` at its own defaults, written out so that a ROS
/// user sees (and may set) them: no time limit on reaching the goal, stopped below 0.01 rad/s,
/// no path or goal position tolerance per joint (0 is not checked).
fn constraints(joints: &[&str], prefixed: &dyn Fn(&str) -> String) -> Value {
    let mut constraints = map([
        ("stopped_velocity_tolerance", 0.01.into()),
        ("goal_time", 0.0.into()),
    ]);
    for joint in joints {
        let tolerances = map([("trajectory", 0.0.into()), ("goal", 0.0.into())]);
        constraints.insert(prefixed(joint).into(), Value::Mapping(tolerances));
    }
    Value::Mapping(constraints)
}

fn interface_names(kinds: &[InterfaceKind]) -> Value {
    kinds.iter().map(|k| k.name()).collect()
}

fn map<const N: usize>(entries: [(&str, Value); N]) -> Mapping {
    entries
        .into_iter()
        .map(|(key, value)| (key.into(), value))
        .collect()
}

/// `{type: <plugin>}`, a controller's entry under the controller_manager.
fn typed(plugin: &str) -> Value {
    map([("type", plugin.into())]).into()
}

fn ros_parameters(params: Mapping) -> Value {
    map([("ros__parameters", params.into())]).into()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use robot_model::fixture;
    use robot_model::interface::InterfaceKind::Position;
    use robot_model::model::{Interface, Joint};

    fn parse(robot: &Robot) -> Value {
        let text = yaml(robot, "").unwrap();
        assert!(text.starts_with("# GENERATED by robot-core"), "{text}");
        serde_yaml_ng::from_str(&text).unwrap()
    }

    /// The keys of a mapping, in order.
    fn keys(value: &Value) -> Vec<&str> {
        value
            .as_mapping()
            .unwrap()
            .keys()
            .map(|k| k.as_str().unwrap())
            .collect()
    }

    fn strings(value: &Value) -> Vec<&str> {
        value
            .as_sequence()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect()
    }

    fn params<'a>(doc: &'a Value, controller: &str) -> &'a Value {
        &doc[controller]["ros__parameters"]
    }

    fn set_interfaces(joint: &mut Joint, commands: &[InterfaceKind], states: &[InterfaceKind]) {
        let list = |kinds: &[InterfaceKind]| {
            kinds
                .iter()
                .map(|&kind| Interface {
                    kind,
                    initial_value: None,
                })
                .collect()
        };
        joint.command_interfaces = list(commands);
        joint.state_interfaces = list(states);
    }

    /// A fixed-base arm: position commands, position state, no IMU.
    fn position_arm() -> Robot {
        let mut robot = fixture::robot();
        robot.sensors = Vec::new().into();
        for joint in robot
            .joints
            .to_mut()
            .iter_mut()
            .filter(|j| j.actuator.is_some())
        {
            set_interfaces(joint, &[Position], &[Position]);
        }
        robot
    }

    #[test]
    fn the_plan_is_written_in_order_with_its_plugins_and_parameters() {
        let doc = parse(&fixture::robot());
        let controllers = [
            "front_trajectory_controller",
            "front_position_controller",
            "front_velocity_controller",
            "front_effort_controller",
            "front_stiffness_controller",
            "front_damping_controller",
            "rear_trajectory_controller",
            "rear_position_controller",
        ];
        let mut expected = vec!["controller_manager", "imu_sensor_broadcaster"];
        expected.extend(controllers);
        assert_eq!(keys(&doc), expected);
        let manager = params(&doc, "controller_manager");
        assert_eq!(manager["update_rate"].as_u64(), Some(500));
        let plugins: Vec<(&str, &str)> = keys(manager)[1..]
            .iter()
            .map(|&k| (k, manager[k]["type"].as_str().unwrap()))
            .collect();
        assert_eq!(
            plugins[..2],
            [
                ("joint_state_broadcaster", JOINT_STATE_BROADCASTER),
                ("imu_sensor_broadcaster", IMU_SENSOR_BROADCASTER),
            ]
        );
        for (&(name, plugin), expected) in plugins[2..].iter().zip(controllers) {
            assert_eq!(name, expected);
            let want = if name.ends_with("_trajectory_controller") {
                JOINT_TRAJECTORY_CONTROLLER
            } else {
                FORWARD_COMMAND_CONTROLLER
            };
            assert_eq!(plugin, want, "{name}");
        }
        let imu = params(&doc, "imu_sensor_broadcaster");
        assert_eq!(
            (imu["sensor_name"].as_str(), imu["frame_id"].as_str()),
            (Some("base_imu"), Some("imu_link"))
        );
        let jtc = params(&doc, "front_trajectory_controller");
        assert_eq!(
            keys(jtc),
            [
                "joints",
                "command_interfaces",
                "state_interfaces",
                "allow_partial_joints_goal",
                "constraints"
            ]
        );
        assert_eq!(strings(&jtc["joints"]), ["ankle"]);
        assert_eq!(
            strings(&jtc["command_interfaces"]),
            ["position", "velocity"]
        );
        assert_eq!(strings(&jtc["state_interfaces"]), ["position", "velocity"]);
        assert_eq!(jtc["allow_partial_joints_goal"].as_bool(), Some(false));
        let constraints = &jtc["constraints"];
        assert_eq!(
            keys(constraints),
            ["stopped_velocity_tolerance", "goal_time", "ankle"]
        );
        assert_eq!(
            constraints["stopped_velocity_tolerance"].as_f64(),
            Some(0.01)
        );
        assert_eq!(constraints["ankle"]["goal"].as_f64(), Some(0.0));
        let wheels = params(&doc, "front_velocity_controller");
        assert_eq!(keys(wheels), ["joints", "interface_name"]);
        assert_eq!(strings(&wheels["joints"]), ["wheel"]);
        assert_eq!(wheels["interface_name"].as_str(), Some("velocity"));
    }

    #[test]
    fn a_position_only_arm_gets_position_trajectory_controllers() {
        let doc = parse(&position_arm());
        assert_eq!(
            keys(&doc),
            [
                "controller_manager",
                "front_trajectory_controller",
                "front_position_controller",
                "rear_trajectory_controller",
                "rear_position_controller"
            ]
        );
        assert_eq!(
            keys(params(&doc, "controller_manager")),
            [
                "update_rate",
                "joint_state_broadcaster",
                "front_trajectory_controller",
                "front_position_controller",
                "rear_trajectory_controller",
                "rear_position_controller"
            ]
        );
        let jtc = params(&doc, "front_trajectory_controller");
        assert_eq!(strings(&jtc["joints"]), ["ankle", "wheel"]);
        assert_eq!(strings(&jtc["command_interfaces"]), ["position"]);
        assert_eq!(strings(&jtc["state_interfaces"]), ["position"]);
    }

    #[test]
    fn without_an_imu_there_is_no_imu_broadcaster() {
        let mut robot = fixture::robot();
        robot.sensors = Vec::new().into();
        let doc = parse(&robot);
        assert!(doc.get("imu_sensor_broadcaster").is_none());
        assert!(
            params(&doc, "controller_manager")
                .get("imu_sensor_broadcaster")
                .is_none()
        );
    }

    #[test]
    fn several_imus_get_a_broadcaster_each() {
        let mut robot = fixture::robot();
        let mut second = robot.sensors[0].clone();
        second.name = "torso_imu".into();
        robot.sensors.to_mut().push(second);
        let doc = parse(&robot);
        for (broadcaster, sensor) in [
            ("base_imu_broadcaster", "base_imu"),
            ("torso_imu_broadcaster", "torso_imu"),
        ] {
            assert_eq!(
                params(&doc, broadcaster)["sensor_name"].as_str(),
                Some(sensor)
            );
        }
    }

    #[test]
    fn a_prefix_goes_before_every_joint_sensor_and_frame_not_the_controllers() {
        let doc: Value =
            serde_yaml_ng::from_str(&yaml(&fixture::robot(), "left_").unwrap()).unwrap();
        let imu = params(&doc, "imu_sensor_broadcaster");
        assert_eq!(
            (imu["sensor_name"].as_str(), imu["frame_id"].as_str()),
            (Some("left_base_imu"), Some("left_imu_link"))
        );
        let manager = &doc["controller_manager"]["ros__parameters"];
        let mut joints = 0;
        for name in keys(manager)
            .into_iter()
            .filter(|k| k.ends_with("_controller"))
        {
            assert!(!name.starts_with("left_"), "{name}");
            for joint in strings(&params(&doc, name)["joints"]) {
                assert!(joint.starts_with("left_"), "{name}: {joint}");
                joints += 1;
            }
        }
        assert!(joints > 0);
    }

    #[test]
    fn output_is_deterministic() {
        let robot = fixture::robot();
        assert_eq!(yaml(&robot, "").unwrap(), yaml(&robot.clone(), "").unwrap());
    }
}
