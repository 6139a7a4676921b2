//! The emitted files, checked by the real tools the ROS 2 and MuJoCo worlds use: the PyPI `xacro`,
//! urdfdom's `check_urdf`, MuJoCo's compiler (PyPI `mujoco`), and JSON Schema validation.
//!
//! The tools are installed by `scripts/install-tools.sh` (which `scripts/test` runs first) and
//! found by `integration_tests::tools`: a missing tool fails the test on CI and is a loud
//! `SKIPPED: <tool> not found` elsewhere, never a silent pass.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::tools::{Tool, require};
use integration_tests::xml::{first_difference, parse};
use robot_core::backend::XacroArgs;
use robot_core::{Backend, Robot, emit};

/// Writes every emitted file of `robot` into a fresh temporary folder.
fn emitted(robot: &Robot) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_path_buf();
    for artifact in emit::all(robot).expect("emit") {
        std::fs::write(path.join(&artifact.file_name), artifact.contents).expect("write");
    }
    (dir, path)
}

fn run(mut command: Command) -> (bool, String) {
    let output = command.output().expect("run tool");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn xacro_expands_the_urdf_xacro_to_our_expanded_urdf_for_all_eight_arg_combinations() {
    if require(Tool::Xacro).is_none() {
        return;
    }
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        let source = dir.join(format!("{}.urdf.xacro", robot.name));
        for args in XacroArgs::ALL {
            let pairs = args.pairs();
            let named: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}:={v}")).collect();
            let bits: String = pairs
                .iter()
                .map(|(_, v)| if *v { '1' } else { '0' })
                .collect();
            let out = dir.join(format!("xacro-{bits}.urdf"));
            let Some(mut xacro) = require(Tool::Xacro) else {
                return;
            };
            xacro.arg(&source).args(&named).arg("-o").arg(&out);
            let (ok, text) = run(xacro);
            assert!(
                ok,
                "xacro failed on {} ({named:?}): {text}",
                source.display()
            );
            let backend = Backend::from_xacro_args(args);
            let ours = dir.join(format!("{}.{backend}.urdf", robot.name));
            let (theirs, ours) = (parse(&out), parse(&ours));
            if let Some(diff) = first_difference(&theirs, &ours, "") {
                panic!(
                    "{}: xacro with {} differs from {}.{backend}.urdf at {diff}",
                    robot.name,
                    named.join(" "),
                    robot.name
                );
            }
        }
    }
}

