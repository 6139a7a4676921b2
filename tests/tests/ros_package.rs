//! The shipped robots' ROS 2 description packages (`robots/ros/<robot>_description/`, which the
//! staleness test keeps equal to what `robot emit --ros-package` writes), checked without ROS:
//!
//! * `package.xml` by ROS's own parser and validator, PyPI `catkin_pkg`;
//! * each launch file compiled by Python, and its syntax tree read (`tests/python/launch_facts.py`)
//!   to check it against the package: every `LaunchConfiguration` declared, every spawned
//!   controller in `controllers.yaml` with the type the launch expects, the IMU broadcaster and
//!   the controller manager started on the right backends (the conditions evaluated for all eight
//!   switch combinations, against the URDF each selects), every file it names installed;
//! * the package's xacro expanded by the real `xacro` for every backend and with the launch-time
//!   args, equal to the URDFs the project emits.
//!
//! What cannot be checked here: no ROS 2 install, so nothing is launched; that `ros2_control_node`,
//! the spawners and moveit's `mujoco_ros2_control` node accept these parameters is read from
//! their sources, not run.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

#[path = "ros_package/launch.rs"]
mod launch;

use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::tools::{Tool, require};
use integration_tests::xml::{first_difference, parse};
use robot_core::backend::XacroArgs;
use robot_core::emit::{self, LaunchDefaults, ros_package};
use robot_core::{Backend, Robot};
use robots::checked_in;

fn package_dir(robot: &Robot) -> PathBuf {
    checked_in::ros_dir().join(ros_package::package_name(robot))
}

