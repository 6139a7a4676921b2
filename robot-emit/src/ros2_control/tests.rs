use crate::read::{child, named, params};
use crate::urdf;
use robot_model::fixture;
use robot_model::number;
use robot_runtime::backend::Backend;

/// Each `<ros2_control>` block of the fixture on one line: name, type, plugin, hardware params,
/// joints, sensors.
fn blocks(backend: Backend) -> Vec<String> {
    blocks_of(&fixture::robot(), backend)
}

fn blocks_of(robot: &robot_model::Robot, backend: Backend) -> Vec<String> {
    let text = urdf(robot, backend).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let blocks = document
        .root_element()
        .children()
        .filter(|c| c.has_tag_name("ros2_control"));
    blocks
        .map(|block| {
            let hardware = child(block, "hardware");
            let plugins: Vec<_> = hardware
                .children()
                .filter(|c| c.has_tag_name("plugin"))
                .collect();
            assert_eq!(plugins.len(), 1, "only the first plugin counts");
            let params: Vec<String> = params(hardware)
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!(
                "{} {} {} [{}] joints=[{}] sensors=[{}]",
                block.attribute("name").unwrap(),
                block.attribute("type").unwrap(),
                plugins[0].text().unwrap(),
                params.join(" "),
                named(block, "joint").join(" "),
                named(block, "sensor").join(" "),
            )
        })
        .collect()
}

#[test]
fn real_hardware_has_a_block_per_bus_and_one_for_the_imu() {
    assert_eq!(
        blocks(Backend::Real),
        [
            "TestBotFront system humanoid_devices_robstride/RobstrideSystem [bus=front bitrate=1000000 \
             can_interface=can0] joints=[ankle wheel follower] sensors=[]",
            "TestBotRear system humanoid_devices_robstride/RobstrideSystem [bus=rear bitrate=1000000 \
             can_interface=can1] joints=[slider] sensors=[]",
            "TestBotIMU sensor test_devices/SerialImu [port=/dev/ttyUSB0] joints=[] sensors=[base_imu]",
        ]
    );
}

#[test]
fn mujoco_and_mock_have_one_block_with_every_controlled_joint() {
    assert_eq!(
        blocks(Backend::Mujoco),
        [
            "TestBotHardware system mujoco_ros2_control/MujocoSystem [] \
          joints=[ankle wheel follower slider] sensors=[base_imu]"
        ]
    );
    assert_eq!(
        blocks(Backend::Mock),
        [
            "TestBotHardware system mock_components/GenericSystem [calculate_dynamics=true \
          position_state_following_offset=0 mock_sensor_commands=false disable_commands=false] \
          joints=[ankle wheel follower slider] sensors=[]"
        ]
    );
    let mut controlled: Vec<_> = fixture::robot()
        .controlled_joints()
        .map(|j| j.name.to_string())
        .collect();
    controlled.sort();
    assert_eq!(controlled, ["ankle", "follower", "slider", "wheel"]);
}

#[test]
fn the_topic_backend_has_one_joint_state_topic_system_block_with_upstreams_defaults() {
    assert_eq!(
        blocks(Backend::Topic),
        [
            "TestBotHardware system joint_state_topic_hardware_interface/JointStateTopicSystem \
          [joint_commands_topic=/robot_joint_commands joint_states_topic=/robot_joint_states \
          trigger_joint_command_threshold=0.00001 sum_wrapped_joint_states=false] \
          joints=[ankle wheel follower slider] sensors=[]"
        ]
    );
}

