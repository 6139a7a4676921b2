//! `robot run --controller manager --ros` as `ros2 control` sees it, asked through rclpy (ROS 2
//! Jazzy over Fast DDS, `controller_manager_msgs` built from ros2/interfaces/) in a network
//! namespace of its own: every controller of `controllers.yaml` listed with its state and
//! claims; a colliding activation refused (STRICT) and skipped (BEST_EFFORT); switches from a
//! leg's trajectory controller to its forward effort controller and to its forward position
//! controller, whose commands then reach the joints; the command interfaces claimed as the
//! switches leave them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::Command;
use std::time::Duration;

use ros2_peer::{Implementation, isolated_on};
use serde_json::{Value, json};

/// `robot run` with `args`, in a fresh folder: (success, output).
fn robot_run(args: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir.path())
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// The `nth` event `event` the peer printed, or a panic showing all it said.
fn event<'a>(seen: &'a [Value], event: &str, nth: usize) -> &'a Value {
    (seen.iter().filter(|e| e["event"] == event).nth(nth)).unwrap_or_else(|| {
        let said: Vec<&Value> = seen.iter().map(|e| &e["event"]).collect();
        panic!("no {event} #{nth} in what the peer said: {said:?}")
    })
}

/// Controller `name` of a `list_controllers` answer.
fn controller<'a>(listed: &'a Value, name: &str) -> &'a Value {
    let all = listed["controllers"].as_array().unwrap();
    (all.iter().find(|c| c["name"] == name)).unwrap_or_else(|| panic!("no {name} in {listed}"))
}