fn run(mut command: Command) -> (bool, String, String) {
    let output = command.output().expect("run tool");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

/// What catkin_pkg makes of a `package.xml`: its fields, or its error.
fn catkin_pkg(path: &Path) -> Option<Result<serde_json::Value, String>> {
    let mut python = require(Tool::CatkinPkg)?;
    python.arg("-c").arg(
        r#"
import json, sys
from catkin_pkg.package import parse_package
warnings = []
package = parse_package(sys.argv[1], warnings=warnings)  # parses and validates
package.validate(warnings=warnings)
json.dump({
    "name": package.name,
    "version": package.version,
    "format": package.package_format,
    "maintainers": [m.email for m in package.maintainers],
    "licenses": [str(l) for l in package.licenses],
    "buildtool_depends": [d.name for d in package.buildtool_depends],
    "exec_depends": [d.name for d in package.exec_depends],
    "build_type": package.get_build_type(),
    "warnings": warnings,
}, sys.stdout)
"#,
    );
    python.arg(path);
    let (ok, stdout, stderr) = run(python);
    Some(if ok {
        Ok(serde_json::from_str(&stdout).unwrap())
    } else {
        Err(stderr)
    })
}

fn strings(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

#[test]
fn catkin_pkg_accepts_each_package_xml_with_every_package_the_launch_files_run() {
    for robot in robots::all() {
        let dir = package_dir(robot);
        let Some(parsed) = catkin_pkg(&dir.join("package.xml")) else {
            return;
        };
        let package = parsed.unwrap_or_else(|e| panic!("catkin_pkg refused {}: {e}", robot.name));
        assert_eq!(package["name"], ros_package::package_name(robot));
        assert_eq!(package["format"], 3);
        assert_eq!(package["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(package["build_type"], "ament_cmake");
        assert_eq!(strings(&package["buildtool_depends"]), ["ament_cmake"]);
        assert_eq!(strings(&package["licenses"]), ["MIT", "Apache-2.0"]);
        assert!(strings(&package["warnings"]).is_empty(), "{package}");
        let depends = strings(&package["exec_depends"]);
        // Every package a launch file starts a node of, and every controller's package.
        let mut needed: Vec<String> = Vec::new();
        for file in ["view.launch.py", "bringup.launch.py"] {
            let Some(facts) = launch::facts(&dir.join("launch").join(file)) else {
                return;
            };
            needed.extend(facts.nodes.iter().map(|n| n.package.clone()));
            needed.extend(
                facts
                    .controller_types
                    .values()
                    .map(|t| t.split_once('/').unwrap().0.to_string()),
            );
        }
        needed.extend(["xacro".to_string(), "launch".into(), "launch_ros".into()]);
        for package in needed {
            // moveit's mujoco_ros2_control is built from source: documented in a comment,
            // not a dependency (the rosdep key of that name is another package).
            if package != "mujoco_ros2_control" {
                assert!(
                    depends.contains(&package.as_str()),
                    "{package} not in {depends:?}"
                );
            }
        }
        let text = std::fs::read_to_string(dir.join("package.xml")).unwrap();
        assert!(text.contains("moveit/mujoco_ros2_control"), "{text}");
    }
}

#[test]
fn catkin_pkg_refuses_a_package_xml_without_a_maintainer_email() {
    let dir = tempfile::tempdir().unwrap();
    let robot = robots::LiteBiped::DESCRIPTION;
    let text = std::fs::read_to_string(package_dir(robot).join("package.xml")).unwrap();
    let broken = text.replace(r#" email="maintainers@robot-rs.invalid""#, "");
    assert_ne!(broken, text);
    let path = dir.path().join("package.xml");
    std::fs::write(&path, broken).unwrap();
    let Some(parsed) = catkin_pkg(&path) else {
        return;
    };
    let error = parsed.unwrap_err();
    assert!(error.contains("email"), "{error}");
}

#[test]
fn every_launch_file_compiles_and_a_syntax_error_does_not() {
    let out = tempfile::tempdir().unwrap();
    let compile = |file: &Path| {
        let mut python = require(Tool::CatkinPkg)?;
        // The byte code goes to a scratch folder, not beside the checked-in file.
        python
            .arg("-c")
            .arg("import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)")
            .arg(file)
            .arg(out.path().join("out.pyc"));
        Some(run(python))
    };
    for robot in robots::all() {
        for file in ["view.launch.py", "bringup.launch.py"] {
            let path = package_dir(robot).join("launch").join(file);
            let Some((ok, _, stderr)) = compile(&path) else {
                return;
            };
            assert!(ok, "{}: {stderr}", path.display());
        }
    }
    let broken = out.path().join("broken.launch.py");
    std::fs::write(&broken, "def generate_launch_description(:\n    pass\n").unwrap();
    let Some((ok, _, stderr)) = compile(&broken) else {
        return;
    };
    assert!(!ok && stderr.contains("SyntaxError"), "{stderr}");
}

#[test]
fn each_bringup_launch_agrees_with_its_package_on_every_backend() {
    for robot in robots::all() {
        let dir = package_dir(robot);
        let Some(facts) = launch::facts(&dir.join("launch/bringup.launch.py")) else {
            return;
        };
        let problems = launch::problems(robot, &dir, &facts);
        assert!(
            problems.is_empty(),
            "{}:\n  {}",
            robot.name,
            problems.join("\n  ")
        );
        // It spawns something on every backend, and the IMU broadcaster somewhere for lite_biped.
        assert!(facts.nodes.iter().any(|n| n.executable == "spawner"));
        if robot.name == "lite_biped" {
            let imu = facts.spawner("imu_sensor_broadcaster").unwrap();
            let on: Vec<Backend> = XacroArgs::ALL
                .into_iter()
                .filter(|a| imu.starts[&launch::scenario(*a)])
                .map(Backend::from_xacro_args)
                .collect();
            assert!(
                on.contains(&Backend::Real) && on.contains(&Backend::Mujoco),
                "{on:?}"
            );
            assert!(
                !on.contains(&Backend::Mock) && !on.contains(&Backend::Topic),
                "{on:?}"
            );
        }
    }
}

#[test]
fn each_view_launch_declares_what_it_uses_and_names_installed_files() {
    for robot in robots::all() {
        let dir = package_dir(robot);
        let Some(facts) = launch::facts(&dir.join("launch/view.launch.py")) else {
            return;
        };
        let mut problems = launch::declared_problems(&facts);
        problems.extend(launch::path_problems(robot, &dir, &facts));
        assert!(
            problems.is_empty(),
            "{}:\n  {}",
            robot.name,
            problems.join("\n  ")
        );
        let executables: Vec<&str> = facts.nodes.iter().map(|n| n.executable.as_str()).collect();
        for expected in [
            "robot_state_publisher",
            "joint_state_publisher_gui",
            "rviz2",
        ] {
            assert!(executables.contains(&expected), "{executables:?}");
        }
        let paths: Vec<&str> = facts.paths.iter().map(|p| p.path.as_str()).collect();
        assert!(
            paths.contains(&format!("rviz/{}.rviz", robot.name).as_str()),
            "{paths:?}"
        );
    }
}

#[test]
fn a_broken_bringup_launch_is_caught() {
    let robot = robots::LiteBiped::DESCRIPTION;
    let dir = package_dir(robot);
    let text = std::fs::read_to_string(dir.join("launch/bringup.launch.py")).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let cases = [
        (
            "an undeclared LaunchConfiguration",
            text.replace(
                r#"LaunchConfiguration("imu_port"),"#,
                r#"LaunchConfiguration("imu_device"),"#,
            ),
            "LaunchConfiguration `imu_device` is used but never declared",
        ),
        (
            "the sensor broadcasters on every backend",
            text.replace("            condition=IfCondition(has_sensors),\n", ""),
            "spawns imu_sensor_broadcaster with sim_mujoco:=false use_topic_hardware:=false use_mock_hardware:=true (the mock backend",
        ),
        (
            "a controller controllers.yaml does not declare",
            text.replace(
                r#"arguments=["left_leg_trajectory_controller"]"#,
                r#"arguments=["left_leg_cartesian_controller"]"#,
            ),
            "spawns `left_leg_cartesian_controller`, which controllers.yaml does not declare",
        ),
        (
            "a wrong expected type",
            text.replace(
                r#""left_leg_trajectory_controller": "joint_trajectory_controller/JointTrajectoryController""#,
                r#""left_leg_trajectory_controller": "forward_command_controller/ForwardCommandController""#,
            ),
            "left_leg_trajectory_controller: the launch expects type forward_command_controller/ForwardCommandController, controllers.yaml gives joint_trajectory_controller/JointTrajectoryController",
        ),
        (
            "a file in a folder that is not installed",
            text.replace(r#"[share, "mjcf", "#, r#"[share, "models", "#),
            "names models/lite_biped.scene.xml, which CMakeLists.txt does not install",
        ),
    ];
    for (what, broken, expected) in cases {
        assert_ne!(broken, text, "{what}: the replacement did not apply");
        let path = scratch.path().join("bringup.launch.py");
        std::fs::write(&path, broken).unwrap();
        let Some(facts) = launch::facts(&path) else {
            return;
        };
        let problems = launch::problems(robot, &dir, &facts);
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{what}: expected `{expected}` among {problems:#?}"
        );
    }
}

/// Expands the package's xacro with `args` into `out`.
fn expand(robot: &Robot, args: &[String], out: &Path) -> Option<()> {
    let mut xacro = require(Tool::Xacro)?;
    let source = package_dir(robot).join(format!("urdf/{}.urdf.xacro", robot.name));
    xacro.arg(&source).args(args).arg("-o").arg(out);
    let (ok, stdout, stderr) = run(xacro);
    assert!(ok, "xacro {args:?} failed: {stdout}{stderr}");
    Some(())
}

fn assert_same(theirs: &Path, ours: &Path, what: &str) {
    if let Some(diff) = first_difference(&parse(theirs), &parse(ours), "") {
        panic!(
            "{what}: xacro's output differs from {} at {diff}",
            ours.display()
        );
    }
}

#[test]
fn the_packages_xacro_expands_to_the_emitted_urdf_of_every_backend() {
    let scratch = tempfile::tempdir().unwrap();
    for robot in robots::all() {
        for args in XacroArgs::ALL {
            let named: Vec<String> = args
                .pairs()
                .iter()
                .map(|(n, v)| format!("{n}:={v}"))
                .collect();
            let out = scratch.path().join("out.urdf");
            if expand(robot, &named, &out).is_none() {
                return;
            }
            let backend = Backend::from_xacro_args(args);
            let ours = checked_in::robot_dir(robot).join(format!("{}.{backend}.urdf", robot.name));
            assert_same(&out, &ours, &format!("{} {}", robot.name, named.join(" ")));
        }
    }
}

#[test]
fn the_packages_xacro_with_the_launch_args_equals_the_urdf_emitted_with_those_defaults() {
    let robot = robots::LiteBiped::DESCRIPTION;
    let defaults = LaunchDefaults {
        bus_interfaces: [("left_leg", "can5"), ("right_leg", "vcan1")]
            .map(|(b, i)| (b.to_string(), i.to_string()))
            .into(),
        imu_ports: [("base_imu".to_string(), "/dev/ttyACM3".to_string())].into(),
        topics: Some(("/sim/commands".into(), "/sim/states".into())),
        prefix: None,
    }
    .with_prefix("left_")
    .unwrap();
    let launch_args = [
        "prefix:=left_",
        "can_interface_left_leg:=can5",
        "can_interface_right_leg:=vcan1",
        "imu_port:=/dev/ttyACM3",
        "joint_commands_topic:=/sim/commands",
        "joint_states_topic:=/sim/states",
    ];
    let scratch = tempfile::tempdir().unwrap();
    let emitted = emit::all_with(robot, &defaults).unwrap();
    for backend in Backend::ALL {
        let file = format!("{}.{backend}.urdf", robot.name);
        let ours = scratch.path().join(&file);
        let contents = &emitted
            .iter()
            .find(|a| a.file_name == file)
            .unwrap()
            .contents;
        std::fs::write(&ours, contents).unwrap();
        let mut args: Vec<String> = launch_args.iter().map(|a| a.to_string()).collect();
        args.extend(
            backend
                .xacro_args()
                .pairs()
                .iter()
                .map(|(n, v)| format!("{n}:={v}")),
        );
        let out = scratch.path().join("out.urdf");
        if expand(robot, &args, &out).is_none() {
            return;
        }
        assert_same(
            &out,
            &ours,
            &format!("{backend} with {}", launch_args.join(" ")),
        );
    }
}
