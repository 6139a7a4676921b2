//! The runtime configurations: every sample in `robots/configs/` loads against its robot and
//! passes the PyPI `check-jsonschema` against the checked-in `schema/config.schema.json`, and the
//! loader and that tool agree on what the schema rejects.
//!
//! `check-jsonschema` is installed by `scripts/install-tools.sh` (which `scripts/test` runs
//! first) and found by `integration_tests::tools`: missing, it fails the test on CI and is a loud
//! `SKIPPED` elsewhere (the loader's own checks still run).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};

use integration_tests::tools::{Tool, require};
use robot_core::Robot;
use robot_core::config;
use robots::checked_in::workspace_root;

const HEADER: &str = "# yaml-language-server: $schema=../../schema/config.schema.json";

fn configs_dir() -> PathBuf {
    workspace_root().join("robots").join("configs")
}

/// Every `*.yaml` in `robots/configs/`, sorted.
fn sample_configs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(configs_dir())
        .expect("robots/configs/")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// `check-jsonschema --schemafile schema/config.schema.json FILE`: whether it accepts, and what
/// it said; `None` when the tool is not installed (and this is not CI).
fn check_jsonschema(file: &Path) -> Option<(bool, String)> {
    let output = require(Tool::CheckJsonschema)?
        .arg("--schemafile")
        .arg(workspace_root().join("schema").join("config.schema.json"))
        .arg(file)
        .output()
        .expect("run check-jsonschema");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Some((output.status.success(), text))
}

fn robot_named(name: &str) -> &'static Robot {
    robots::all()
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no shipped robot `{name}`"))
}

#[test]
fn every_shipped_robot_has_a_mock_sample() {
    let files = sample_configs();
    for robot in robots::all() {
        let name = format!("{}.mock.yaml", robot.name);
        assert!(
            files
                .iter()
                .any(|f| f.file_name().is_some_and(|n| n == name.as_str())),
            "robots/configs/{name} is missing"
        );
    }
}

#[test]
fn every_sample_config_loads_against_its_robot() {
    let files = sample_configs();
    assert!(files.len() >= 4, "samples: {files:?}");
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        // `<robot>.<backend>.yaml`, or `<robot>.sim.yaml` for the real path on simulated buses
        let parts: Vec<&str> = name.split('.').collect();
        let [robot, backend, "yaml"] = parts.as_slice() else {
            panic!("{name} is not named `<robot>.<backend>.yaml`");
        };
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            text.lines().next(),
            Some(HEADER),
            "{name} must start with the schema line, so editors complete it"
        );
        let loaded = config::load(&file, robot_named(robot)).unwrap_or_else(|e| panic!("{e}"));
        if *backend == "sim" {
            // `<robot>.sim.yaml`: the real backend with every bus on simulated actuators.
            assert_eq!(loaded.backend.name(), "real", "{name}: backend");
            for bus in robot_named(robot).buses.iter() {
                assert_eq!(
                    loaded.interface_of(&bus.name),
                    Some(config::SIMULATED_BUS),
                    "{name}: {}",
                    bus.name
                );
            }
        } else {
            assert_eq!(loaded.backend.name(), *backend, "{name}: backend");
        }
        assert_eq!(loaded.robot, *robot, "{name}: robot");
    }
}

#[test]
fn every_sample_config_passes_check_jsonschema() {
    for file in sample_configs() {
        let Some((ok, text)) = check_jsonschema(&file) else {
            return;
        };
        assert!(ok, "check-jsonschema rejects {}: {text}", file.display());
    }
}

#[test]
fn the_real_sample_maps_every_bus_and_calibrates_a_joint() {
    let robot = robots::LiteBiped::DESCRIPTION;
    let loaded = config::load(&configs_dir().join("lite_biped.real.yaml"), robot).unwrap();
    assert_eq!(loaded.interface_of("left_leg"), Some("can0"));
    assert_eq!(loaded.interface_of("right_leg"), Some("can1"));
    let knee = robot.joint("left_knee_pitch").unwrap();
    assert_eq!(loaded.zero_offset(knee), 0.0123);
    assert!(robot.joints.iter().all(|j| loaded.joint_enabled(&j.name)));
}

