//! The checked-in emitted files (`robots/descriptions/<robot>/`, the ROS packages
//! `robots/ros/<robot>_description/`, `schema/`) are exactly what the definitions emit now. When this fails, regenerate with the command in the message.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};

use robot_core::emit::{self, LaunchDefaults, ros_package};
use robots::checked_in;

fn compare(path: &Path, fresh: &str, stale: &mut Vec<String>) {
    match std::fs::read_to_string(path) {
        Ok(on_disk) if on_disk == fresh => {}
        Ok(_) => stale.push(format!("{} is stale", path.display())),
        Err(e) => stale.push(format!("{} cannot be read: {e}", path.display())),
    }
}

#[test]
fn checked_in_descriptions_and_schemas_are_fresh() {
    let mut stale = Vec::new();
    for robot in robots::all() {
        let dir = checked_in::robot_dir(robot);
        let artifacts = emit::all(robot).unwrap();
        for artifact in &artifacts {
            compare(
                &dir.join(&artifact.file_name),
                &artifact.contents,
                &mut stale,
            );
        }
        // Nothing else lingers there (a file of a renamed robot or backend).
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().to_string();
                if !artifacts.iter().any(|a| a.file_name == name) {
                    stale.push(format!(
                        "{} is not emitted any more",
                        entry.path().display()
                    ));
                }
            }
        }
    }
    let info = checked_in::package_info().unwrap();
    for robot in robots::all() {
        let dir = checked_in::ros_dir().join(ros_package::package_name(robot));
        let files = ros_package::files(robot, &LaunchDefaults::default(), &info).unwrap();
        for file in &files {
            compare(&dir.join(&file.file_name), &file.contents, &mut stale);
        }
        for path in files_under(&dir) {
            let relative = path
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .to_string();
            if !files.iter().any(|f| f.file_name == relative) {
                stale.push(format!("{} is not emitted any more", path.display()));
            }
        }
    }
    // Only packages of shipped robots.
    for entry in std::fs::read_dir(checked_in::ros_dir()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !robots::all()
            .iter()
            .any(|r| ros_package::package_name(r) == name)
        {
            stale.push(format!(
                "{} is no shipped robot's package",
                entry.path().display()
            ));
        }
    }
    for (path, contents) in checked_in::schemas() {
        compare(&path, &contents, &mut stale);
    }
    assert!(
        stale.is_empty(),
        "checked-in generated files are out of date:\n  {}\nregenerate them with `{}`",
        stale.join("\n  "),
        emit::REGENERATE_COMMAND
    );
}

/// Every file below `dir`, at any depth, but Python's byte-code caches (gitignored).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_name() == "__pycache__" {
            continue;
        } else if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn every_emitted_file_says_how_to_regenerate_it() {
    for robot in robots::all() {
        for artifact in emit::all(robot).unwrap() {
            if artifact.file_name.ends_with(".json") {
                continue; // JSON has no comments; the schema's `$id` and the file name say what it is
            }
            check_header(&artifact.file_name, &artifact.contents);
        }
    }
    let info = checked_in::package_info().unwrap();
    for robot in robots::all() {
        for file in ros_package::files(robot, &LaunchDefaults::default(), &info).unwrap() {
            check_header(&file.file_name, &file.contents);
        }
    }
}

/// The first lines say what generated the file and how to make it again.
fn check_header(file_name: &str, contents: &str) {
    let head: String = contents.lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(
        head.contains(emit::HOW_TO_REGENERATE),
        "{file_name} does not start with the header: {head}"
    );
}
