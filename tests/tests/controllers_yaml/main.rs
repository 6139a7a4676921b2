//! Every emitted `controllers.yaml` (each shipped robot's, and those of test robots that mix
//! interface sets) checked against the parameter definitions of the controllers it names, the
//! generate_parameter_library files of ros2_controllers and ros2_control's controller_manager,
//! and for what those cannot say: every command interface of every actuated joint is claimed by
//! exactly one controller, but for its position, which also has one position forward command
//! controller to switch the trajectory controller off for.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod definitions;

use std::collections::BTreeMap;

use definitions::{Definition, plugin_classes};
use robot_core::{Robot, emit};
use robot_macros::robot;
use serde_yaml_ng::{Mapping, Value};

/// The controllers the emitter may name: plugin description file, parameter file.
const PLUGINS: [(&str, &str); 5] = [
    (
        "joint_state_plugin.xml",
        "joint_state_broadcaster_parameters.yaml",
    ),
    (
        "imu_sensor_broadcaster.xml",
        "imu_sensor_broadcaster_parameters.yaml",
    ),
    (
        "force_torque_sensor_broadcaster.xml",
        "force_torque_sensor_broadcaster_parameters.yaml",
    ),
    (
        "joint_trajectory_plugin.xml",
        "joint_trajectory_controller_parameters.yaml",
    ),
    (
        "forward_command_plugin.xml",
        "forward_command_controller_parameters.yaml",
    ),
];

/// The parameter definition of each plugin class the emitter may name.
fn definitions() -> BTreeMap<String, Definition> {
    let mut out = BTreeMap::new();
    for (plugins, params) in PLUGINS {
        // The first class of the file is the controller (forward_command_plugin.xml also
        // declares the multi-interface variant, with its own parameter file).
        let class = plugin_classes(plugins).into_iter().next().expect("a class");
        out.insert(class, Definition::load(params));
    }
    out
}

