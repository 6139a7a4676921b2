//! The configuration loader as a user meets it: one fixture robot, one small file per rule, and
//! assertions on the message text.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;

use super::*;
use robot_model::fixture;

const FILE: &str = "configs/test_bot.yaml";

fn ok(yaml: &str) -> RuntimeConfig {
    match parse(yaml, FILE, &fixture::robot()) {
        Ok(config) => config,
        Err(e) => panic!("rejected:\n{e}"),
    }
}

/// The error text, after checking that every line starts with the file name.
fn rejected(yaml: &str) -> String {
    let error = parse(yaml, FILE, &fixture::robot()).expect_err("accepted");
    assert_eq!(error.file, Path::new(FILE));
    let text = error.to_string();
    assert_eq!(text.lines().count(), error.errors.len(), "{text}");
    for line in text.lines() {
        assert!(line.starts_with(&format!("{FILE}: ")), "{line}");
    }
    text
}

#[test]
fn a_minimal_file_keeps_every_default() {
    let config = ok("robot: test_bot\nbackend: mock\n");
    assert_eq!(config.backend, Backend::Mock);
    assert!(config.buses.is_empty() && config.joints.is_empty());
    let robot = fixture::robot();
    assert!(robot.joints.iter().all(|j| config.joint_enabled(&j.name)));
    let ankle = robot.joint("ankle").unwrap();
    assert_eq!(config.zero_offset(ankle), 0.25, "the definition's");
    assert_eq!(config.interface_of("front"), None);
}

#[test]
fn a_disabled_joint_and_a_zero_offset_come_through() {
    let config = ok(r#"
robot: test_bot
backend: real
buses: { front: can0, rear: vcan1 }
joints:
  ankle: { zero_offset: -0.125 }
  wheel: { enabled: false }
  slider: { enabled: true, zero_offset: null }
"#);
    let robot = fixture::robot();
    assert_eq!(config.zero_offset(robot.joint("ankle").unwrap()), -0.125);
    assert_eq!(config.zero_offset(robot.joint("wheel").unwrap()), -0.5);
    assert_eq!(config.zero_offset(robot.joint("slider").unwrap()), 0.0);
    assert_eq!(config.zero_offset(robot.joint("imu_mount").unwrap()), 0.0);
    assert!(!config.joint_enabled("wheel"));
    assert!(config.joint_enabled("slider") && config.joint_enabled("ankle"));
    assert_eq!(config.disabled_joints().collect::<Vec<_>>(), ["wheel"]);
    assert_eq!(config.interface_of("rear"), Some("vcan1"));
    assert_eq!(config.joints["wheel"].zero_offset, None);
}

#[test]
fn wrong_type() {
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle:\n    enabled: yes\n");
    assert_eq!(
        text,
        format!("{FILE}: joints.ankle.enabled: expected a boolean, found \"yes\"")
    );
    let text =
        rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle:\n    zero_offset: [1]\n");
    assert!(
        text.contains("joints.ankle.zero_offset: expected a number or null, found a list"),
        "{text}"
    );
    let text = rejected("robot: test_bot\nbackend: mock\nbuses: [can0]\n");
    assert!(
        text.contains("buses: expected a mapping, found a list"),
        "{text}"
    );
}

#[test]
fn unknown_field_at_the_top_level() {
    let text = rejected("robot: test_bot\nbackend: mock\nbus:\n  front: can0\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: bus: unknown field \"bus\"; known fields are backend, buses, imus, joints, mujoco, robot, ros, sensors, topic"
        )
    );
}

#[test]
fn unknown_field_inside_a_joint() {
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle:\n    enable: false\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: joints.ankle.enable: unknown field \"enable\"; known fields are enabled, zero_offset"
        )
    );
}

#[test]
fn unknown_backend() {
    let text = rejected("robot: test_bot\nbackend: gazebo\n");
    assert_eq!(
        text,
        format!("{FILE}: backend: expected one of real, mujoco, mock, topic, found \"gazebo\"")
    );
}

#[test]
fn missing_fields() {
    let text = rejected("robot: test_bot\n");
    assert_eq!(text, format!("{FILE}: backend: required field is missing"));
    let text = rejected("");
    assert_eq!(text, format!("{FILE}: expected a mapping, found null"));
}

