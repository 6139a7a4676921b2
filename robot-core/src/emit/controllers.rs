//! `<robot>.controllers.yaml`: the controller_manager parameters for the robot's interfaces.
//!
//! * `joint_state_broadcaster`, always;
//! * `imu_sensor_broadcaster` for the IMU (`<sensor>_broadcaster` each when there are several);
//! * `joint_trajectory_controller` over the actuated joints, with the richest command and state
//!   interfaces it accepts among those every one of them declares (see [`trajectory_interfaces`]);
//! * `<interface>_controller`, a `forward_command_controller/ForwardCommandController`, for each
//!   other command interface all those joints share (the MIT `effort`, `stiffness`, `damping`), so
//!   every interface can be claimed, and none by two controllers.
//!
//! Mimic joints are in no controller: they have no command interfaces and follow their joint.
//! Only parameters that current ros2_controllers still reads are written (no `state_publish_rate`,
//! no `open_loop_control`).

use serde_yaml_ng::{Mapping, Value};

use super::EmitError;
use super::format::header_comment;
use crate::interface::InterfaceKind::{self, Acceleration, Effort, Position, Velocity};
use crate::model::{Interface, Joint, List, Robot, Sensor, SensorKind};

const JOINT_STATE_BROADCASTER: &str = "joint_state_broadcaster/JointStateBroadcaster";
const IMU_SENSOR_BROADCASTER: &str = "imu_sensor_broadcaster/IMUSensorBroadcaster";
const JOINT_TRAJECTORY_CONTROLLER: &str = "joint_trajectory_controller/JointTrajectoryController";
const FORWARD_COMMAND_CONTROLLER: &str = "forward_command_controller/ForwardCommandController";

/// The command interface sets joint_trajectory_controller accepts, richest first
/// (`validate_jtc_parameters.hpp`): position [velocity [acceleration]], velocity alone, effort alone.
const JTC_COMMANDS: [&[InterfaceKind]; 5] = [
    &[Position, Velocity, Acceleration],
    &[Position, Velocity],
    &[Position],
    &[Velocity],
    &[Effort],
];
/// The state interface sets it accepts, richest first: position [velocity [acceleration]].
const JTC_STATES: [&[InterfaceKind]; 3] = [
    &[Position, Velocity, Acceleration],
    &[Position, Velocity],
    &[Position],
];