/// The `<joint>` and `<sensor>` elements of every block, by name, as text.
fn elements(backend: Backend) -> Vec<(String, String)> {
    let text = urdf(&fixture::robot(), backend).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let mut out: Vec<(String, String)> = document
        .descendants()
        .filter(|n| n.parent().is_some_and(|p| p.has_tag_name("ros2_control")))
        .filter(|n| n.has_tag_name("joint") || n.has_tag_name("sensor"))
        .map(|n| {
            (
                n.attribute("name").unwrap().to_string(),
                text[n.range()].to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_mock_block_carries_the_imu_only_with_mock_sensor_commands() {
    let mut robot = fixture::robot();
    let without = urdf(&robot, Backend::Mock).unwrap();
    assert!(!without.contains("<sensor name=\"base_imu\">"), "{without}");
    robot.mock.mock_sensor_commands = true;
    let with = urdf(&robot, Backend::Mock).unwrap();
    assert_eq!(
        with.matches("<sensor name=\"base_imu\">").count(),
        1,
        "{with}"
    );
    let mujoco = urdf(&robot, Backend::Mujoco).unwrap();
    assert_eq!(
        mujoco.matches("<sensor name=\"base_imu\">").count(),
        1,
        "{mujoco}"
    );
}

#[test]
fn joint_elements_are_the_same_on_every_backend() {
    let real = elements(Backend::Real);
    assert_eq!(real.len(), 5);
    assert_eq!(elements(Backend::Mujoco), real);
    let without_imu: Vec<_> = real
        .into_iter()
        .filter(|(name, _)| name != "base_imu")
        .collect();
    assert_eq!(elements(Backend::Mock), without_imu);
}

#[test]
fn each_joint_element_is_written_once_in_the_xacro() {
    let text = crate::urdf_xacro(&fixture::robot()).unwrap();
    for element in [
        r#"<joint name="$(arg prefix)ankle">"#,
        r#"<joint name="$(arg prefix)slider">"#,
        r#"<joint name="$(arg prefix)wheel">"#,
        r#"<joint name="$(arg prefix)follower" mimic="true">"#,
        r#"<sensor name="$(arg prefix)base_imu">"#,
    ] {
        assert_eq!(text.matches(element).count(), 1, "{element}");
    }
    // One xacro expression only: the calibration file's param, left out while the arg is empty
    // (ros2_control's parser warns of a param with no text).
    assert_eq!(
        text.matches("${").count(),
        text.matches("${'$(arg calibration_file)' != ''}").count()
            + text
                .matches("${&apos;$(arg calibration_file)&apos; != &apos;&apos;}")
                .count(),
        "no other xacro expression"
    );
}

/// A ros2_control `<joint>` as `name=value` params and `tag:name [params]` interfaces.
fn ros2_control_joint(backend: Backend, name: &str) -> (Vec<String>, Vec<String>) {
    let text = urdf(&fixture::robot(), backend).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let joint = document
        .descendants()
        .find(|n| {
            n.has_tag_name("joint")
                && n.attribute("name") == Some(name)
                && n.attribute("type").is_none()
        })
        .unwrap();
    let show = |params: Vec<(String, String)>| {
        params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    let interfaces = joint
        .children()
        .filter(|c| c.is_element() && c.tag_name().name().ends_with("_interface"))
        .map(|c| {
            format!(
                "{}:{} {:?}",
                c.tag_name().name(),
                c.attribute("name").unwrap(),
                show(params(c))
            )
        })
        .collect();
    (show(params(joint)), interfaces)
}

#[test]
fn a_four_bar_joint_carries_its_hardware_params_and_position_limits() {
    let (params, interfaces) = ros2_control_joint(Backend::Mujoco, "ankle");
    let lower = number((-30.0_f64).to_radians());
    let upper = number(50.0_f64.to_radians());
    let alpha = number(338.82213_f64.to_radians());
    let want = format!(
        "bus=front can_id=11 model=rs-00 direction=1 zero_offset=0.25 lower_limit={lower} \
         upper_limit={upper} velocity_limit=10 torque_limit=5 current_limit=16 four_bar_ground_x=-0.012 \
         four_bar_ground_z=0.16 four_bar_input_crank=0.04 four_bar_coupler=0.15 four_bar_output_crank=0.04 \
         four_bar_alpha_zero={alpha} four_bar_sign=1 four_bar_branch=counter_clockwise"
    );
    assert_eq!(params.join(" "), want);
    assert_eq!(
        interfaces,
        [
            format!(
                r#"command_interface:position ["min={lower}", "max={upper}", "initial_value=0"]"#
            ),
            "command_interface:velocity []".into(),
            "command_interface:effort []".into(),
            "command_interface:stiffness []".into(),
            "command_interface:damping []".into(),
            "state_interface:position []".into(),
            "state_interface:velocity []".into(),
            "state_interface:effort []".into(),
        ]
    );
    let (params, interfaces) = ros2_control_joint(Backend::Real, "slider");
    assert_eq!(
        interfaces,
        [
            r#"command_interface:position ["min=-0.05", "max=0.05", "initial_value=0.01"]"#,
            r#"state_interface:position ["initial_value=0.01"]"#,
            "state_interface:velocity []",
        ]
    );
    assert!(
        params.contains(&"current_limit=14".to_string()),
        "{params:?}"
    );
    assert_eq!(params.last().map(String::as_str), Some("lead=0.1"));
}

#[test]
fn a_continuous_joint_has_no_position_bounds() {
    let (params, interfaces) = ros2_control_joint(Backend::Real, "wheel");
    assert_eq!(
        params.join(" "),
        "bus=front can_id=12 model=rs-02 direction=-1 zero_offset=-0.5 velocity_limit=20 torque_limit=10"
    );
    assert_eq!(
        interfaces,
        [
            "command_interface:velocity []",
            "state_interface:position []",
            "state_interface:velocity []"
        ]
    );
}

#[test]
fn a_mimic_joint_has_states_only_and_names_its_target() {
    let text = urdf(&fixture::robot(), Backend::Mock).unwrap();
    assert_eq!(
        text.matches(r#"<joint name="follower" mimic="true">"#)
            .count(),
        1
    );
    let (params, interfaces) = ros2_control_joint(Backend::Mock, "follower");
    assert_eq!(params, ["mimic=ankle", "multiplier=-0.5"]);
    assert_eq!(
        interfaces,
        ["state_interface:position []", "state_interface:velocity []"]
    );
}

#[test]
fn the_imu_has_its_ten_states_and_frame() {
    let text = urdf(&fixture::robot(), Backend::Real).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let imu = document
        .descendants()
        .find(|n| n.has_tag_name("sensor"))
        .unwrap();
    assert_eq!(
        named(imu, "state_interface"),
        robot_model::interface::IMU_STATE_INTERFACES
    );
    assert_eq!(
        params(imu),
        [("frame_id".to_string(), "imu_link".to_string())]
    );
}

#[test]
fn force_torque_and_contact_sensors_get_a_block_each_on_real_and_join_mujocos() {
    let robot = fixture::robot_with_foot_sensors();
    let real = blocks_of(&robot, Backend::Real);
    assert_eq!(
        real[2..],
        [
            "TestBotIMU sensor test_devices/SerialImu [port=/dev/ttyUSB0] joints=[] sensors=[base_imu]",
            "TestBotAnkleFt sensor test_devices/FootSensor [] joints=[] sensors=[ankle_ft]",
            "TestBotToeContact sensor test_devices/FootSensor [] joints=[] sensors=[toe_contact]",
        ]
    );
    assert_eq!(
        blocks_of(&robot, Backend::Mujoco),
        [
            "TestBotHardware system mujoco_ros2_control/MujocoSystem [] \
          joints=[ankle wheel follower slider] sensors=[base_imu ankle_ft toe_contact]"
        ]
    );
    assert!(blocks_of(&robot, Backend::Mock)[0].ends_with("sensors=[]"));
    assert!(blocks_of(&robot, Backend::Topic)[0].ends_with("sensors=[]"));

    let text = urdf(&robot, Backend::Real).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let sensor = |name: &str| {
        (document.descendants())
            .find(|n| n.has_tag_name("sensor") && n.attribute("name") == Some(name))
            .unwrap()
    };
    let ft = sensor("ankle_ft");
    assert_eq!(
        named(ft, "state_interface"),
        [
            "force.x", "force.y", "force.z", "torque.x", "torque.y", "torque.z"
        ]
    );
    let expected = [
        ("frame_id", "foot"),
        ("mujoco_type", "fts"),
        ("mujoco_sensor_name", "ankle_ft"),
    ];
    assert_eq!(
        params(ft),
        expected.map(|(k, v)| (k.to_string(), v.to_string()))
    );
    let contact = sensor("toe_contact");
    assert_eq!(
        named(contact, "state_interface"),
        ["contact", "normal_force"]
    );
    assert_eq!(
        params(contact),
        [("frame_id".to_string(), "toe".to_string())]
    );
}

#[test]
fn no_param_is_named_like_a_pid_gain() {
    for backend in Backend::ALL {
        let text = urdf(&fixture::robot(), backend).unwrap();
        for gain in ["kp", "kd", "p", "d", "i"] {
            assert!(
                !text.contains(&format!("<param name=\"{gain}\">")),
                "{backend}: {gain}"
            );
        }
    }
}

/// The fixture's IMU without the `port` param its definition gives: the real block takes the
/// port from the xacro arg `imu_port`, as lite_description's does, and expands to its default;
/// with two IMUs each gets an arg of its own.
#[test]
fn an_imu_port_comes_from_a_xacro_arg() {
    let mut robot = fixture::robot();
    robot.sensors.to_mut()[0].params = Vec::new().into();
    let xacro = crate::urdf_xacro(&robot).unwrap();
    assert!(
        xacro.contains(r#"<xacro:arg name="imu_port" default="/dev/ttyUSB0"/>"#),
        "{xacro}"
    );
    assert!(
        xacro.contains(r#"<param name="port">$(arg imu_port)</param>"#),
        "{xacro}"
    );
    let real = urdf(&robot, Backend::Real).unwrap();
    assert!(
        real.contains(r#"<param name="port">/dev/ttyUSB0</param>"#),
        "{real}"
    );
    for backend in [Backend::Mujoco, Backend::Mock] {
        assert!(!urdf(&robot, backend).unwrap().contains("port"));
    }
    let mut second = robot.sensors[0].clone();
    second.name = "head_imu".into();
    robot.sensors.to_mut().push(second);
    let xacro = crate::urdf_xacro(&robot).unwrap();
    for arg in [
        r#"<xacro:arg name="base_imu_port" default="/dev/ttyUSB0"/>"#,
        r#"<xacro:arg name="head_imu_port" default="/dev/ttyUSB1"/>"#,
        r#"<param name="port">$(arg head_imu_port)</param>"#,
    ] {
        assert!(xacro.contains(arg), "{arg}: {xacro}");
    }
}