/// The `<param name=…>` texts of the `<ros2_control>` block named `block`'s `<hardware>`.
fn hardware_params(urdf: &Path, block: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(urdf).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let block = document
        .descendants()
        .find(|n| n.has_tag_name("ros2_control") && n.attribute("name") == Some(block))
        .unwrap_or_else(|| panic!("no block {block} in {}", urdf.display()));
    let hardware = block
        .children()
        .find(|n| n.has_tag_name("hardware"))
        .unwrap();
    hardware
        .children()
        .filter(|n| n.has_tag_name("param"))
        .map(|n| {
            (
                n.attribute("name").unwrap().to_string(),
                n.text().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn xacro_feeds_the_launch_time_device_args_to_their_blocks() {
    let Some(mut xacro) = require(Tool::Xacro) else {
        return;
    };
    let (_keep, dir) = emitted(robots::LiteBiped::DESCRIPTION);
    let real = dir.join("devices.real.urdf");
    xacro
        .arg(dir.join("lite_biped.urdf.xacro"))
        .args([
            "can_interface_left_leg:=can7",
            "can_interface_right_leg:=vcan3",
            "calibration_file:=/etc/robot/zeros.yaml",
            "imu_port:=/dev/ttyACM0",
        ])
        .arg("-o")
        .arg(&real);
    let (ok, text) = run(xacro);
    assert!(ok, "xacro failed: {text}");
    let left = hardware_params(&real, "LiteBipedLeftLeg");
    assert!(
        left.contains(&("can_interface".into(), "can7".into())),
        "{left:?}"
    );
    assert!(
        left.contains(&("calibration_file".into(), "/etc/robot/zeros.yaml".into())),
        "{left:?}"
    );
    let right = hardware_params(&real, "LiteBipedRightLeg");
    assert!(
        right.contains(&("can_interface".into(), "vcan3".into())),
        "{right:?}"
    );
    let imu = hardware_params(&real, "LiteBipedIMU");
    assert_eq!(imu, [("port".to_string(), "/dev/ttyACM0".to_string())]);

    // Without a calibration file the param is left out, not given empty: ros2_control's parser
    // warns of a param with no text, once per block at every launch.
    let Some(mut xacro) = require(Tool::Xacro) else {
        return;
    };
    let defaults = dir.join("devices.defaults.urdf");
    xacro
        .arg(dir.join("lite_biped.urdf.xacro"))
        .arg("-o")
        .arg(&defaults);
    let (ok, text) = run(xacro);
    assert!(ok, "xacro failed: {text}");
    let left = hardware_params(&defaults, "LiteBipedLeftLeg");
    assert!(
        left.iter().all(|(name, _)| name != "calibration_file"),
        "{left:?}"
    );

    let Some(mut xacro) = require(Tool::Xacro) else {
        return;
    };
    let topic = dir.join("devices.topic.urdf");
    xacro
        .arg(dir.join("lite_biped.urdf.xacro"))
        .args([
            "use_topic_hardware:=true",
            "joint_commands_topic:=/isaac/joint_command",
            "joint_states_topic:=/isaac/joint_states",
        ])
        .arg("-o")
        .arg(&topic);
    let (ok, text) = run(xacro);
    assert!(ok, "xacro failed: {text}");
    let params = hardware_params(&topic, "LiteBipedHardware");
    assert_eq!(
        params[..2],
        [
            (
                "joint_commands_topic".to_string(),
                "/isaac/joint_command".to_string()
            ),
            (
                "joint_states_topic".to_string(),
                "/isaac/joint_states".to_string()
            ),
        ]
    );
    for urdf in [&real, &topic] {
        let Some(mut check) = require(Tool::CheckUrdf) else {
            return;
        };
        check.arg(urdf);
        let (ok, text) = run(check);
        assert!(ok, "check_urdf refused {}: {text}", urdf.display());
    }
}

#[test]
fn xacro_with_a_prefix_prefixes_every_link_joint_sensor_and_block() {
    let (_keep, dir) = emitted(robots::LiteBiped::DESCRIPTION);
    for (switches, backend) in [
        (&[][..], "real"),
        (&["sim_mujoco:=true"][..], "mujoco"),
        (&["use_topic_hardware:=true"][..], "topic"),
    ] {
        let Some(mut xacro) = require(Tool::Xacro) else {
            return;
        };
        let out = dir.join(format!("prefixed.{backend}.urdf"));
        xacro
            .arg(dir.join("lite_biped.urdf.xacro"))
            .arg("prefix:=left_")
            .args(switches)
            .arg("-o")
            .arg(&out);
        let (ok, text) = run(xacro);
        assert!(ok, "xacro failed: {text}");
        let text = std::fs::read_to_string(&out).unwrap();
        let document = roxmltree::Document::parse(&text).unwrap();
        let mut named = 0;
        for node in document.descendants().filter(|n| n.is_element()) {
            let name = match node.tag_name().name() {
                "link" | "joint" | "sensor" | "ros2_control" => node.attribute("name"),
                "parent" | "child" => node.attribute("link"),
                "mimic" => node.attribute("joint"),
                "param" if matches!(node.attribute("name"), Some("mimic" | "frame_id")) => {
                    node.text()
                }
                _ => continue,
            };
            let name = name.unwrap_or_default();
            assert!(name.starts_with("left_"), "{backend}: `{name}` in {node:?}");
            named += 1;
        }
        assert!(named > 50, "{backend}: {named} names");
        let Some(mut check) = require(Tool::CheckUrdf) else {
            return;
        };
        check.arg(&out);
        let (ok, text) = run(check);
        assert!(ok, "check_urdf refused the prefixed {backend} URDF: {text}");
        assert!(text.contains("root Link: left_pelvis"), "{text}");
    }
}

#[test]
fn check_urdf_accepts_every_expanded_urdf() {
    if require(Tool::CheckUrdf).is_none() {
        return;
    }
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        for backend in Backend::ALL {
            let path = dir.join(format!("{}.{backend}.urdf", robot.name));
            let Some(mut check) = require(Tool::CheckUrdf) else {
                return;
            };
            check.arg(&path);
            let (ok, text) = run(check);
            assert!(ok, "check_urdf rejects {}: {text}", path.display());
            let root = robot.root_link().expect("root").name.to_string();
            assert!(
                text.contains(&format!("root Link: {root}")),
                "check_urdf output: {text}"
            );
            assert!(
                text.contains(&format!("robot name is: {}", robot.name)),
                "check_urdf output: {text}"
            );
        }
    }
}

#[test]
fn check_urdf_rejects_a_broken_urdf() {
    // The check above is only worth something if the tool says no to a bad file.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("broken.urdf");
    std::fs::write(
        &path,
        r#"<robot name="r"><link name="a"/><link name="b"/>
           <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint></robot>"#,
    )
    .expect("write");
    let Some(mut check) = require(Tool::CheckUrdf) else {
        return;
    };
    check.arg(&path);
    let (ok, text) = run(check);
    assert!(
        !ok,
        "check_urdf accepted a revolute joint without <limit>: {text}"
    );
}

/// What MuJoCo's compiler makes of an MJCF file: `(joints, actuators with force ranges, sensors)`;
/// `None` when MuJoCo is not installed (and this is not CI).
fn mujoco_compile(path: &Path) -> Option<serde_json::Value> {
    let script = r#"
import json, sys, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1])
name = lambda kind, i: mujoco.mj_id2name(m, kind, i)
print(json.dumps({
    "version": mujoco.__version__,
    "joints": [[name(mujoco.mjtObj.mjOBJ_JOINT, i), int(m.jnt_type[i]), bool(m.jnt_limited[i])] for i in range(m.njnt)],
    "actuators": [[name(mujoco.mjtObj.mjOBJ_ACTUATOR, i), name(mujoco.mjtObj.mjOBJ_JOINT, int(m.actuator_trnid[i][0])), float(m.actuator_forcerange[i][1])] for i in range(m.nu)],
    "sensors": [name(mujoco.mjtObj.mjOBJ_SENSOR, i) for i in range(m.nsensor)],
    "bodies": m.nbody,
}))
"#;
    let mut python = require(Tool::Mujoco)?;
    python.arg("-c").arg(script).arg(path);
    let (ok, text) = run(python);
    assert!(ok, "MuJoCo does not compile {}: {text}", path.display());
    Some(
        serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("unexpected output {text}: {e}")),
    )
}