#[test]
fn unknown_bus() {
    let text = rejected("robot: test_bot\nbackend: mock\nbuses:\n  frnt: can0\n");
    assert_eq!(
        text,
        format!("{FILE}: buses.frnt: unknown bus; did you mean `front`? test_bot has front, rear")
    );
}

#[test]
fn unknown_joint() {
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankel: { enabled: false }\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: joints.ankel: unknown joint; did you mean `ankle`? the actuated joints of test_bot are ankle, slider, wheel"
        )
    );
}

#[test]
fn a_joint_without_an_actuator_has_no_unit_settings() {
    let text = rejected(
        "robot: test_bot\nbackend: mock\njoints:\n  follower: { zero_offset: 0.1 }\n  imu_mount: { enabled: false }\n",
    );
    assert!(
        text.contains(
            "joints.follower.zero_offset: follower has no actuator, so no zero offset to calibrate"
        ),
        "{text}"
    );
    assert!(
        text.contains("joints.imu_mount.enabled: imu_mount has no actuator, so nothing to disable"),
        "{text}"
    );
    // Saying what is already so is not an error.
    ok("robot: test_bot\nbackend: mock\njoints:\n  follower: { enabled: true }\n");
}

#[test]
fn wrong_robot() {
    let text = rejected("robot: lite_biped\nbackend: mock\n");
    assert_eq!(
        text,
        format!("{FILE}: robot: expected test_bot, found \"lite_biped\"")
    );
}

#[test]
fn real_backend_needs_every_bus_interface() {
    let text = rejected("robot: test_bot\nbackend: real\nbuses:\n  front: can0\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: buses.rear: missing; backend real needs the OS interface of every bus, e.g. `rear: can0`"
        )
    );
    // Simulators and the mock need none.
    ok("robot: test_bot\nbackend: mujoco\n");
}

#[test]
fn bad_interface_name() {
    let text = rejected(
        "robot: test_bot\nbackend: real\nbuses:\n  front: can 0\n  rear: a_very_long_can_name\n",
    );
    let expected = "expected a Linux interface name (1 to 15 bytes, no `/`, `:` or whitespace)";
    assert_eq!(
        text,
        format!(
            "{FILE}: buses.front: {expected}, found \"can 0\"\n\
             {FILE}: buses.rear: {expected}, found \"a_very_long_can_name\""
        )
    );
}

#[test]
fn yaml_syntax_error_keeps_its_position() {
    let text = rejected("robot: test_bot\nbackend: mock\n joints: {}\n");
    assert!(
        text.starts_with(&format!("{FILE}: invalid YAML: ")),
        "{text}"
    );
    assert!(text.contains("at line 3 column"), "{text}");
}

#[test]
fn an_indentation_slip_names_the_line_of_the_key_it_runs_into() {
    // `rear` is indented deeper than `front`: YAML reads it as more of `front`'s value, and
    // complains only at its `:`, so the message says which line it ran into.
    let text = rejected("robot: test_bot\nbackend: real\nbuses:\n  front: can0\n   rear: can1\n");
    assert!(
        text.ends_with(
            "; line 5 is indented deeper than line 4 (`front`), so YAML reads it as more of \
             `front`'s value: indent it as line 4 (2 spaces) or fix line 4"
        ),
        "{text}"
    );
    // Indented less than the entries above it, but more than their parent: fits no block.
    let text = rejected("robot: test_bot\nbackend: real\nbuses:\n  front: can0\n rear: can1\n");
    assert!(
        text.ends_with(
            "; line 5 is indented 1 space, less than line 4 (`front`, 2 spaces) above it but \
             more than their parent: indent it as one or the other"
        ),
        "{text}"
    );
}

#[test]
fn a_duplicate_key_names_its_own_line() {
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle: {}\n  ankle: {}\n");
    assert_eq!(
        text,
        format!("{FILE}: joints.ankle: duplicate key at line 5 column 3; a key may appear once")
    );
    // At the top level the library would say `line 1 column 1`, the start of the file.
    let text = rejected("robot: test_bot\nbackend: mock\n\nbackend: real\n");
    assert_eq!(
        text,
        format!("{FILE}: backend: duplicate key at line 4 column 1; a key may appear once")
    );
    // In a flow mapping, in a list, and for keys that are not strings.
    let text = rejected("robot: test_bot\nbackend: mock\nbuses: {front: can0,\n  front: can1}\n");
    assert!(
        text.ends_with("buses.front: duplicate key at line 4 column 3; a key may appear once"),
        "{text}"
    );
    let text = rejected("- 1\n- {a: 1, b: 2, a: 3}\n");
    assert!(
        text.ends_with("1.a: duplicate key at line 2 column 16; a key may appear once"),
        "{text}"
    );
    let text = rejected("robot: test_bot\n7: a\n7: b\n");
    assert!(
        text.ends_with("7: duplicate key at line 3 column 1; a key may appear once"),
        "{text}"
    );
}

