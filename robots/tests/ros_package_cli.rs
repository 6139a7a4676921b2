//! `robot emit --ros-package DIR` as a user runs it: the package with a configuration's launch
//! defaults, a prefix and the package flags; and the bad inputs, each refused with the value and
//! the rule before anything is written.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;
use std::process::{Command, Output};

use robots::checked_in::workspace_root;

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const CONFIG: &str = "robot: lite_biped\nbackend: real\nbuses:\n  left_leg: can5\n  right_leg: vcan1\n\
                      imus:\n  base_imu:\n    port: /dev/ttyACM3\n    baud: 460800\n";

#[test]
fn the_package_takes_the_configs_defaults_the_prefix_and_the_package_flags() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("lite_biped.yaml");
    std::fs::write(&config, CONFIG).unwrap();
    let src = dir.path().join("src");
    let output = robot(&[
        "emit",
        "--ros-package",
        src.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
        "--prefix",
        "left_",
        "--maintainer",
        "Ada Lovelace <ada@example.org>",
        "--license",
        "BSD-3-Clause",
        "--package-version",
        "2.0.1",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let package = src.join("lite_biped_description");
    assert!(
        !src.join("six_axis_arm_description").exists(),
        "its robot only"
    );
    let xml = read(&package.join("package.xml"));
    for expected in [
        "<version>2.0.1</version>",
        r#"<maintainer email="ada@example.org">Ada Lovelace</maintainer>"#,
        "<license>BSD-3-Clause</license>",
    ] {
        assert!(xml.contains(expected), "{expected} not in\n{xml}");
    }
    let launch = read(&package.join("launch/bringup.launch.py"));
    for (arg, default) in [
        ("prefix", "left_"),
        ("can_interface_left_leg", "can5"),
        ("can_interface_right_leg", "vcan1"),
        ("imu_port", "/dev/ttyACM3"),
    ] {
        let declared = format!("\"{arg}\",\n            default_value=\"{default}\",");
        assert!(launch.contains(&declared), "{declared} not in\n{launch}");
    }
    let xacro = read(&package.join("urdf/lite_biped.urdf.xacro"));
    assert!(xacro.contains(r#"<xacro:arg name="can_interface_left_leg" default="can5"/>"#));
    let controllers = read(&package.join("config/lite_biped.controllers.yaml"));
    assert!(
        controllers.contains("- left_left_hip_pitch"),
        "{controllers}"
    );
    assert!(package.join("mjcf/lite_biped.scene.xml").is_file());
    assert!(package.join("rviz/lite_biped.rviz").is_file());
    assert!(package.join("CMakeLists.txt").is_file());
}

#[test]
fn bad_input_is_refused_naming_the_value_and_the_rule_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let config = |name: &str, contents: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_string()
    };
    let bad_interface = config("bad-interface.yaml", &CONFIG.replace("can5", "can 5"));
    let lite = config("lite.yaml", CONFIG);
    let src = dir.path().join("src");
    let package = ["--ros-package", src.to_str().unwrap()];
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec!["--robot", "lite_biped", "--prefix", "left-"],
            "prefix `left-`: expected ASCII letters, digits and `_`, not starting with a digit",
        ),
        (
            vec!["--config", &bad_interface],
            "buses.left_leg: expected a Linux interface name (1 to 15 bytes, no `/`, `:` or whitespace), found \"can 5\"",
        ),
        (
            vec!["--robot", "six_axis_arm", "--config", &lite],
            "robot: expected six_axis_arm, found \"lite_biped\"",
        ),
        (
            vec!["--robot", "lite_biped", "--package-version", "1.0"],
            "package version `1.0`: expected MAJOR.MINOR.PATCH",
        ),
        (
            vec![
                "--robot",
                "lite_biped",
                "--maintainer",
                "Ada <ada@localhost>",
            ],
            "maintainer `Ada <ada@localhost>`: expected `Name <user@example.org>`",
        ),
        (
            vec!["--robot", "lite_biped", "--license", " "],
            "no license",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["emit"];
        all.extend(package);
        all.extend(&args);
        let output = robot(&all);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{args:?}: expected `{expected}` in {stderr}"
        );
        assert!(!src.exists(), "{args:?} wrote {}", src.display());
    }
    // The same bad interface without `--ros-package`: the loose descriptions refuse it too.
    let out = dir.path().join("out");
    let output = robot(&[
        "emit",
        "--config",
        &bad_interface,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("found \"can 5\""),
        "{}",
        text(&output.stderr)
    );
    assert!(!out.exists());
}