#[test]
fn mujoco_compiles_the_mjcf_with_the_right_joints_actuators_and_imu_sensors() {
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        let Some(model) = mujoco_compile(&dir.join(format!("{}.mjcf.xml", robot.name))) else {
            return;
        };
        assert_eq!(model["version"], "3.17.0");
        // MJCF joint names are the ros2_control joint names: every movable joint, by name.
        let joints: Vec<String> = model["joints"]
            .as_array()
            .expect("joints")
            .iter()
            .map(|j| j[0].as_str().unwrap_or_default().to_string())
            .filter(|n| n != "floating_base_joint")
            .collect();
        let movable: Vec<String> = robot
            .joints
            .iter()
            .filter(|j| j.kind.is_movable())
            .map(|j| j.name.to_string())
            .collect();
        assert_eq!(joints, movable, "{}", robot.name);
        // One actuator per actuated joint, on that joint, with the torque limit as its force range.
        let actuators = model["actuators"].as_array().expect("actuators");
        let actuated: Vec<_> = robot.actuated_joints().collect();
        assert_eq!(actuators.len(), actuated.len(), "{}", robot.name);
        for (actuator, joint) in actuators.iter().zip(&actuated) {
            assert_eq!(actuator[0], joint.name.as_ref());
            assert_eq!(actuator[1], joint.name.as_ref());
            let effort = joint.limits.as_ref().expect("limits").effort;
            assert!(
                (actuator[2].as_f64().unwrap_or_default() - effort).abs() < 1e-9,
                "{actuator}"
            );
        }
        // IMUs as framequat/gyro/accelerometer named <prefix>_quat, _gyro, _accel.
        let sensors: Vec<&str> = model["sensors"]
            .as_array()
            .expect("sensors")
            .iter()
            .filter_map(|s| s.as_str())
            .collect();
        let expected: Vec<String> = robot
            .sensors
            .iter()
            .flat_map(|s| ["quat", "gyro", "accel"].map(|k| format!("{}_{k}", s.mujoco_prefix())))
            .collect();
        assert_eq!(sensors, expected, "{}", robot.name);
        // A floating base has a free joint; a fixed-base arm none.
        let free = model["joints"]
            .as_array()
            .expect("joints")
            .iter()
            .any(|j| j[1] == 0);
        assert_eq!(free, robot.floating_base, "{}", robot.name);
    }
}