#[test]
fn what_json_cannot_say_is_rejected_at_its_field() {
    let text =
        rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle: { zero_offset: .nan }\n");
    assert_eq!(
        text,
        format!("{FILE}: joints.ankle.zero_offset: expected a finite number, found .nan")
    );
    let text = rejected("robot: test_bot\nbackend: !real x\n");
    assert!(
        text.contains("backend: YAML tags are not supported, found `!real`"),
        "{text}"
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let error = parse(
        "robot: test_bot\nbackend: simulated\nsurprise: 1\njoints:\n  ankle: { enabled: 1, colour: red }\n",
        FILE,
        &fixture::robot(),
    )
    .expect_err("accepted");
    let paths: Vec<&str> = error.errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(error.errors.len(), 4, "{error}");
    for path in [
        "backend",
        "surprise",
        "joints.ankle.enabled",
        "joints.ankle.colour",
    ] {
        assert!(paths.contains(&path), "{path} missing from {paths:?}");
    }
}

#[test]
fn keys_that_are_not_plain_names_are_quoted() {
    let text = rejected("robot: test_bot\nbackend: mock\nbuses:\n  left leg: can0\n");
    assert!(text.contains("buses.\"left leg\": unknown bus"), "{text}");
}

#[test]
fn peek_robot_reads_only_the_robot() {
    assert_eq!(
        peek_robot("robot: lite_biped\nbackend: nonsense\n", FILE).unwrap(),
        "lite_biped"
    );
    let error = peek_robot("backend: mock\n", FILE).unwrap_err().to_string();
    assert_eq!(error, format!("{FILE}: robot: required field is missing"));
    assert!(peek_robot("robot: [", FILE).is_err());
}

#[test]
fn a_file_that_cannot_be_read_names_itself() {
    let error = load(Path::new("no/such/config.yaml"), &fixture::robot()).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("no/such/config.yaml: cannot read the file: "),
        "{error}"
    );
}

#[test]
fn a_type_error_hides_no_mistake_against_the_robot() {
    let text = rejected(
        "robot: test_bot\nbackend: real\nbuses:\n  front: 5\n  frnt: can0\njoints:\n  ankle: { enabled: \"yes\" }\n  ankel: { enabled: false }\n",
    );
    for expected in [
        "buses.front: expected a string, found 5",
        "joints.ankle.enabled: expected a boolean, found \"yes\"",
        "buses.frnt: unknown bus; did you mean `front`? test_bot has front, rear",
        "buses.rear: missing; backend real needs the OS interface of every bus",
        "joints.ankel: unknown joint",
    ] {
        assert!(text.contains(expected), "{expected} missing from\n{text}");
    }
    assert_eq!(text.lines().count(), 5, "{text}");
}

#[test]
fn a_bad_backend_hides_no_unknown_joint() {
    let text = rejected("robot: test_bot\nbackend: 5\njoints:\n  ankel: { enabled: false }\n");
    assert!(text.contains("backend: "), "{text}");
    assert!(text.contains("joints.ankel: unknown joint"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn a_part_of_the_wrong_shape_adds_no_follow_on_errors() {
    // `buses` is not a mapping: no bus is "missing" on top of that.
    let text = rejected("robot: test_bot\nbackend: real\nbuses: [can0, can1]\n");
    assert_eq!(
        text,
        format!("{FILE}: buses: expected a mapping, found a list")
    );
    // A joint's settings are not a mapping: its name is still checked.
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankel: 5\n");
    assert!(
        text.contains("joints.ankel: expected a mapping, found 5"),
        "{text}"
    );
    assert!(text.contains("joints.ankel: unknown joint"), "{text}");
}

#[test]
fn what_json_cannot_say_hides_nothing_else() {
    let text = rejected(
        "robot: test_bot\nbackend: !real x\njoints:\n  ankle: { zero_offset: .nan }\n  ankel: {}\n",
    );
    assert_eq!(
        text,
        format!(
            "{FILE}: backend: YAML tags are not supported, found `!real`\n\
             {FILE}: joints.ankle.zero_offset: expected a finite number, found .nan\n\
             {FILE}: joints.ankel: unknown joint; did you mean `ankle`? the actuated joints of test_bot are ankle, slider, wheel"
        )
    );
}

#[test]
fn without_a_robot_the_other_mistakes_are_still_reported() {
    let error = peek_robot("robot: 5\nbackend: gazebo\n", FILE).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{FILE}: robot: expected a string, found 5\n\
             {FILE}: backend: expected one of real, mujoco, mock, topic, found \"gazebo\""
        )
    );
    let error = peek_robot("robot: !x lite_biped\nbackend: mock\n", FILE).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{FILE}: robot: YAML tags are not supported, found `!x`")
    );
    let error = peek_robot("", FILE).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{FILE}: expected a mapping, found null")
    );
}

