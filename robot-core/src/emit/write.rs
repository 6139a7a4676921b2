//! Writing a robot's emitted files into a folder, with the path in every error.

use std::path::{Path, PathBuf};

use super::{EmitError, all};
use crate::model::Robot;

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

/// Writes every emitted file of `robot` into `dir` (created with its parents); returns the paths
/// written, in [`all`]'s order.
pub fn write_all(robot: &Robot, dir: &Path) -> Result<Vec<PathBuf>, WriteError> {
    let artifacts = all(robot).map_err(|source| WriteError::Emit {
        robot: robot.name.to_string(),
        source,
    })?;
    std::fs::create_dir_all(dir).map_err(|source| WriteError::Io {
        what: "creating folder",
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::with_capacity(artifacts.len());
    for artifact in artifacts {
        let path = dir.join(&artifact.file_name);
        // Unchanged files are left alone, so their timestamps only move when they do.
        if std::fs::read(&path).is_ok_and(|old| old == artifact.contents.as_bytes()) {
            written.push(path);
            continue;
        }
        std::fs::write(&path, artifact.contents).map_err(|source| WriteError::Io {
            what: "writing",
            path: path.clone(),
            source,
        })?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwritable_folder_is_named_in_the_error() {
        let robot = crate::emit::fixture::robot();
        let error = write_all(&robot, Path::new("/dev/null/x")).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("creating folder /dev/null/x: "), "{text}");
    }
}
