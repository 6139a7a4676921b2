//! The layers, as the manifests and imports show them: the actuators' vocabulary
//! (`robot-actuator`) is a leaf; the model and its rules (`robot-model`) depend on nothing above
//! them and on no backend's crate, and `robot!` needs only the model — so expanding a robot builds
//! no XML writer, YAML parser, JSON Schema validator or libc bindings; the runtime
//! (`robot-runtime`) and the backends build no emitter.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The names of a manifest's `[dependencies]` (not dev- or build-dependencies).
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with('[') {
            inside = line.trim() == "[dependencies]";
        } else if inside && let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && !name.starts_with('#') {
                names.push(name.split('.').next().unwrap().to_string());
            }
        }
    }
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_macro_depends_on_the_model_only() {
    let mut deps = dependencies("robot-macros/Cargo.toml");
    deps.sort();
    assert_eq!(deps, ["heck", "proc-macro2", "quote", "robot-model", "syn"]);
}

#[test]
fn the_model_depends_on_nothing_above_it() {
    let deps = dependencies("robot-model/Cargo.toml");
    for above in [
        "robot-core",
        "robot-runtime",
        "robot-emit",
        "quick-xml",
        "serde_yaml_ng",
        "jsonschema",
        "libc",
    ] {
        assert!(
            !deps.iter().any(|d| d == above),
            "robot-model depends on {above}"
        );
    }
    let mut files = Vec::new();
    rust_files(&root().join("robot-model/src"), &mut files);
    assert!(files.len() > 10);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // Code, not the docs that say where the layers above are.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        for above in [
            "robot_core",
            "robot_runtime",
            "robot_emit",
            "crate::emit",
            "crate::config",
            "crate::hardware",
        ] {
            assert!(!code.contains(above), "{} names {above}", file.display());
        }
    }
}

#[test]
fn the_model_depends_on_no_backend_crate() {
    let deps = dependencies("robot-model/Cargo.toml");
    for backend in ["robstride-protocol", "embedded-can"] {
        assert!(
            !deps.iter().any(|d| d == backend),
            "robot-model depends on {backend}"
        );
    }
}

/// The actuators' vocabulary is a leaf: the model, the RobStride codec, the backends and the
/// trajectory controller all use it, and it uses none of them.
#[test]
fn the_actuator_vocabulary_is_a_leaf() {
    let mut deps = dependencies("robot-actuator/Cargo.toml");
    deps.sort();
    assert_eq!(deps, ["schemars", "serde"]);
}

/// What runs a robot never builds the emitters: the runtime imports nothing of them, and the
/// configuration's loader (jsonschema) is a feature a backend leaves off.
#[test]
fn the_runtime_builds_no_emitter() {
    let deps = dependencies("robot-runtime/Cargo.toml");
    for emission in ["robot-emit", "robot-core", "quick-xml"] {
        assert!(
            !deps.iter().any(|d| d == emission),
            "robot-runtime depends on {emission}"
        );
    }
    let mut files = Vec::new();
    rust_files(&root().join("robot-runtime/src"), &mut files);
    assert!(files.len() > 10);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text.contains("robot_emit"),
            "{} imports robot_emit",
            file.display()
        );
    }
}

/// A backend's crates depend on the runtime, not on `robot-core`, whose emitters (the XML
/// writer) and configuration loader (the JSON Schema validator) a backend has no use for; only
/// MuJoCo's simulates the emitted model, so it alone depends on `robot-emit`.
#[test]
fn a_backend_builds_no_emitter_but_mujoco_its_model() {
    let mut manifests = Vec::new();
    let mut folders = vec![root().join("backends")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() && name != "target" && name != "compare" && name != "fuzz" {
                folders.push(path);
            } else if name == "Cargo.toml" {
                manifests.push(path);
            }
        }
    }
    assert!(manifests.len() >= 10, "{manifests:?}");
    for manifest in manifests {
        let relative = manifest
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .to_string();
        let deps = dependencies(&relative);
        let mut refused = vec!["robot-core", "quick-xml", "jsonschema"];
        if !relative.starts_with("backends/mujoco/") {
            refused.push("robot-emit");
        }
        for dep in refused {
            assert!(
                !deps.iter().any(|d| d == dep),
                "{relative} depends on {dep}"
            );
        }
    }
}

/// The simulated actuators and the component meet only at the transport trait, below both.
#[test]
fn the_simulated_bus_does_not_depend_on_the_component() {
    let deps = dependencies("backends/robstride/sim/Cargo.toml");
    assert!(deps.iter().any(|d| d == "robstride-transport"), "{deps:?}");
    assert!(!deps.iter().any(|d| d == "backend-robstride"), "{deps:?}");
}

