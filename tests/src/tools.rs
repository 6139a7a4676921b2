//! Where the tests find the external tools, and what a missing one means.
//!
//! `scripts/install-tools.sh` puts the Python tools (xacro, check-jsonschema, MuJoCo) into the
//! project's virtual environment, `.venv/` at the workspace root (`ROBOT_TOOLS_VENV` moves it),
//! and `check_urdf` on the system PATH. A tool is looked for in the venv's `bin/` first, then on
//! `PATH`, so a plain `cargo test` finds it without activating anything.
//!
//! A missing tool fails the test, saying to run `scripts/install-tools.sh`.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The variable naming the venv, read by `scripts/install-tools.sh` too.
pub const VENV_VARIABLE: &str = "ROBOT_TOOLS_VENV";

/// An external tool a test runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// PyPI `xacro`.
    Xacro,
    /// urdfdom's `check_urdf` (Debian's `liburdfdom-tools`).
    CheckUrdf,
    /// PyPI `check-jsonschema`.
    CheckJsonschema,
    /// A Python interpreter that imports MuJoCo 3.17.0 (PyPI `mujoco`).
    Mujoco,
}

impl Tool {
    /// Every tool, in a fixed order.
    pub const ALL: [Tool; 4] = [
        Tool::Xacro,
        Tool::CheckUrdf,
        Tool::CheckJsonschema,
        Tool::Mujoco,
    ];

    /// The name the messages use.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Xacro => "xacro",
            Tool::CheckUrdf => "check_urdf",
            Tool::CheckJsonschema => "check-jsonschema",
            Tool::Mujoco => "mujoco",
        }
    }

    /// The executables that may provide it, in the order they are tried in each directory.
    const fn programs(self) -> &'static [&'static str] {
        match self {
            Tool::Xacro => &["xacro"],
            Tool::CheckUrdf => &["check_urdf"],
            Tool::CheckJsonschema => &["check-jsonschema"],
            // A venv has `python`; a system `python3`.
            Tool::Mujoco => &["python", "python3"],
        }
    }

    /// Whether a found executable really is the tool: for MuJoCo, the interpreter must import
    /// the pinned version (any `python3` is on PATH; MuJoCo is only in some).
    fn works(self, program: &Path) -> bool {
        match self {
            Tool::Mujoco => Command::new(program)
                .arg("-c")
                .arg("import mujoco, sys; sys.exit(mujoco.__version__ != '3.17.0')")
                .output()
                .is_ok_and(|o| o.status.success()),
            _ => true,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The venv the install script fills: `$ROBOT_TOOLS_VENV` (relative to the workspace root), else
/// `<workspace root>/.venv`.
pub fn venv() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR")));
    match std::env::var_os(VENV_VARIABLE) {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join(".venv"),
    }
}

/// The first of `tool`'s programs in `venv_bin`, then in each directory of `path`, that is an
/// executable file and passes `works`.
fn locate(
    tool: Tool,
    venv_bin: &Path,
    path: Option<&OsStr>,
    works: impl Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let dirs = std::iter::once(venv_bin.to_path_buf())
        .chain(path.map(std::env::split_paths).into_iter().flatten())
        .filter(|dir| !dir.as_os_str().is_empty());
    dirs.flat_map(|dir| tool.programs().iter().map(move |p| dir.join(p)))
        .find(|candidate| is_executable(candidate) && works(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Where `tool` is, looked up once per test binary.
pub fn find(tool: Tool) -> Option<&'static Path> {
    static FOUND: [OnceLock<Option<PathBuf>>; 4] = [const { OnceLock::new() }; 4];
    FOUND[tool.index()]
        .get_or_init(|| {
            let path: Option<OsString> = std::env::var_os("PATH");
            locate(tool, &venv().join("bin"), path.as_deref(), |p| {
                tool.works(p)
            })
        })
        .as_deref()
}

/// A command running `tool`; a missing tool panics, failing the test. (`Option` for the callers'
/// sake: they are written for a lookup that may also skip.)
pub fn require(tool: Tool) -> Option<Command> {
    match find(tool) {
        Some(path) => Some(Command::new(path)),
        None => panic!(
            "{} not found; run scripts/install-tools.sh (looked in {} and on PATH)",
            tool.name(),
            venv().join("bin").display()
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn executable(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    }

    #[test]
    fn the_venv_comes_before_path() {
        let dir = tempfile::tempdir().unwrap();
        let (venv_bin, system) = (dir.path().join("venv"), dir.path().join("usr-bin"));
        std::fs::create_dir_all(&venv_bin).unwrap();
        std::fs::create_dir_all(&system).unwrap();
        let on_path = executable(&system, "xacro");
        let path = std::env::join_paths([&system]).unwrap();
        let found = locate(Tool::Xacro, &venv_bin, Some(&path), |_| true);
        assert_eq!(found, Some(on_path), "on PATH when the venv lacks it");
        let in_venv = executable(&venv_bin, "xacro");
        let found = locate(Tool::Xacro, &venv_bin, Some(&path), |_| true);
        assert_eq!(found, Some(in_venv), "the venv's first");
    }

    #[test]
    fn a_file_that_is_not_executable_or_does_not_work_is_not_the_tool() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("check_urdf"), "not a program").unwrap();
        assert_eq!(locate(Tool::CheckUrdf, dir.path(), None, |_| true), None);
        // Any python3 is on PATH; only one that imports MuJoCo is the tool.
        let python = executable(dir.path(), "python3");
        assert_eq!(locate(Tool::Mujoco, dir.path(), None, |_| false), None);
        assert_eq!(
            locate(Tool::Mujoco, dir.path(), None, |_| true),
            Some(python)
        );
    }
}
