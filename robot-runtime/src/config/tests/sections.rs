//! The backend sections of a configuration (`mujoco`, `imus`, `topic`) and `ros`: their defaults, and
//! each bad setting rejected at its field.

use super::*;

#[test]
fn the_mujoco_model_is_a_scene_the_stand_or_an_mjcf_file() {
    let model =
        |yaml: &str| ok(&format!("robot: test_bot\nbackend: mujoco\n{yaml}")).mujoco_model();
    assert_eq!(model(""), MujocoModel::Scene, "the floor scene by default");
    assert_eq!(model("mujoco: {}\n"), MujocoModel::Scene);
    assert_eq!(model("mujoco: { model: stand }\n"), MujocoModel::Stand);
    assert_eq!(
        model("mujoco: { model: models/tuned.xml }\n"),
        MujocoModel::File("models/tuned.xml".into()),
        "kept as written by `parse`"
    );
}

#[test]
fn a_bad_mujoco_model_names_the_field() {
    let text = rejected("robot: test_bot\nbackend: mujoco\nmujoco: { model: stnad }\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: mujoco.model: expected `scene`, `stand` or the path of an MJCF file ending \
             in `.xml`, found \"stnad\"; did you mean `stand`?"
        )
    );
    let text = rejected("robot: test_bot\nbackend: mujoco\nmujoco: { model: 3, base: fixed }\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: mujoco.model: expected a string, found 3\n\
             {FILE}: mujoco.base: unknown field \"base\"; known fields are model, stop_on_fall"
        )
    );
}

#[test]
fn load_takes_a_relative_mujoco_model_from_the_file_s_folder_and_needs_it_to_exist() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("models")).unwrap();
    std::fs::write(dir.path().join("models/tuned.xml"), "<mujoco/>").unwrap();
    let config = dir.path().join("bot.yaml");
    let yaml =
        |model: &str| format!("robot: test_bot\nbackend: mujoco\nmujoco: {{ model: {model} }}\n");
    std::fs::write(&config, yaml("models/tuned.xml")).unwrap();
    let loaded = load(&config, &fixture::robot()).unwrap();
    assert_eq!(
        loaded.mujoco_model(),
        MujocoModel::File(dir.path().join("models/tuned.xml"))
    );
    std::fs::write(&config, yaml("models/missing.xml")).unwrap();
    let error = load(&config, &fixture::robot()).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "{}: mujoco.model: no MJCF file `{}` (a relative path is from the configuration's folder)",
            config.display(),
            dir.path().join("models/missing.xml").display()
        )
    );
}

#[test]
fn an_imu_gets_its_port_and_baud_and_the_defaults() {
    let config = ok(
        "robot: test_bot\nbackend: real\nbuses: { front: sim, rear: sim }\nimus:\n  base_imu: { port: /dev/ttyUSB0, baud: 460800 }\n",
    );
    let imu = config.imu("base_imu").unwrap();
    assert_eq!(
        (imu.port.as_str(), imu.baud),
        ("/dev/ttyUSB0", Some(460_800))
    );
    assert_eq!(imu.rate(), DEFAULT_IMU_RATE_HZ);
    assert!(!imu.configure_device && imu.max_age_ms.is_none() && !imu.is_simulated());
    let sim = ok(
        "robot: test_bot\nbackend: mock\nimus:\n  base_imu: { port: sim, baud: 9600, rate_hz: 50, configure_device: true, max_age_ms: 100 }\n",
    );
    let imu = sim.imu("base_imu").unwrap();
    assert!(imu.is_simulated() && imu.configure_device);
    assert_eq!((imu.rate(), imu.max_age_ms), (50, Some(100)));
}

