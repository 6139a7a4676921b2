#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use robot_model::fixture;

fn info() -> PackageInfo {
    PackageInfo::from_cargo(
        "0.1.0",
        "Ada Lovelace <ada@example.org>:Bob",
        "MIT OR Apache-2.0",
    )
    .unwrap()
}

#[test]
fn the_package_holds_lite_descriptions_layout() {
    let robot = fixture::robot();
    let files = files(&robot, &LaunchDefaults::default(), &info()).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.file_name.as_str()).collect();
    let name = &robot.name;
    for expected in [
        "package.xml".to_string(),
        "CMakeLists.txt".to_string(),
        format!("urdf/{name}.urdf.xacro"),
        format!("config/{name}.controllers.yaml"),
        format!("mjcf/{name}.mjcf.xml"),
        format!("mjcf/{name}.scene.xml"),
        "launch/view.launch.py".to_string(),
        "launch/bringup.launch.py".to_string(),
        format!("rviz/{name}.rviz"),
    ] {
        assert!(
            names.contains(&expected.as_str()),
            "{expected} not in {names:?}"
        );
    }
    // Every file is in a folder CMakeLists.txt installs, or is one of the two top-level files.
    for file in &names {
        match file.split_once('/') {
            Some((folder, _)) => assert!(INSTALLED_FOLDERS.contains(&folder), "{file}"),
            None => assert!(["package.xml", "CMakeLists.txt"].contains(file), "{file}"),
        }
    }
}

#[test]
fn cargo_metadata_becomes_the_maintainer_and_one_license_per_alternative() {
    let info = info();
    assert_eq!(info.maintainer.name, "Ada Lovelace");
    assert_eq!(info.maintainer.email, "ada@example.org");
    assert_eq!(info.licenses, ["MIT", "Apache-2.0"]);
    let robot = fixture::robot();
    let xml = package_xml::document(&robot, &info).unwrap();
    assert!(
        xml.contains(r#"<maintainer email="ada@example.org">Ada Lovelace</maintainer>"#),
        "{xml}"
    );
    assert!(
        xml.contains("<license>MIT</license>\n  <license>Apache-2.0</license>"),
        "{xml}"
    );
    assert!(
        xml.contains("<buildtool_depend>ament_cmake</buildtool_depend>"),
        "{xml}"
    );
    for depend in [
        "xacro",
        "controller_manager",
        "imu_sensor_broadcaster",
        "joint_trajectory_controller",
    ] {
        assert!(
            xml.contains(&format!("<exec_depend>{depend}</exec_depend>")),
            "{depend}: {xml}"
        );
    }
}

#[test]
fn bad_package_facts_name_the_value_and_the_rule() {
    let cases = [
        (
            PackageInfo::from_cargo("0.1.0-alpha", "A <a@b.org>", "MIT").unwrap_err(),
            "package version `0.1.0-alpha`: expected MAJOR.MINOR.PATCH",
        ),
        (
            PackageInfo::from_cargo("0.1.0", "Ada", "MIT").unwrap_err(),
            "maintainer `Ada`: expected `Name <user@example.org>`",
        ),
        (
            info().with_maintainer("Ada <ada@localhost>").unwrap_err(),
            "maintainer `Ada <ada@localhost>`: expected",
        ),
        (
            PackageInfo::from_cargo("0.1.0", "", "MIT").unwrap_err(),
            "no maintainer: the crate's `authors` is empty",
        ),
        (
            PackageInfo::from_cargo("0.1.0", "A <a@b.org>", " ").unwrap_err(),
            "no license",
        ),
        (
            info().with_description("  ").unwrap_err(),
            "empty description",
        ),
    ];
    for (error, start) in cases {
        let text = error.to_string();
        assert!(text.starts_with(start), "{text}");
    }
    assert_eq!(info().with_version("2.10.0").unwrap().version, "2.10.0");
}

#[test]
fn the_imu_broadcaster_is_spawned_on_the_backends_that_back_the_imu_only() {
    let mut robot = fixture::robot();
    let launch = launch::bringup(&robot, &LaunchDefaults::default()).unwrap();
    assert!(
        launch.contains(
            r#"has_sensors = PythonExpression(["'", backend, "' in ('real', 'mujoco',)"])"#
        ),
        "{launch}"
    );
    assert!(
        launch.contains("condition=IfCondition(has_sensors)"),
        "{launch}"
    );
    // A mock that injects sensor commands backs the IMU too.
    robot.mock.mock_sensor_commands = true;
    let launch = launch::bringup(&robot, &LaunchDefaults::default()).unwrap();
    assert!(
        launch.contains("' in ('real', 'mujoco', 'mock',)"),
        "{launch}"
    );
    // No IMU, no broadcaster and no condition.
    robot.sensors = Vec::new().into();
    let launch = launch::bringup(&robot, &LaunchDefaults::default()).unwrap();
    assert!(!launch.contains("has_sensors"), "{launch}");
}

#[test]
fn the_launch_args_have_the_xacros_defaults() {
    let robot = fixture::robot();
    let defaults = LaunchDefaults::default().with_prefix("left_").unwrap();
    let launch = launch::bringup(&robot, &defaults).unwrap();
    assert!(
        launch.contains("\"prefix\",\n            default_value=\"left_\","),
        "{launch}"
    );
}

#[test]
fn the_declared_controllers_are_controllers_yamls_in_its_order() {
    let robot = fixture::robot();
    let yaml: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&crate::controllers_yaml(&robot).unwrap()).unwrap();
    let in_yaml: Vec<(String, String)> = yaml["controller_manager"]["ros__parameters"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter_map(|(k, v)| {
            Some((
                k.as_str()?.to_string(),
                v.get("type")?.as_str()?.to_string(),
            ))
        })
        .collect();
    let declared: Vec<(String, String)> = crate::controllers::declared(&robot)
        .into_iter()
        .map(|c| (c.name, c.plugin.to_string()))
        .collect();
    assert_eq!(declared, in_yaml);
}