#[test]
fn a_backend_of_the_wrong_type_names_the_backends() {
    for (value, found) in [
        ("5", "5"),
        ("[real]", "a list"),
        ("null", "null"),
        ("true", "true"),
    ] {
        let text = rejected(&format!("robot: test_bot\nbackend: {value}\n"));
        assert_eq!(
            text,
            format!("{FILE}: backend: expected one of real, mujoco, mock, topic, found {found}")
        );
    }
}

#[test]
fn two_buses_on_one_interface_are_refused() {
    let text = rejected("robot: test_bot\nbackend: real\nbuses:\n  front: can0\n  rear: can0\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: buses.rear: buses `front` and `rear` are both on `can0`; each bus needs an interface of its own"
        )
    );
    // The simulators ignore the interfaces, but a file that says two buses share a wire is wrong
    // whatever it runs on.
    let text = rejected("robot: test_bot\nbackend: mock\nbuses: { front: vcan0, rear: vcan0 }\n");
    assert!(text.contains("both on `vcan0`"), "{text}");
    ok("robot: test_bot\nbackend: real\nbuses: { front: can0, rear: can1 }\n");
    // Each bus that names the simulated bus gets one of its own.
    ok("robot: test_bot\nbackend: real\nbuses: { front: sim, rear: sim }\n");
}

#[test]
fn a_zero_offset_keeps_the_joints_range_within_the_turn_counter() {
    let text = rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle: { zero_offset: 1e9 }\n");
    assert_eq!(
        text,
        format!(
            "{FILE}: joints.ankle.zero_offset: the zero offset of `ankle`, 1e9 rad, is beyond the ±4096 rad its RS00's turns are counted over"
        )
    );
    let text =
        rejected("robot: test_bot\nbackend: mock\njoints:\n  wheel: { zero_offset: -4097 }\n");
    assert!(
        text.contains("the zero offset of `wheel`, -4097 rad, is beyond the ±4096 rad its RS02's"),
        "{text}"
    );
    let text =
        rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle: { zero_offset: -1.5e300 }\n");
    assert!(
        text.contains("the zero offset of `ankle`, -1.5e300 rad, is beyond"),
        "{text}"
    );
    // Within the counter, but with the joint's range past it: the definition's rule.
    let text =
        rejected("robot: test_bot\nbackend: mock\njoints:\n  ankle: { zero_offset: 4095.5 }\n");
    assert!(
        text.starts_with(&format!(
            "{FILE}: joints.ankle.zero_offset: with a zero offset of 4095.5 rad, the upper limit of \
             `ankle` ("
        )) && text.contains("beyond the ±4096 rad its RS00's turns are counted over"),
        "{text}"
    );
    // Beyond the MIT frame's ±4π is no longer refused: the backend counts the turns, for a joint
    // with a range as for a continuous one.
    let span = crate::actuator::POSITION_SPAN;
    ok(&format!(
        "robot: test_bot\nbackend: mock\njoints:\n  ankle: {{ zero_offset: 12 }}\n  wheel: {{ zero_offset: -{span} }}\n"
    ));
    ok(
        "robot: test_bot\nbackend: mock\njoints:\n  ankle: { zero_offset: 30 }\n  wheel: { zero_offset: -12.6 }\n",
    );
}