#[test]
fn ros2_control_lists_and_switches_the_controllers_of_controllers_yaml() {
    isolated_on(Implementation::Rclpy, |python| {
        let knee_effort = [0.0, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0];
        let requests = json!([
            { "op": "list_controllers" },
            { "op": "list_controller_types" },
            { "op": "switch", "activate": ["left_leg_stiffness_controller"],
              "strictness": "strict" },
            { "op": "switch",
              "activate": ["left_leg_stiffness_controller", "no_such_controller"],
              "strictness": "best_effort" },
            // /diagnostics says what the last switch left out (published once a second).
            { "op": "wait", "seconds": 1.5 },
            { "op": "diagnostics" },
            { "op": "switch", "activate": ["left_leg_effort_controller"],
              "deactivate": ["left_leg_trajectory_controller"], "strictness": "strict" },
            { "op": "command", "topic": "/left_leg_effort_controller/commands",
              "data": knee_effort, "seconds": 1.0 },
            { "op": "switch", "activate": ["right_leg_position_controller"],
              "deactivate": ["right_leg_trajectory_controller"], "strictness": "strict" },
            { "op": "command", "topic": "/right_leg_position_controller/commands",
              "data": [0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0], "seconds": 1.0 },
            { "op": "joint_states" },
            { "op": "list_controllers" },
            { "op": "list_hardware_interfaces" },
            // A broadcaster switched off stops publishing; on again, it publishes.
            { "op": "switch", "deactivate": ["joint_state_broadcaster"], "strictness": "strict" },
            { "op": "wait", "seconds": 0.3 },
            { "op": "joint_states" },
            { "op": "wait", "seconds": 0.7 },
            { "op": "joint_states" },
            { "op": "switch", "activate": ["joint_state_broadcaster"], "strictness": "strict" },
            { "op": "wait", "seconds": 0.5 },
            { "op": "joint_states" },
        ]);
        let peer = python
            .start_with_input("control", &[], Some(&requests.to_string()))
            .unwrap();
        let (ok, text) = robot_run(&["--controller", "manager", "--ros", "--seconds", "12"]);
        assert!(ok, "{text}");
        let (_, seen) = peer.finish_seen(Duration::from_secs(40)).unwrap();

        // Every controller of controllers.yaml, as bringup.launch.py spawns them, then the
        // robot tool's own (squat, the whole robot; left_knee_swing, typed: the left leg).
        let listed = event(&seen, "list_controllers", 0);
        let yaml = include_str!("../descriptions/lite_biped/lite_biped.controllers.yaml");
        let mut names: Vec<&str> = (listed["controllers"].as_array().unwrap().iter())
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        let own = names.split_off(names.len() - 2);
        assert_eq!(own, ["squat", "left_knee_swing"]);
        let squat = controller(listed, "squat");
        assert_eq!(squat["state"], "inactive");
        assert_eq!(squat["type"], "robot/squat");
        assert_eq!(squat["required_command"].as_array().unwrap().len(), 70);
        let swing = controller(listed, "left_knee_swing");
        let swing_claims = swing["required_command"].as_array().unwrap();
        assert_eq!(swing_claims.len(), 35, "{swing}");
        assert!(
            swing_claims
                .iter()
                .all(|c| c.as_str().unwrap().starts_with("left_"))
        );
        for name in &names {
            assert!(
                yaml.contains(&format!("    {name}:\n")),
                "{name} not in controllers.yaml"
            );
        }
        let in_yaml = yaml
            .lines()
            .filter(|l| l.starts_with("      type: "))
            .count();
        assert_eq!(names.len(), in_yaml, "{names:?}");
        let trajectory = controller(listed, "left_leg_trajectory_controller");
        assert_eq!(trajectory["state"], "active");
        assert_eq!(
            trajectory["type"],
            "joint_trajectory_controller/JointTrajectoryController"
        );
        assert_eq!(trajectory["update_rate"], 200);
        let claimed = trajectory["claimed"].as_array().unwrap();
        assert!(
            claimed.contains(&json!("left_knee_pitch/position")),
            "{trajectory}"
        );
        assert!(
            !claimed
                .iter()
                .any(|c| c.as_str().unwrap().starts_with("right_"))
        );
        let effort = controller(listed, "left_leg_effort_controller");
        assert_eq!(effort["state"], "inactive");
        assert_eq!(effort["claimed"], json!([]));
        assert_eq!(
            effort["required_command"].as_array().unwrap().len(),
            7,
            "{effort}"
        );
        assert_eq!(
            controller(listed, "joint_state_broadcaster")["state"],
            "active"
        );
        let types = &event(&seen, "list_controller_types", 0)["types"];
        assert!(
            types.as_array().unwrap().contains(&json!(
                "forward_command_controller/ForwardCommandController"
            )),
            "{types}"
        );

        // The stiffness controller collides with the trajectory controller's servo gains.
        let strict = event(&seen, "switch", 0);
        assert_eq!(strict["ok"], false, "{strict}");
        let said = strict["message"].as_str().unwrap();
        assert!(
            said.contains("'left_hip_pitch/stiffness' is currently claimed by another controller ('left_leg_trajectory_controller')"),
            "{said}"
        );
        let best = event(&seen, "switch", 1);
        assert_eq!(best["ok"], true, "best effort skips and says so: {best}");
        let said = best["message"].as_str().unwrap();
        assert!(
            said.contains("left_leg_stiffness_controller") && said.contains("no_such_controller"),
            "{said}"
        );

        let statuses = &event(&seen, "diagnostics", 0)["statuses"];
        let manager = &statuses["lite_biped: controller manager"];
        assert_eq!(manager["level"], 1, "WARN: {statuses}");
        let said = manager["values"]["last switch refused or partly done"]
            .as_str()
            .unwrap();
        assert!(
            said.contains("left_leg_stiffness_controller") && said.contains("no_such_controller"),
            "{manager}"
        );
        assert!(
            manager["values"]["active controllers"]
                .as_str()
                .unwrap()
                .contains("left_leg_trajectory_controller"),
            "{manager}"
        );

        // From the trajectory controller to the effort controller: its commands reach the knee.
        assert_eq!(event(&seen, "switch", 2)["ok"], true);
        assert!(event(&seen, "command", 0)["sent"].as_u64().unwrap() > 10);
        // From the right leg's trajectory controller to its position controller: the knee goes
        // where the commands say.
        assert_eq!(event(&seen, "switch", 3)["ok"], true);
        let joints = event(&seen, "joint_states", 0);
        let efforts = &joints["efforts"];
        assert_eq!(efforts["left_knee_pitch"], 1.5, "{efforts}");
        assert_eq!(efforts["right_knee_pitch"], 0.0, "{efforts}");
        let knee = joints["positions"]["right_knee_pitch"].as_f64().unwrap();
        assert!((knee - 0.6).abs() < 1e-6, "{joints}");
        let after = event(&seen, "list_controllers", 1);
        assert_eq!(
            controller(after, "left_leg_trajectory_controller")["state"],
            "inactive"
        );
        assert_eq!(
            controller(after, "left_leg_effort_controller")["state"],
            "active"
        );
        assert_eq!(
            controller(after, "left_leg_stiffness_controller")["state"],
            "inactive"
        );
        assert_eq!(
            controller(after, "right_leg_trajectory_controller")["state"],
            "inactive"
        );
        assert_eq!(
            controller(after, "right_leg_position_controller")["state"],
            "active"
        );

        let interfaces = event(&seen, "list_hardware_interfaces", 0);
        let command = |name: &str| {
            (interfaces["command"].as_array().unwrap().iter())
                .find(|i| i["name"] == name)
                .unwrap_or_else(|| panic!("no {name} in {interfaces}"))
                .clone()
        };
        assert_eq!(command("left_knee_pitch/effort")["claimed"], true);
        assert_eq!(command("left_knee_pitch/position")["claimed"], false);
        assert_eq!(command("right_knee_pitch/position")["claimed"], true);
        assert_eq!(command("right_knee_pitch/stiffness")["claimed"], false);
        assert_eq!(command("right_knee_pitch/position")["available"], true);
        let counts: Vec<u64> = (1..4)
            .map(|n| event(&seen, "joint_states", n)["count"].as_u64().unwrap())
            .collect();
        assert_eq!(
            counts[0], counts[1],
            "no /joint_states while its broadcaster is off"
        );
        assert!(
            counts[2] > counts[1] + 20,
            "and they come again: {counts:?}"
        );
        assert!(
            text.contains("left_leg_effort_controller: commands: "),
            "{text}"
        );
    });
}