#[test]
fn an_imu_setting_is_checked_naming_the_field() {
    let text = rejected(
        "robot: test_bot\nbackend: real\nimus:\n  base_imus: { port: ttyUSB0, baud: 460801, rate_hz: 7 }\n",
    );
    assert!(
        text.contains(
            "imus.base_imus: unknown IMU; did you mean `base_imu`? test_bot has base_imu"
        ),
        "{text}"
    );
    assert!(
        text.contains("imus.base_imus.port: expected the absolute path of a serial device (`/dev/ttyUSB0`; `ls /dev/serial/by-id` lists stable names) or `sim`, found \"ttyUSB0\""),
        "{text}"
    );
    assert!(text.contains("imus.base_imus.baud: "), "{text}");
    assert!(text.contains("imus.base_imus.rate_hz: "), "{text}");
    // A serial port needs its baud; the simulated device runs at the shipped robot's.
    let missing =
        rejected("robot: test_bot\nbackend: real\nimus:\n  base_imu: { port: /dev/ttyUSB0 }\n");
    assert!(
        missing.contains(
            "imus.base_imu.baud: required for a serial port: the rate the device is set to \
             (`robot imu scan --port /dev/ttyUSB0` finds it); only `port: sim` may leave it out"
        ),
        "{missing}"
    );
    let sim = ok(
        "robot: test_bot\nbackend: real\nbuses: { front: sim, rear: sim }\nimus:\n  base_imu: { port: sim }\n",
    );
    let imu = sim.imu("base_imu").unwrap();
    assert_eq!((imu.baud, imu.baud()), (None, Some(460_800)));
}

#[test]
fn the_topic_section_defaults_to_upstreams_parameters() {
    let config = ok("robot: test_bot\nbackend: topic\n");
    assert_eq!(config.backend, Backend::Topic);
    assert_eq!(config.topic, TopicConfig::default());
    assert_eq!(config.topic.joint_commands_topic, "/robot_joint_commands");
    assert_eq!(config.topic.joint_states_topic, "/robot_joint_states");
    assert_eq!(config.topic.trigger_joint_command_threshold, 1e-5);
    assert_eq!(config.topic.imu_topic.as_deref(), Some("/imu/data"));
    let config = ok(
        "robot: test_bot\nbackend: topic\ntopic:\n  imu_topic: null\n  \
                     trigger_joint_command_threshold: -1\n  stale_after_ms: 40\n",
    );
    assert_eq!(config.topic.imu_topic, None);
    assert_eq!(config.topic.stale_after_ms, Some(40.0));
}

#[test]
fn bad_topic_settings_are_rejected_at_their_field() {
    let text = rejected(
        "robot: test_bot\nbackend: topic\ntopic:\n  joint_states_topic: /joint states\n  \
         stale_after_ms: 0\n  domain_id: 300\n",
    );
    assert_eq!(
        text,
        format!(
            "{FILE}: topic.domain_id: 300 is greater than the maximum of 232\n\
             {FILE}: topic.joint_states_topic: \"/joint states\" does not match \
             \"^/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$\"\n\
             {FILE}: topic.stale_after_ms: 0 is less than or equal to the minimum of 0"
        )
    );
    assert_eq!(
        rejected(
            "robot: test_bot\nbackend: topic\ntopic:\n  trigger_joint_command_threshold: often\n"
        ),
        format!(
            "{FILE}: topic.trigger_joint_command_threshold: expected a number, found \"often\""
        )
    );
}

#[test]
fn the_ros_section_is_optional_and_has_ros_defaults() {
    assert_eq!(ok("robot: test_bot\nbackend: mock\n").ros, None);
    let config = ok("robot: test_bot\nbackend: mock\nros: {}\n");
    assert_eq!(config.ros, Some(RosConfig::default()));
    let ros = RosConfig::default();
    assert_eq!((ros.rate_hz, ros.diagnostics_hz), (500.0, 1.0));
    assert_eq!((ros.namespace.as_str(), ros.domain_id), ("", None));
    let config = ok(
        "robot: test_bot\nbackend: mock\nros:\n  namespace: /robot1\n  domain_id: 7\n  \
         rate_hz: 100\n  topics: { tf: false }\n",
    );
    let ros = config.ros.unwrap();
    assert_eq!(ros.namespace, "/robot1");
    assert_eq!(ros.domain_id, Some(7));
    assert_eq!(ros.rate_hz, 100.0);
    assert!(!ros.topics.tf && ros.topics.joint_states && ros.topics.diagnostics);
}

#[test]
fn bad_ros_settings_are_rejected_at_their_field() {
    let text = rejected(
        "robot: test_bot\nbackend: mock\nros:\n  namespace: robot 1\n  rate_hz: 0\n  \
         topics: { joints: true }\n",
    );
    assert_eq!(
        text,
        format!(
            "{FILE}: ros.namespace: \"robot 1\" does not match \"{NAMESPACE_PATTERN}\"\n\
             {FILE}: ros.rate_hz: 0 is less than or equal to the minimum of 0\n\
             {FILE}: ros.topics.joints: unknown field \"joints\"; known fields are diagnostics, \
             imu, joint_states, robot_description, tf, wrench"
        )
    );
}
