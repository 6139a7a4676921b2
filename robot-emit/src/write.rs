//! Writing a robot's emitted files into a folder, with the path in every error.

use std::path::{Path, PathBuf};

use super::{Artifact, EmitError, LaunchDefaults, all_with};
use robot_model::model::Robot;

/// Emitting or writing a robot's files failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Rendering a file failed.
    #[error("emitting {robot}: {source}")]
    Emit {
        /// The robot.
        robot: String,
        /// Why.
        source: EmitError,
    },
    /// A folder or file could not be written.
    #[error("{what} {}: {source}", .path.display())]
    Io {
        /// "creating folder" or "writing".
        what: &'static str,
        /// The path that failed.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// The files [`write_all`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Every file, in [`super::all`]'s order.
    pub paths: Vec<PathBuf>,
    /// How many of them changed (the others already held what was emitted, and were left alone).
    pub changed: usize,
}

/// Writes every emitted file of `robot` into `dir` (created with its parents); a file that
/// already holds what is emitted is left alone, so its timestamp only moves when it changes.
pub fn write_all(robot: &Robot, dir: &Path) -> Result<Written, WriteError> {
    write_all_with(robot, dir, &LaunchDefaults::default())
}

/// [`write_all`] with the launch args' defaults of `defaults` ([`super::all_with`]).
pub fn write_all_with(
    robot: &Robot,
    dir: &Path,
    defaults: &LaunchDefaults,
) -> Result<Written, WriteError> {
    let artifacts = all_with(robot, defaults).map_err(|source| WriteError::Emit {
        robot: robot.name.to_string(),
        source,
    })?;
    write_artifacts(dir, artifacts)
}

/// Writes `artifacts` into `dir`, their names paths inside it (`urdf/x.urdf.xacro`): folders are
/// created with their parents, and a file that already holds its contents is left alone.
pub(crate) fn write_artifacts(dir: &Path, artifacts: Vec<Artifact>) -> Result<Written, WriteError> {
    let mut written = Written {
        paths: Vec::with_capacity(artifacts.len()),
        changed: 0,
    };
    for artifact in artifacts {
        let path = dir.join(&artifact.file_name);
        let folder = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(folder).map_err(|source| WriteError::Io {
            what: "creating folder",
            path: folder.to_path_buf(),
            source,
        })?;
        if !std::fs::read(&path).is_ok_and(|old| old == artifact.contents.as_bytes()) {
            std::fs::write(&path, artifact.contents).map_err(|source| WriteError::Io {
                what: "writing",
                path: path.clone(),
                source,
            })?;
            written.changed += 1;
        }
        written.paths.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_write_changes_nothing() {
        let robot = robot_model::fixture::robot();
        let dir = std::env::temp_dir().join(format!("write-all-{}", std::process::id()));
        let first = write_all(&robot, &dir).unwrap();
        assert_eq!(first.changed, first.paths.len());
        let second = write_all(&robot, &dir).unwrap();
        assert_eq!((second.changed, second.paths), (0, first.paths));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_folder_is_named_in_the_error() {
        let robot = robot_model::fixture::robot();
        let error = write_all(&robot, Path::new("/dev/null/x")).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("creating folder /dev/null/x: "), "{text}");
    }
}
