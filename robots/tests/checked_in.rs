//! The checked-in emitted files (`robots/descriptions/<robot>/`, `schema/`) are exactly what the
//! definitions emit now. When this fails, regenerate with the command in the message.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;

use robot_core::emit;
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

#[test]
fn every_emitted_file_says_how_to_regenerate_it() {
    for robot in robots::all() {
        for artifact in emit::all(robot).unwrap() {
            if artifact.file_name.ends_with(".json") {
                continue; // JSON has no comments; the schema's `$id` and the file name say what it is
            }
            let head: String = artifact
                .contents
                .lines()
                .take(3)
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                head.contains(emit::HOW_TO_REGENERATE),
                "{} does not start with the header: {head}",
                artifact.file_name
            );
        }
    }
}
