//! Writing emitted files: into any folder, and into the checked-in copies that tests compare
//! against (`robots/descriptions/<robot>/`, the ROS packages `robots/ros/<robot>_description/`
//! and `schema/`).

use std::path::{Path, PathBuf};

use robot_core::Robot;
use robot_core::emit::ros_package::{self, PackageInfo, PackageInfoError};
use robot_core::emit::{LaunchDefaults, WriteError, write_all};

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

/// The folder of the checked-in ROS packages: `robots/ros/`, one `<robot>_description/` each.
pub fn ros_dir() -> PathBuf {
    workspace_root().join("robots").join("ros")
}

/// What the checked-in packages' `package.xml` says of them: this crate's Cargo metadata.
pub fn package_info() -> Result<PackageInfo, PackageInfoError> {
    robot_core::package_info!()
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
    let info = package_info().map_err(|e| WriteError::Io {
        what: "describing the package for",
        path: ros_dir(),
        source: std::io::Error::other(e),
    })?;
    for robot in crate::all() {
        let defaults = LaunchDefaults::default();
        written.extend(ros_package::write(robot, &ros_dir(), &defaults, &info)?.paths);
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