/// Every problem of one emitted file.
fn problems(robot: &Robot, text: &str) -> Vec<String> {
    let doc: Mapping = serde_yaml_ng::from_str(text).expect("YAML");
    let definitions = definitions();
    // controller_manager.cpp declares `overruns.print_warnings` itself when the file does not set
    // it (true, unless use_sim_time), before its parameter listener would require it.
    let manager_definition = Definition::load("controller_manager_parameters.yaml")
        .default_in_code("overruns.print_warnings", Value::Bool(true));
    let ros_parameters = |key: &str| -> Option<Mapping> {
        doc.get(key)?.get("ros__parameters")?.as_mapping().cloned()
    };
    let mut out = Vec::new();
    let mut manager = ros_parameters("controller_manager").expect("controller_manager");
    // `<controller>.type` is declared by the controller manager for each controller it loads
    // (controller_manager.cpp), not in its parameter file.
    let mut declared: Vec<(String, String)> = Vec::new();
    manager.retain(|key, value| {
        let ty = value.get("type").and_then(Value::as_str);
        match (key.as_str(), ty) {
            (Some(name), Some(ty)) if value.as_mapping().is_some_and(|m| m.len() == 1) => {
                declared.push((name.to_string(), ty.to_string()));
                false
            }
            _ => true,
        }
    });
    out.extend(
        manager_definition
            .check(&manager)
            .into_iter()
            .map(|p| format!("controller_manager: {p}")),
    );
    for (name, ty) in &declared {
        let Some(definition) = definitions.get(ty) else {
            out.push(format!("`{name}`: unknown plugin `{ty}`"));
            continue;
        };
        let params = ros_parameters(name).unwrap_or_default();
        out.extend(
            definition
                .check(&params)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
        if !is_ros_name(name) {
            out.push(format!("`{name}` is not a valid ROS node name"));
        }
    }
    for key in doc.keys().filter_map(Value::as_str) {
        if key != "controller_manager" && !declared.iter().any(|(n, _)| n == key) {
            out.push(format!(
                "`{key}` has parameters but no controller declares it"
            ));
        }
    }
    out.extend(claims(robot, &doc, &declared));
    out
}

/// A ROS node name: letters, digits and `_`, not starting with a digit.
fn is_ros_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Each command interface of each actuated, non-mimic joint claimed exactly once, and nothing
/// claimed that the joint does not declare (JTC also reads its state interfaces).
fn claims(robot: &Robot, doc: &Mapping, declared: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut claimed: BTreeMap<(String, String), Vec<&str>> = BTreeMap::new();
    // The position forward command controllers a trajectory controller is switched off for:
    // they claim positions the trajectory controllers claim too (never active together).
    let mut switch_to: BTreeMap<(String, String), Vec<&str>> = BTreeMap::new();
    for (name, ty) in declared {
        let Some(params) = doc
            .get(name.as_str())
            .and_then(|v| v.get("ros__parameters"))
        else {
            continue;
        };
        let joints = list(&params["joints"]);
        let position_forward = ty == "forward_command_controller/ForwardCommandController"
            && params["interface_name"].as_str() == Some("position");
        let (commands, states) = match ty.as_str() {
            "joint_trajectory_controller/JointTrajectoryController" => (
                list(&params["command_interfaces"]),
                list(&params["state_interfaces"]),
            ),
            "forward_command_controller/ForwardCommandController" => (
                vec![params["interface_name"].as_str().unwrap_or_default()],
                vec![],
            ),
            _ => continue,
        };
        for joint_name in joints {
            let Some(joint) = robot.joint(joint_name) else {
                out.push(format!("{name}: unknown joint `{joint_name}`"));
                continue;
            };
            let has = |list: &[robot_core::model::Interface], i: &str| {
                list.iter().any(|d| d.kind.name() == i)
            };
            for state in &states {
                if !has(&joint.state_interfaces, state) {
                    out.push(format!("{name}: `{joint_name}` has no state `{state}`"));
                }
            }
            for command in &commands {
                if !has(&joint.command_interfaces, command) {
                    out.push(format!("{name}: `{joint_name}` has no command `{command}`"));
                }
                match position_forward {
                    true => &mut switch_to,
                    false => &mut claimed,
                }
                .entry((joint_name.to_string(), command.to_string()))
                .or_default()
                .push(name);
            }
        }
    }
    for joint in robot.actuated_joints().filter(|j| j.mimic.is_none()) {
        for interface in joint.command_interfaces.iter() {
            let key = (joint.name.to_string(), interface.kind.name().to_string());
            let switched = switch_to.get(&key).map(Vec::as_slice);
            if let Some(several @ [_, _, ..]) = switched {
                out.push(format!(
                    "`{}/{}` has several position controllers {several:?}",
                    key.0, key.1
                ));
            }
            if interface.kind.name() == "position" && switched.is_none() {
                out.push(format!(
                    "`{}/{}` has no position controller to switch to",
                    key.0, key.1
                ));
            }
            match claimed.get(&key).map(Vec::as_slice).or(switched) {
                Some([_]) => {}
                None | Some([]) => out.push(format!("`{}/{}` is unclaimed", key.0, key.1)),
                Some(several) => {
                    out.push(format!("`{}/{}` is claimed by {several:?}", key.0, key.1))
                }
            }
        }
    }
    out
}

fn list(value: &Value) -> Vec<&str> {
    value
        .as_sequence()
        .map(|s| s.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn assert_valid(robot: &Robot) {
    let text = emit::controllers_yaml(robot).expect("emit");
    let problems = problems(robot, &text);
    assert!(
        problems.is_empty(),
        "{}.controllers.yaml:\n  {}\n{}",
        robot.name,
        problems.join("\n  "),
        text
    );
}

#[test]
fn every_shipped_robot_passes() {
    for robot in robots::all() {
        assert_valid(robot);
    }
}

#[test]
fn the_checked_in_copies_pass_too() {
    for robot in robots::all() {
        let path =
            robots::checked_in::robot_dir(robot).join(format!("{}.controllers.yaml", robot.name));
        let text = std::fs::read_to_string(&path).expect("checked-in file");
        let problems = problems(robot, &text);
        assert!(
            problems.is_empty(),
            "{}:\n  {}",
            path.display(),
            problems.join("\n  ")
        );
    }
}

robot! {
    /// An arm with a gripper on a wheeled base: velocity-only wheels on `base`, MIT joints and a
    /// position-only gripper (with a mimic finger) on `arm`, and a position-velocity-acceleration
    /// head on `head`.
    robot MobileManipulator { update_rate: 200 Hz }
    bus base {}
    bus arm {}
    bus head {}
    link chassis {}
    limb wheel: front_left | front_right | rear_left | rear_right {
        link tyre {}
        joint axle: continuous {
            parent: chassis, child: tyre,
            axis: [0, 1, 0],
            limits { velocity: 20, effort: 10 },
            actuator { bus: base, can_id: 1 | 2 | 3 | 4, model: RS02 },
            command: [velocity],
            state: [position, velocity],
        }
    }
    limb link: shoulder | elbow {
        link segment {}
        joint pitch: revolute {
            parent: chassis | shoulder_segment, child: segment,
            axis: [0, 1, 0],
            limits { lower: -2, upper: 2, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 11 | 12, model: RS02 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }
    link left_finger {}
    link right_finger {}
    joint gripper: prismatic {
        parent: elbow_segment, child: left_finger,
        axis: [0, 1, 0],
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
        actuator { bus: arm, can_id: 13, model: RS05, lead: 50 mm },
        command: [position],
        state: [position, velocity],
    }
    joint gripper_mimic: prismatic {
        parent: elbow_segment, child: right_finger,
        axis: [0, 1, 0],
        limits { lower: -40 mm, upper: 0, velocity: 0.1, effort: 5 },
        mimic { joint: gripper, multiplier: -1 },
        state: [position, velocity],
    }
    link camera {}
    joint pan: revolute {
        parent: chassis, child: camera,
        axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: head, can_id: 21, model: RS02 },
        command: [position, velocity, acceleration],
        state: [position, velocity, acceleration],
    }
}

robot! {
    /// Two feet, each with an ankle force/torque sensor and a sole switch, and a base IMU.
    robot Biped { update_rate: 500 Hz, floating_base: true }
    bus legs {}
    link pelvis {}
    link imu {}
    joint imu_frame: fixed { parent: pelvis, child: imu }
    limb leg: left | right, mirror: y {
        link foot { collision box { size: [0.12, 0.06, 0.02] } }
        joint ankle: revolute {
            parent: pelvis, child: foot,
            origin { xyz: [0, 0.1, -0.5] },
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: legs, can_id: 1 | 2, model: RS02 },
            command: [position],
            state: [position, velocity],
        }
        force_torque ankle_ft { link: foot, plugin: "pkg/AnkleFt" }
        contact sole { link: foot, plugin: "pkg/Switch" }
    }
    imu base_imu { link: imu, plugin: "pkg/Imu" }
}

#[test]
fn each_force_torque_sensor_gets_a_broadcaster_of_its_own() {
    let robot = Biped::DESCRIPTION;
    assert_valid(robot);
    let doc: Mapping = serde_yaml_ng::from_str(&emit::controllers_yaml(robot).unwrap()).unwrap();
    let manager = &doc["controller_manager"]["ros__parameters"];
    for side in ["left", "right"] {
        let name = format!("{side}_ankle_ft_broadcaster");
        assert_eq!(
            manager[name.as_str()]["type"].as_str(),
            Some("force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster")
        );
        let params = &doc[name.as_str()]["ros__parameters"];
        let ft = format!("{side}_ankle_ft");
        assert_eq!(params["sensor_name"].as_str(), Some(ft.as_str()));
        let foot = format!("{side}_foot");
        assert_eq!(params["frame_id"].as_str(), Some(foot.as_str()));
    }
    assert_eq!(
        manager["imu_sensor_broadcaster"]["type"].as_str(),
        Some("imu_sensor_broadcaster/IMUSensorBroadcaster"),
        "the only IMU keeps the customary name"
    );
    // No broadcaster exists for a contact sensor: none is declared.
    assert!(!emit::controllers_yaml(robot).unwrap().contains("sole"));
}

/// `name: [joints]` of every controller of a robot's file, in order.
fn controllers(robot: &Robot) -> Vec<(String, Vec<String>)> {
    let doc: Mapping = serde_yaml_ng::from_str(&emit::controllers_yaml(robot).unwrap()).unwrap();
    doc.iter()
        .filter_map(|(k, v)| {
            let joints = v["ros__parameters"].get("joints")?;
            let joints = list(joints).into_iter().map(str::to_string).collect();
            Some((k.as_str()?.to_string(), joints))
        })
        .collect()
}

#[test]
fn a_robot_mixing_interface_sets_gets_a_controller_for_every_interface() {
    let robot = MobileManipulator::DESCRIPTION;
    assert_valid(robot);
    let names: Vec<String> = controllers(robot).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "base_velocity_controller",
            "arm_position_velocity_trajectory_controller",
            "arm_position_trajectory_controller",
            "arm_position_controller",
            "arm_effort_controller",
            "arm_stiffness_controller",
            "arm_damping_controller",
            "head_trajectory_controller",
            "head_position_controller",
        ]
    );
}

#[test]
fn a_file_missing_controllers_is_caught() {
    // The check itself: with only the effort controller declared, the rest is unclaimed.
    let robot = MobileManipulator::DESCRIPTION;
    let doc: Mapping = serde_yaml_ng::from_str(&emit::controllers_yaml(robot).unwrap()).unwrap();
    let declared = vec![(
        "arm_effort_controller".to_string(),
        "forward_command_controller/ForwardCommandController".to_string(),
    )];
    let problems = claims(robot, &doc, &declared).join("\n");
    assert!(
        problems.contains("`pan/position` is unclaimed"),
        "{problems}"
    );
    assert!(!problems.contains("`shoulder_pitch/effort`"), "{problems}");
}

#[test]
fn a_named_group_mixing_mit_and_position_joints_passes() {
    // One trajectory controller over position, what the MIT joints and the gripper share; the
    // MIT joints' velocity goes to a forward command controller of the group.
    let mut robot = MobileManipulator::DESCRIPTION.clone();
    robot.controller_groups = vec![robot_core::model::ControllerGroup {
        name: "manipulator".into(),
        joints: vec![
            "shoulder_pitch".into(),
            "elbow_pitch".into(),
            "gripper".into(),
        ]
        .into(),
        feedforward: robot_core::model::Feedforward::None,
    }]
    .into();
    assert_eq!(robot_core::validate::validate(&robot), vec![]);
    assert_valid(&robot);
    let names: Vec<String> = controllers(&robot).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "manipulator_trajectory_controller",
            "manipulator_position_controller",
            "manipulator_velocity_controller",
            "manipulator_effort_controller",
            "manipulator_stiffness_controller",
            "manipulator_damping_controller",
            "base_velocity_controller",
            "head_trajectory_controller",
            "head_position_controller",
        ]
    );
}