#[test]
fn lite_biped_mjcf_names_the_imu_sensors_as_mujoco_system_reads_them() {
    let (_keep, dir) = emitted(robots::LiteBiped::DESCRIPTION);
    let Some(model) = mujoco_compile(&dir.join("lite_biped.mjcf.xml")) else {
        return;
    };
    assert_eq!(
        model["sensors"],
        serde_json::json!(["base_quat", "base_gyro", "base_accel"])
    );
    assert_eq!(model["actuators"].as_array().map(Vec::len), Some(14));
}

fn schema(name: &str) -> serde_json::Value {
    let path = robots::checked_in::workspace_root()
        .join("schema")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

#[test]
fn both_schemas_are_valid_against_their_meta_schema() {
    for name in ["robot.schema.json", "config.schema.json"] {
        let schema = schema(name);
        if let Err(error) = jsonschema::meta::validate(&schema) {
            panic!("{name} is not a valid JSON Schema: {error}");
        }
        let Some(mut check) = require(Tool::CheckJsonschema) else {
            continue;
        };
        check.arg("--check-metaschema").arg(
            robots::checked_in::workspace_root()
                .join("schema")
                .join(name),
        );
        let (ok, text) = run(check);
        assert!(
            ok,
            "check-jsonschema --check-metaschema rejects {name}: {text}"
        );
    }
}

#[test]
fn every_robot_json_validates_against_the_robot_schema() {
    let validator =
        jsonschema::validator_for(&schema("robot.schema.json")).expect("compile schema");
    for robot in robots::all() {
        let json: serde_json::Value =
            serde_json::from_str(&emit::robot_json(robot).expect("json")).expect("JSON");
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}.json: {errors:?}", robot.name);
    }
}

#[test]
fn the_robot_schema_rejects_what_the_model_rejects() {
    let validator =
        jsonschema::validator_for(&schema("robot.schema.json")).expect("compile schema");
    let mut json: serde_json::Value =
        serde_json::from_str(&emit::robot_json(robots::LiteBiped::DESCRIPTION).expect("json"))
            .expect("JSON");
    json["joints"][1]["actuator"]["can_id"] = serde_json::json!(200);
    json["joints"][2]["actuator"]["direction"] = serde_json::json!(0);
    json["joints"][3]["surprise"] = serde_json::json!(true);
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.instance_path().to_string())
        .collect();
    // An optional field's schema is `anyOf [X, null]`, so its errors are reported at the field.
    assert_eq!(
        errors,
        ["/joints/1/actuator", "/joints/2/actuator", "/joints/3"],
        "{errors:?}"
    );
    let valid: serde_json::Value =
        serde_json::from_str(&emit::robot_json(robots::LiteBiped::DESCRIPTION).expect("json"))
            .expect("JSON");
    let mut one = valid.clone();
    one["joints"][1]["actuator"]["can_id"] = serde_json::json!(200);
    let message = validator
        .iter_errors(&one)
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ");
    assert!(!message.is_empty(), "can_id 200 accepted");
}

