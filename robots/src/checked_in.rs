//! Writing emitted files: into any folder, and into the checked-in copies that tests compare
//! against (`robots/descriptions/<robot>/` and `schema/`).

use std::io;
use std::path::{Path, PathBuf};

use robot_core::Robot;
use robot_core::emit;

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
        (dir.join("robot.schema.json"), emit::robot_schema()),
        (dir.join("config.schema.json"), emit::config_schema()),
    ]
}

/// Writes every emitted file of `robot` into `dir`, creating it; returns the paths written.
pub fn write_robot(robot: &Robot, dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let artifacts = emit::all(robot).map_err(io::Error::other)?;
    let mut written = Vec::new();
    for artifact in artifacts {
        let path = dir.join(&artifact.file_name);
        std::fs::write(&path, artifact.contents)?;
        written.push(path);
    }
    Ok(written)
}

/// Regenerates every checked-in emitted file; returns the paths written.
pub fn regenerate() -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for robot in crate::all() {
        written.extend(write_robot(robot, &robot_dir(robot))?);
    }
    for (path, contents) in schemas() {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, contents)?;
        written.push(path);
    }
    Ok(written)
}