/// What the schema says is checked in two places: by the loader (jsonschema, in process) and by
/// editors and `check-jsonschema` (the checked-in file). They must reject the same things; the
/// robot-specific checks are the loader's alone.
#[test]
fn the_loader_and_check_jsonschema_agree_on_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let robot = robots::LiteBiped::DESCRIPTION;
    let cases = [
        (
            "wrong-type.yaml",
            "robot: lite_biped\nbackend: mock\njoints:\n  left_knee_pitch:\n    enabled: \"yes\"\n",
            Some("joints.left_knee_pitch.enabled: expected a boolean, found \"yes\""),
        ),
        (
            "unknown-field.yaml",
            "robot: lite_biped\nbackend: mock\nbuses: {}\ncalibration: {}\n",
            Some(
                "calibration: unknown field \"calibration\"; known fields are backend, buses, imus, joints, mujoco, robot, ros, sensors, topic",
            ),
        ),
        (
            "unknown-joint-field.yaml",
            "robot: lite_biped\nbackend: mock\njoints:\n  left_knee_pitch: { offset: 0.1 }\n",
            Some(
                "joints.left_knee_pitch.offset: unknown field \"offset\"; known fields are enabled, zero_offset",
            ),
        ),
        (
            "unknown-backend.yaml",
            "robot: lite_biped\nbackend: gazebo\n",
            Some("backend: expected one of real, mujoco, mock, topic, found \"gazebo\""),
        ),
        (
            "bad-topic-name.yaml",
            "robot: lite_biped\nbackend: topic\ntopic:\n  joint_states_topic: /robot//states\n",
            Some(
                "topic.joint_states_topic: \"/robot//states\" does not match \"^/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$\"",
            ),
        ),
        (
            "topic-stale-zero.yaml",
            "robot: lite_biped\nbackend: topic\ntopic:\n  stale_after_ms: 0\n",
            Some("topic.stale_after_ms: 0 is less than or equal to the minimum of 0"),
        ),
        (
            "missing-backend.yaml",
            "robot: lite_biped\n",
            Some("backend: required field is missing"),
        ),
        // Valid by the schema, wrong for this robot: only the loader can tell.
        (
            "unknown-bus.yaml",
            "robot: lite_biped\nbackend: real\nbuses:\n  left_lge: can0\n  left_leg: can0\n  right_leg: can1\n",
            None,
        ),
        (
            "bad-mujoco-model.yaml",
            "robot: lite_biped\nbackend: mujoco\nmujoco:\n  model: stnad\n",
            None,
        ),
    ];
    for (name, yaml, schema_error) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, yaml).unwrap();
        let tool = check_jsonschema(&file);
        let loaded = config::load(&file, robot);
        let error = loaded.expect_err(name).to_string();
        assert!(error.contains(&file.display().to_string()), "{error}");
        match schema_error {
            Some(expected) => {
                if let Some((accepts, text)) = &tool {
                    assert!(!accepts, "check-jsonschema accepts {name}: {text}");
                }
                assert_eq!(error, format!("{}: {expected}", file.display()));
            }
            None => {
                if let Some((accepts, text)) = &tool {
                    assert!(accepts, "check-jsonschema rejects {name}: {text}");
                }
                let expected = match name {
                    "unknown-bus.yaml" => {
                        "buses.left_lge: unknown bus; did you mean `left_leg`? lite_biped has left_leg, right_leg"
                    }
                    _ => {
                        "mujoco.model: expected `scene`, `stand` or the path of an MJCF file ending in `.xml`, found \"stnad\"; did you mean `stand`?"
                    }
                };
                assert!(error.contains(expected), "{error}");
            }
        }
    }
}

#[test]
fn a_yaml_syntax_error_names_the_file_and_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.yaml");
    std::fs::write(
        &file,
        "robot: lite_biped\nbackend: mock\njoints:\n  left_knee_pitch: {enabled: false\n",
    )
    .unwrap();
    let error = config::load(&file, robots::LiteBiped::DESCRIPTION)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(&format!("{}: invalid YAML: ", file.display())),
        "{error}"
    );
    assert!(error.contains(" at line "), "{error}");
}
