//! Writing emitted files: into any folder, and into the checked-in copies that tests compare
//! against (`robots/descriptions/<robot>/` and `schema/`).

use std::path::{Path, PathBuf};

use robot_core::Robot;
use robot_core::emit::{WriteError, write_all};

/// The workspace root, where `schema/` and `robots/` live.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The folder of a robot's checked-in descriptions.
pub fn robot_dir(robot: &Robot) -> PathBuf {
    workspace_root()
        .join("robots")
        .join("descriptions")
        .join(robot.name.as_ref())
}

/// The checked-in schemas: `(path, contents)`.
pub fn schemas() -> [(PathBuf, String); 2] {
    let dir = workspace_root().join("schema");
    [
        (dir.join("robot.schema.json"), robot_core::schema::robot()),
        (
            dir.join("config.schema.json"),
            robot_core::config::json_schema(),
        ),
    ]
}

/// Regenerates every checked-in emitted file; returns the paths written.
pub fn regenerate() -> Result<Vec<PathBuf>, WriteError> {
    let mut written = Vec::new();
    for robot in crate::all() {
        written.extend(write_all(robot, &robot_dir(robot))?.paths);
    }
    for (path, contents) in schemas() {
        std::fs::write(&path, contents).map_err(|source| WriteError::Io {
            what: "writing",
            path: path.clone(),
            source,
        })?;
        written.push(path);
    }
    Ok(written)
}