#[test]
fn an_unknown_robot_names_the_file_and_field_and_suggests_a_name() {
    let known = ["lite_biped", "six_axis_arm"];
    let error = unknown_robot(Path::new(FILE), "lite_bipd", &known);
    assert_eq!(error.file, Path::new(FILE));
    assert_eq!(
        error.to_string(),
        format!(
            "{FILE}: robot: unknown robot \"lite_bipd\"; known robots are lite_biped, six_axis_arm; did you mean `lite_biped`?"
        )
    );
    let error = unknown_robot(Path::new(FILE), "quadruped", &known);
    assert_eq!(
        error.to_string(),
        format!(
            "{FILE}: robot: unknown robot \"quadruped\"; known robots are lite_biped, six_axis_arm"
        )
    );
    let error = unknown_robot(Path::new(FILE), "x", &[]);
    assert_eq!(
        error.to_string(),
        format!("{FILE}: robot: unknown robot \"x\"; no robots are known")
    );
}

/// The backend sections: `mujoco`, `imus`, `topic`.
mod sections;

#[test]
fn one_run_is_one_dds_domain() {
    let two = rejected(
        "robot: test_bot\nbackend: topic\ntopic: { domain_id: 3 }\nros: { domain_id: 5 }\n",
    );
    assert_eq!(
        two,
        "configs/test_bot.yaml: topic.domain_id: 3, but ros.domain_id is 5: a run is one DDS \
         participant in one domain; give one of them, or the same in both"
    );
    let same =
        ok("robot: test_bot\nbackend: topic\ntopic: { domain_id: 5 }\nros: { domain_id: 5 }\n");
    assert_eq!(same.topic.domain_id, Some(5));
    let one = ok("robot: test_bot\nbackend: topic\ntopic: { domain_id: 3 }\n");
    assert_eq!(one.topic.domain_id, Some(3));
    assert_eq!(
        ok("robot: test_bot\nbackend: topic\n").topic.domain_id,
        None
    );
}

/// With the fixture's foot sensors: a force/torque sensor `ankle_ft`, a contact `toe_contact`.
fn with_foot_sensors(yaml: &str) -> Result<RuntimeConfig, String> {
    parse(yaml, FILE, &fixture::robot_with_foot_sensors()).map_err(|e| e.to_string())
}

#[test]
fn a_sensor_is_read_from_a_topic_or_undriven_on_purpose() {
    let config = with_foot_sensors(
        "robot: test_bot\nbackend: mock\nsensors:\n  ankle_ft: { topic: /ankle_ft/wrench, \
         stale_after_ms: 20 }\n  toe_contact: { undriven: true }\n",
    )
    .unwrap();
    let ankle = config.sensor("ankle_ft").unwrap();
    assert_eq!(ankle.topic(), Some("/ankle_ft/wrench"));
    assert_eq!(ankle.stale_after_ms, Some(20.0));
    let toe = config.sensor("toe_contact").unwrap();
    assert!(toe.undriven && toe.topic().is_none());
    assert_eq!(config.sensor("base_imu"), None);
}

#[test]
fn a_sensor_read_neither_way_or_both_ways_is_refused_at_its_field() {
    let text = with_foot_sensors(
        "robot: test_bot\nbackend: mock\nsensors:\n  ankle_ft: {}\n  toe_contact: { topic: /toe, \
         undriven: true }\n",
    )
    .unwrap_err();
    assert!(
        text.contains(&format!(
            "{FILE}: sensors.ankle_ft: give the `topic` it is read from, or `undriven: true` to \
             run without it"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{FILE}: sensors.toe_contact: a topic, and undriven: give one or the other"
        )),
        "{text}"
    );
}

#[test]
fn a_misspelt_sensor_or_an_imu_under_sensors_is_named() {
    let text = with_foot_sensors(
        "robot: test_bot\nbackend: mock\nsensors:\n  ankle_fts: { undriven: true }\n  base_imu: \
         { undriven: true }\n",
    )
    .unwrap_err();
    assert!(
        text.contains("sensors.ankle_fts: unknown sensor; did you mean `ankle_ft`?"),
        "{text}"
    );
    assert!(
        text.contains("sensors.base_imu: `base_imu` is an IMU: give its serial port under `imus:`"),
        "{text}"
    );
    let text = with_foot_sensors(
        "robot: test_bot\nbackend: mock\nsensors:\n  ankle_ft: { topic: not a topic }\n",
    )
    .unwrap_err();
    assert!(text.contains("sensors.ankle_ft.topic"), "{text}");
}