#[test]
fn controllers_names_what_starts_active_and_a_colliding_pair_is_refused() {
    // The manager's trajectory and forward controllers join DDS: in a namespace of its own.
    ros2_peer::in_namespace(|| {
        let (ok, text) = robot_run(&[
            "--controllers",
            "left_leg_trajectory_controller,left_leg_stiffness_controller",
            "--seconds",
            "1",
        ]);
        assert!(!ok, "{text}");
        assert!(
            text.contains("`left_leg_trajectory_controller` and `left_leg_stiffness_controller` both claim `left_hip_pitch/stiffness`"),
            "{text}"
        );
        // The crate's own controllers: a typed one claims the left leg alone, so it runs beside
        // the right leg's trajectory controller; `squat` claims the whole robot.
        let (ok, text) = robot_run(&[
            "--controllers",
            "left_knee_swing,right_leg_trajectory_controller",
            "--seconds",
            "2",
            "--fast",
        ]);
        assert!(ok, "{text}");
        assert!(
            text.contains("left_knee_pitch    +0.600 rad"),
            "half a swing: {text}"
        );
        assert!(text.contains("right_knee_pitch   +0.000 rad"), "{text}");
        let (ok, text) = robot_run(&[
            "--controllers",
            "left_knee_swing,left_leg_trajectory_controller",
            "--seconds",
            "1",
        ]);
        assert!(!ok, "{text}");
        assert!(
            text.contains("`left_leg_trajectory_controller` and `left_knee_swing` both claim `left_hip_pitch/position`"),
            "{text}"
        );
        let (ok, text) = robot_run(&[
            "--controllers",
            "squat,right_leg_trajectory_controller",
            "--seconds",
            "1",
        ]);
        assert!(!ok, "{text}");
        assert!(
            text.contains("and `squat` both claim `right_hip_pitch/position`"),
            "{text}"
        );
        let (ok, text) = robot_run(&["--controllers", "left_leg_nothing", "--seconds", "1"]);
        assert!(!ok, "{text}");
        assert!(text.contains("`left_leg_nothing`"), "{text}");
        let (ok, text) = robot_run(&[
            "--controllers",
            "left_leg_effort_controller,right_leg_trajectory_controller",
            "--seconds",
            "1",
            "--fast",
        ]);
        assert!(ok, "{text}");
        assert!(
            text.contains(
                "active at start: joint_state_broadcaster, imu_sensor_broadcaster, \
                 left_leg_effort_controller, right_leg_trajectory_controller"
            ),
            "{text}"
        );
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

/// Component `name` of a `list_hardware_components` answer.
fn component<'a>(listed: &'a Value, name: &str) -> &'a Value {
    let all = listed["components"].as_array().unwrap();
    (all.iter().find(|c| c["name"] == name)).unwrap_or_else(|| panic!("no {name} in {listed}"))
}

#[test]
fn ros2_control_sets_a_bus_inactive_and_active_again_on_the_real_path() {
    isolated_on(Implementation::Rclpy, |python| {
        let requests = json!([
            // The services answer from when the graph starts; the loop runs a moment later
            // (a component's state is `unknown` until then).
            { "op": "list_controllers" },
            { "op": "wait", "seconds": 2.0 },
            { "op": "list_hardware_components" },
            { "op": "set_component", "name": "LiteBipedLeftLeg", "state": "inactive" },
            { "op": "list_hardware_components" },
            { "op": "list_controllers" },
            { "op": "set_component", "name": "LiteBipedLeftLeg", "state": "unconfigured" },
            { "op": "set_component", "name": "NoSuchComponent", "state": "inactive" },
            { "op": "set_component", "name": "LiteBipedLeftLeg", "state": "active" },
            { "op": "list_hardware_components" },
            { "op": "switch", "activate": ["left_leg_trajectory_controller"],
              "strictness": "strict" },
            { "op": "list_controllers" },
        ]);
        let peer = python
            .start_with_input("control", &[], Some(&requests.to_string()))
            .unwrap();
        let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/lite_biped.sim.yaml");
        let (ok, text) = robot_run(&[
            "--config",
            config,
            "--controller",
            "manager",
            "--ros",
            "--seconds",
            "12",
        ]);
        assert!(ok, "{text}");
        let (_, seen) = peer.finish_seen(Duration::from_secs(40)).unwrap();

        let before = event(&seen, "list_hardware_components", 0);
        let left = component(before, "LiteBipedLeftLeg");
        assert_eq!(left["state"], "active", "{left}");
        assert_eq!(left["type"], "system");
        assert_eq!(left["plugin"], "humanoid_devices_robstride/RobstrideSystem");
        assert_eq!(left["command"].as_array().unwrap().len(), 35, "{left}");
        let imu = component(before, "LiteBipedIMU");
        assert_eq!(imu["type"], "sensor", "{imu}");
        assert_eq!(imu["states"].as_array().unwrap().len(), 10, "{imu}");

        // Inactive: its controller deactivated first, its interfaces no longer available.
        let set = event(&seen, "set_component", 0);
        assert_eq!(
            (set["ok"].clone(), set["state"].clone()),
            (json!(true), json!("inactive"))
        );
        let off = event(&seen, "list_hardware_components", 1);
        let left = component(off, "LiteBipedLeftLeg");
        assert_eq!(left["state"], "inactive");
        assert!(
            (left["command"].as_array().unwrap().iter())
                .all(|i| i["available"] == false && i["claimed"] == false),
            "{left}"
        );
        assert_eq!(component(off, "LiteBipedRightLeg")["state"], "active");
        let listed = event(&seen, "list_controllers", 1);
        assert_eq!(
            controller(listed, "left_leg_trajectory_controller")["state"],
            "inactive"
        );
        assert_eq!(
            controller(listed, "right_leg_trajectory_controller")["state"],
            "active"
        );
        assert!(
            text.contains(
                "`LiteBipedLeftLeg` goes inactive: deactivated left_leg_trajectory_controller"
            ),
            "{text}"
        );
        // Not offered while running, and an unknown component: refused.
        assert_eq!(event(&seen, "set_component", 1)["ok"], false);
        assert_eq!(event(&seen, "set_component", 2)["ok"], false);

        // Active again through its lifecycle; a controller only by a switch.
        let set = event(&seen, "set_component", 3);
        assert_eq!(
            (set["ok"].clone(), set["state"].clone()),
            (json!(true), json!("active"))
        );
        let on = event(&seen, "list_hardware_components", 2);
        assert_eq!(component(on, "LiteBipedLeftLeg")["state"], "active");
        assert_eq!(event(&seen, "switch", 0)["ok"], true);
        let listed = event(&seen, "list_controllers", 2);
        assert_eq!(
            controller(listed, "left_leg_trajectory_controller")["state"],
            "active"
        );
    });
}