/// The fixture robot the model's and the emitters' tests share is test support: compiled into
/// `robot-model` only for its own tests or through feature `fixture`, which only
/// `[dev-dependencies]` turn on, so no build of a library or a robot carries it.
#[test]
fn the_fixture_robot_is_test_support_only() {
    let lib = std::fs::read_to_string(root().join("robot-model/src/lib.rs")).unwrap();
    assert!(lib.contains("#[cfg(any(test, feature = \"fixture\"))]\npub mod fixture;"));
    let mut manifests = Vec::new();
    for dir in [
        "robot-actuator",
        "robot-model",
        "robot-runtime",
        "robot-emit",
        "robot-core",
        "robot-macros",
        "robots",
        "runner",
    ] {
        manifests.push(root().join(dir).join("Cargo.toml"));
    }
    // Every crate of every backend: a backend is split into crates, one folder each.
    let mut folders = vec![root().join("backends")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && path.file_name().is_some_and(|n| n != "target") {
                folders.push(path);
            } else if path.file_name().is_some_and(|n| n == "Cargo.toml") {
                manifests.push(path);
            }
        }
    }
    let mut enabled_in_dev = 0;
    for manifest in manifests {
        let text = std::fs::read_to_string(&manifest).unwrap();
        let mut section = "";
        for line in text.lines() {
            if line.starts_with('[') {
                section = line.trim();
            } else if line.contains("\"fixture\"") {
                assert_eq!(
                    section,
                    "[dev-dependencies]",
                    "{} turns on the fixture outside its dev-dependencies",
                    manifest.display()
                );
                enabled_in_dev += 1;
            }
        }
    }
    assert!(enabled_in_dev > 0, "robot-core's tests use the fixture");
}

/// The mock's benchmark measures the mock, on a robot of its own: not on the shipped robots,
/// whose definitions would change its figures.
#[test]
fn the_mock_benchmark_defines_its_own_robot() {
    let bench = std::fs::read_to_string(root().join("backends/mock/benches/cycle.rs")).unwrap();
    assert!(bench.contains("robot! {"));
    assert!(!bench.contains("robots::"));
}

/// Every file under `dir` (not `target/` or hidden folders) whose name ends in one of `ends`.
fn files_ending(dir: &Path, ends: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files_ending(&path, ends, out);
            }
        } else if ends.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

#[test]
fn only_ros2_dds_names_the_dds_stack() {
    let wire = root().join("ros2/dds");
    // The stack's own (patched) sources, which ros2-dds depends on by path.
    let vendored = root().join("vendor");
    let mut files = Vec::new();
    files_ending(&root(), &["Cargo.toml", ".rs"], &mut files);
    assert!(files.len() > 50);
    for file in files
        .iter()
        .filter(|f| !f.starts_with(&wire) && !f.starts_with(&vendored))
    {
        let text = std::fs::read_to_string(file).unwrap();
        // The workspace manifest keeps the vendored folder out of the workspace, by path.
        let text: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("\"vendor/"))
            .collect::<Vec<_>>()
            .join("\n");
        // Spelt in two halves, so this file does not name them either.
        for dds in [["rust", "dds"], ["ros2-", "client"], ["ros2_", "client"]].map(|p| p.concat()) {
            assert!(
                !text.contains(&dds),
                "{} names `{dds}`: only ros2/dds (ros2-dds) may",
                file.display()
            );
        }
    }
}

/// `backends/` holds backends only: the bridge to the ROS 2 world is `ros2/`, a folder of its own.
#[test]
fn no_ros2_crate_lives_under_backends() {
    let mut folders = vec![root().join("backends")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() && name != "target" {
                folders.push(path);
            } else if name == "Cargo.toml" {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(
                    !text.contains("name = \"ros2-"),
                    "{} is a ROS 2 crate under backends/",
                    path.display()
                );
            }
        }
    }
}

/// One module convention: a module with submodules is `name.rs` beside `name/`, never
/// `name/mod.rs` (integration tests' shared `tests/*/mod.rs` aside: there a `name.rs` would be a
/// test binary of its own).
#[test]
fn a_module_with_submodules_is_a_file_beside_its_folder() {
    let mut files = Vec::new();
    files_ending(&root(), &["mod.rs"], &mut files);
    let vendored = root().join("vendor");
    let outside_tests: Vec<_> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "mod.rs"))
        .filter(|f| !f.starts_with(&vendored))
        .filter(|f| !f.components().any(|c| c.as_os_str() == "tests"))
        .collect();
    assert!(outside_tests.is_empty(), "{outside_tests:?}");
}