#[test]
fn the_squat_bottom_pose_keeps_the_feet_level_under_the_pelvis_in_mujoco() {
    // The squat controller's sign conventions (hip and ankle negative, knee positive) checked
    // against the real kinematics: MuJoCo's forward kinematics of the emitted model.
    use robot_core::control_loop::Controller;
    use robot_core::hardware::Clock;
    use std::time::Duration;

    let mut squat = robots::controllers::Squat::default();
    let mut command = robots::LiteBipedCommand::default();
    let state = robots::LiteBipedState::default();
    squat
        .on_activate(Clock::default(), &state, &mut command)
        .unwrap();
    let bottom = Duration::from_secs_f64(squat.ramp + squat.period / 2.0);
    squat
        .update(
            Clock {
                time: bottom,
                period: Duration::from_millis(5),
            },
            &state,
            &mut command,
        )
        .unwrap();
    let targets = [
        ("left_hip_pitch", command.left_hip_pitch.position),
        ("left_knee_pitch", command.left_knee_pitch.position),
        ("left_ankle_pitch", command.left_ankle_pitch.position),
        ("right_hip_pitch", command.right_hip_pitch.position),
        ("right_knee_pitch", command.right_knee_pitch.position),
        ("right_ankle_pitch", command.right_ankle_pitch.position),
    ];
    let (_keep, dir) = emitted(robots::LiteBiped::DESCRIPTION);
    let script = r#"
import json, sys, mujoco, numpy as np
m = mujoco.MjModel.from_xml_path(sys.argv[1]); d = mujoco.MjData(m)
targets = json.loads(sys.argv[2])
def feet(q):
    mujoco.mj_resetData(m, d)
    for name, value in q.items():
        d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = value
    mujoco.mj_kinematics(m, d)
    pelvis = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, "pelvis")
    Rp = d.xmat[pelvis].reshape(3, 3)
    out = {}
    for side in ("left", "right"):
        foot = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, side + "_foot")
        out[side] = (Rp.T @ d.xmat[foot].reshape(3, 3), Rp.T @ (d.xpos[foot] - d.xpos[pelvis]))
    return out
stand, squat = feet({}), feet(targets)
result = {}
for side in ("left", "right"):
    rel = stand[side][0].T @ squat[side][0]
    tilt = float(np.degrees(np.arccos(np.clip((np.trace(rel) - 1) / 2, -1, 1))))
    rise = float(squat[side][1][2] - stand[side][1][2])
    forward = float(squat[side][1][0] - stand[side][1][0])
    result[side] = [tilt, rise, forward]
print(json.dumps(result))
"#;
    let targets = serde_json::Value::Object(
        targets
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect(),
    );
    let Some(mut python) = require(Tool::Mujoco) else {
        return;
    };
    python
        .arg("-c")
        .arg(script)
        .arg(dir.join("lite_biped.mjcf.xml"))
        .arg(targets.to_string());
    let (ok, text) = run(python);
    assert!(ok, "{text}");
    let result: serde_json::Value = serde_json::from_str(text.trim()).expect("json");
    for side in ["left", "right"] {
        let [tilt, rise, forward] = [0, 1, 2].map(|i| result[side][i].as_f64().expect("number"));
        assert!(
            tilt < 6.0,
            "{side} foot tilts {tilt:.2}° at the bottom of the squat"
        );
        assert!(
            rise > 0.03,
            "{side} foot rises only {rise:.3} m towards the pelvis"
        );
        assert!(
            forward.abs() < 0.02,
            "{side} foot moves {forward:.3} m fore-aft"
        );
    }
}