pub(crate) fn yaml(robot: &Robot) -> Result<String, EmitError> {
    let joints: Vec<&Joint> = robot
        .actuated_joints()
        .filter(|j| j.mimic.is_none() && !j.command_interfaces.is_empty())
        .collect();
    let commands = shared(&joints, |j| &j.command_interfaces);
    let states = shared(&joints, |j| &j.state_interfaces);
    let trajectory = trajectory_interfaces(&commands, &states);
    let claimed = trajectory.map_or(&[][..], |(command, _)| command);
    let names: Vec<&str> = joints.iter().map(|j| j.name.as_ref()).collect();

    let mut manager = map([("update_rate", robot.update_rate.into())]);
    let mut controllers: Vec<(String, Mapping)> = Vec::new();
    manager.insert(
        "joint_state_broadcaster".into(),
        typed(JOINT_STATE_BROADCASTER),
    );
    let imus: Vec<&Sensor> = robot
        .sensors
        .iter()
        .filter(|s| s.kind == SensorKind::Imu)
        .collect();
    for imu in &imus {
        let name = if imus.len() == 1 {
            "imu_sensor_broadcaster".to_string()
        } else {
            format!("{}_broadcaster", imu.name)
        };
        manager.insert(name.as_str().into(), typed(IMU_SENSOR_BROADCASTER));
        let params = map([
            ("sensor_name", imu.name.as_ref().into()),
            ("frame_id", imu.link.as_ref().into()),
        ]);
        controllers.push((name, params));
    }
    if let Some((command, state)) = trajectory {
        manager.insert(
            "joint_trajectory_controller".into(),
            typed(JOINT_TRAJECTORY_CONTROLLER),
        );
        let params = map([
            ("joints", names.clone().into()),
            ("command_interfaces", interface_names(command)),
            ("state_interfaces", interface_names(state)),
            ("allow_partial_joints_goal", false.into()),
        ]);
        controllers.push(("joint_trajectory_controller".to_string(), params));
    }
    for kind in commands.iter().filter(|k| !claimed.contains(k)) {
        let name = format!("{kind}_controller");
        manager.insert(name.as_str().into(), typed(FORWARD_COMMAND_CONTROLLER));
        let params = map([
            ("joints", names.clone().into()),
            ("interface_name", kind.name().into()),
        ]);
        controllers.push((name, params));
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

/// The interfaces every joint declares, in canonical order ([`InterfaceKind::ALL`]); none for no
/// joints.
fn shared(joints: &[&Joint], list: impl Fn(&Joint) -> &List<Interface>) -> Vec<InterfaceKind> {
    if joints.is_empty() {
        return Vec::new();
    }
    InterfaceKind::ALL
        .into_iter()
        .filter(|&kind| {
            joints
                .iter()
                .all(|j| list(j).iter().any(|i| i.kind == kind))
        })
        .collect()
}

/// The command and state interfaces of joint_trajectory_controller: the first (richest) command
/// set of [`JTC_COMMANDS`] the joints all offer that has a state set of [`JTC_STATES`] to go with
/// it, with the richest such state set. With a velocity command the state must have velocity too
/// (JTC's own rule for velocity or effort alone, and what its velocity feedback needs), and with an
/// effort command position and velocity. `None`: no JTC.
fn trajectory_interfaces(
    commands: &[InterfaceKind],
    states: &[InterfaceKind],
) -> Option<(&'static [InterfaceKind], &'static [InterfaceKind])> {
    let offered = |set: &[InterfaceKind], available: &[InterfaceKind]| {
        set.iter().all(|k| available.contains(k))
    };
    JTC_COMMANDS
        .into_iter()
        .filter(|command| offered(command, commands))
        .find_map(|command| {
            let needs_velocity = command.contains(&Velocity) || command.contains(&Effort);
            let state = JTC_STATES.into_iter().find(|state| {
                offered(state, states) && (!needs_velocity || state.contains(&Velocity))
            })?;
            Some((command, state))
        })
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
    use crate::emit::fixture;

    fn parse(robot: &Robot) -> Value {
        let text = yaml(robot).unwrap();
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

    /// The fixture with the MIT interfaces on every actuated joint, as on lite_biped.
    fn mit_robot() -> Robot {
        let mut robot = fixture::robot();
        for joint in robot
            .joints
            .to_mut()
            .iter_mut()
            .filter(|j| j.actuator.is_some())
        {
            set_interfaces(joint, &fixture::MIT_COMMANDS, &[Position, Velocity, Effort]);
        }
        robot
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
    fn mit_joints_get_a_trajectory_controller_and_forward_controllers() {
        let doc = parse(&mit_robot());
        assert_eq!(
            keys(&doc),
            [
                "controller_manager",
                "imu_sensor_broadcaster",
                "joint_trajectory_controller",
                "effort_controller",
                "stiffness_controller",
                "damping_controller"
            ]
        );
        let manager = params(&doc, "controller_manager");
        assert_eq!(manager["update_rate"].as_u64(), Some(500));
        let plugins: Vec<(&str, &str)> = keys(manager)[1..]
            .iter()
            .map(|&k| (k, manager[k]["type"].as_str().unwrap()))
            .collect();
        assert_eq!(
            plugins,
            [
                ("joint_state_broadcaster", JOINT_STATE_BROADCASTER),
                ("imu_sensor_broadcaster", IMU_SENSOR_BROADCASTER),
                ("joint_trajectory_controller", JOINT_TRAJECTORY_CONTROLLER),
                ("effort_controller", FORWARD_COMMAND_CONTROLLER),
                ("stiffness_controller", FORWARD_COMMAND_CONTROLLER),
                ("damping_controller", FORWARD_COMMAND_CONTROLLER),
            ]
        );
        let imu = params(&doc, "imu_sensor_broadcaster");
        assert_eq!(
            (imu["sensor_name"].as_str(), imu["frame_id"].as_str()),
            (Some("base_imu"), Some("imu_link"))
        );
        let jtc = params(&doc, "joint_trajectory_controller");
        // The mimic joint `follower` is in no controller.
        assert_eq!(strings(&jtc["joints"]), ["ankle", "slider", "wheel"]);
        assert_eq!(
            strings(&jtc["command_interfaces"]),
            ["position", "velocity"]
        );
        assert_eq!(strings(&jtc["state_interfaces"]), ["position", "velocity"]);
        assert_eq!(jtc["allow_partial_joints_goal"].as_bool(), Some(false));
        for interface in ["effort", "stiffness", "damping"] {
            let forward = params(&doc, &format!("{interface}_controller"));
            assert_eq!(strings(&forward["joints"]), ["ankle", "slider", "wheel"]);
            assert_eq!(forward["interface_name"].as_str(), Some(interface));
        }
    }

    #[test]
    fn a_position_only_arm_gets_a_position_trajectory_controller() {
        let doc = parse(&position_arm());
        assert_eq!(
            keys(&doc),
            ["controller_manager", "joint_trajectory_controller"]
        );
        assert_eq!(
            keys(params(&doc, "controller_manager")),
            [
                "update_rate",
                "joint_state_broadcaster",
                "joint_trajectory_controller"
            ]
        );
        let jtc = params(&doc, "joint_trajectory_controller");
        assert_eq!(strings(&jtc["command_interfaces"]), ["position"]);
        assert_eq!(strings(&jtc["state_interfaces"]), ["position"]);
    }

    #[test]
    fn without_an_imu_there_is_no_imu_broadcaster() {
        let mut robot = mit_robot();
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
    fn the_fixture_shares_no_command_interface() {
        // `ankle` (MIT), `slider` (position) and `wheel` (velocity) have no command interface in
        // common: there is no controller for all three, and none is written.
        let doc = parse(&fixture::robot());
        assert_eq!(keys(&doc), ["controller_manager", "imu_sensor_broadcaster"]);
        assert_eq!(
            keys(params(&doc, "controller_manager")),
            [
                "update_rate",
                "joint_state_broadcaster",
                "imu_sensor_broadcaster"
            ]
        );
    }

    #[test]
    fn trajectory_interfaces_follow_jtc_rules() {
        let pick = |c: &[InterfaceKind], s: &[InterfaceKind]| trajectory_interfaces(c, s);
        let (p, v, a, e) = (Position, Velocity, Acceleration, Effort);
        assert_eq!(
            pick(&[p, v, a], &[p, v, a]),
            Some((&[p, v, a][..], &[p, v, a][..]))
        );
        assert_eq!(
            pick(&[p, v, e], &[p, v, e]),
            Some((&[p, v][..], &[p, v][..]))
        );
        // A velocity command needs a velocity state: without one, position alone.
        assert_eq!(pick(&[p, v], &[p]), Some((&[p][..], &[p][..])));
        assert_eq!(pick(&[v], &[p, v]), Some((&[v][..], &[p, v][..])));
        assert_eq!(pick(&[v], &[p]), None);
        assert_eq!(pick(&[e], &[p, v]), Some((&[e][..], &[p, v][..])));
        assert_eq!(pick(&[e], &[p]), None);
        // Acceleration only comes with position and velocity; a velocity state needs position.
        assert_eq!(pick(&[a], &[p, v, a]), None);
        assert_eq!(pick(&[p], &[v]), None);
        assert_eq!(pick(&[], &[p, v]), None);
    }

    #[test]
    fn output_is_deterministic() {
        let robot = mit_robot();
        assert_eq!(yaml(&robot).unwrap(), yaml(&robot.clone()).unwrap());
    }
}
