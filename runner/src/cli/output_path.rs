//! Output files a run writes at its end (`--plot`, `--frame`), checked before anything is
//! configured: a long run on the robot must not lose its plot to a typo in a folder name.

use std::fs::OpenOptions;
use std::path::Path;

/// Whether `path` can be written: its folder exists and a file can be created in it. A file
/// that was not there before is removed again, so a failed run leaves nothing behind.
pub(super) fn check_writable(path: &Path, flag: &str) -> Result<(), String> {
    let existed = path.exists();
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{flag} {}: the folder `{}` does not exist (the file is written at the end of the \
             run; check it now, not after it)",
            path.display(),
            folder.display()
        ));
    }
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("{flag} {}: cannot write it: {e}", path.display()))?;
    if !existed {
        // Only the probe made it; nothing is lost if it stays, but a run that fails should not
        // leave an empty plot behind.
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_is_named_before_the_run() {
        let error = check_writable(Path::new("/nonexistent/dir/x.png"), "--plot").unwrap_err();
        assert_eq!(
            error,
            "--plot /nonexistent/dir/x.png: the folder `/nonexistent/dir` does not exist (the \
             file is written at the end of the run; check it now, not after it)"
        );
    }

    #[test]
    fn a_writable_path_passes_and_leaves_no_file_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.svg");
        check_writable(&path, "--plot").unwrap();
        assert!(!path.exists());
        std::fs::write(&path, "kept").unwrap();
        check_writable(&path, "--plot").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
    }
}
