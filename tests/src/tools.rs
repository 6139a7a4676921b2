//! Where the tests find the external tools, and what a missing one means.
//!
//! `scripts/install-tools.sh` puts the Python tools (xacro, check-jsonschema, MuJoCo, catkin_pkg)
//! into the project's virtual environment, `.venv/` at the workspace root (`ROBOT_TOOLS_VENV`
//! moves it), and `check_urdf` on the system PATH. A tool is looked for in the venv's `bin/` first, then on
//! `PATH`, so a plain `cargo test` finds it without activating anything.
//!
//! A missing tool is a failure on CI (`CI=true`, which `scripts/test` and CI set) and a loud skip
//! anywhere else: the test prints `SKIPPED: <tool> not found; run scripts/install-tools.sh` and
//! passes, so `cargo test` on a machine without the tools still tests everything else.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock, PoisonError};

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
    /// A Python interpreter that imports PyPI `catkin_pkg` (ROS's package.xml parser); it also
    /// compiles and reads the launch files.
    CatkinPkg,
    /// A Python interpreter with the MCAP readers that are not ours: PyPI `mcap` 1.6.0 with
    /// `mcap-ros2-support` 0.6.0, and `rosbags` 0.11.9.
    McapReaders,
}

impl Tool {
    /// Every tool, in a fixed order.
    pub const ALL: [Tool; 6] = [
        Tool::Xacro,
        Tool::CheckUrdf,
        Tool::CheckJsonschema,
        Tool::Mujoco,
        Tool::CatkinPkg,
        Tool::McapReaders,
    ];

    /// The name the messages use.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Xacro => "xacro",
            Tool::CheckUrdf => "check_urdf",
            Tool::CheckJsonschema => "check-jsonschema",
            Tool::Mujoco => "mujoco",
            Tool::CatkinPkg => "catkin_pkg",
            Tool::McapReaders => "mcap, mcap-ros2-support and rosbags",
        }
    }

    /// The executables that may provide it, in the order they are tried in each directory.
    const fn programs(self) -> &'static [&'static str] {
        match self {
            Tool::Xacro => &["xacro"],
            Tool::CheckUrdf => &["check_urdf"],
            Tool::CheckJsonschema => &["check-jsonschema"],
            // A venv has `python`; a system `python3`.
            Tool::Mujoco | Tool::CatkinPkg | Tool::McapReaders => &["python", "python3"],
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
            Tool::CatkinPkg => Command::new(program)
                .arg("-c")
                .arg("import catkin_pkg.package")
                .output()
                .is_ok_and(|o| o.status.success()),
            Tool::McapReaders => Command::new(program)
                .arg("-c")
                .arg(
                    "import sys, importlib.metadata as m; import mcap_ros2.decoder, rosbags.highlevel; \
                     sys.exit([m.version(p) for p in ('mcap', 'mcap-ros2-support', 'rosbags')] \
                     != ['1.6.0', '0.6.0', '0.11.9'])",
                )
                .output()
                .is_ok_and(|o| o.status.success()),
            _ => true,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The message a test prints when it skips for want of `tool`.
pub fn skip_message(tool: Tool) -> String {
    format!(
        "SKIPPED: {} not found; run scripts/install-tools.sh",
        tool.name()
    )
}

/// Whether this is a CI run, where a missing tool is a failure: `CI` is `true` (or `1`).
pub fn on_ci() -> bool {
    is_ci_value(std::env::var_os("CI").as_deref())
}

fn is_ci_value(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
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
    static FOUND: [OnceLock<Option<PathBuf>>; Tool::ALL.len()] =
        [const { OnceLock::new() }; Tool::ALL.len()];
    FOUND[tool.index()]
        .get_or_init(|| {
            let path: Option<OsString> = std::env::var_os("PATH");
            locate(tool, &venv().join("bin"), path.as_deref(), |p| {
                tool.works(p)
            })
        })
        .as_deref()
}

/// What a test does about a tool: run it, or go without it.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Run this program.
    Run(PathBuf),
    /// Skip the check, saying so.
    Skip(String),
    /// Fail the test with this message.
    Fail(String),
}

/// The verdict for a tool found at `found` (or not), on CI or not.
pub fn verdict(tool: Tool, found: Option<&Path>, ci: bool) -> Verdict {
    match found {
        Some(path) => Verdict::Run(path.to_path_buf()),
        None if ci => Verdict::Fail(format!(
            "{} not found; run scripts/install-tools.sh (looked in {} and on PATH; with CI=true a \
             missing tool fails the test)",
            tool.name(),
            venv().join("bin").display()
        )),
        None => Verdict::Skip(skip_message(tool)),
    }
}

/// A command running `tool`, or `None` when it is not installed and this is not CI, after
/// printing [`skip_message`] to the terminal. On CI a missing tool panics, failing the test.
///
/// ```ignore
/// let Some(mut xacro) = tools::require(Tool::Xacro) else { return };
/// ```
pub fn require(tool: Tool) -> Option<Command> {
    match verdict(tool, find(tool), on_ci()) {
        Verdict::Run(path) => Some(Command::new(path)),
        Verdict::Fail(message) => panic!("{message}"),
        Verdict::Skip(message) => {
            // Once per test and tool, though a test may ask for a tool once per file it checks.
            static SAID: Mutex<Vec<(String, Tool)>> = Mutex::new(Vec::new());
            let test = std::thread::current().name().unwrap_or("?").to_string();
            let mut said = SAID.lock().unwrap_or_else(PoisonError::into_inner);
            if !said.contains(&(test.clone(), tool)) {
                // Straight to the process's stderr: the test harness captures `eprintln!` of a
                // passing test, and a skip nobody sees is a check that silently never runs.
                let _ = writeln!(std::io::stderr(), "{message} ({test})");
                said.push((test, tool));
            }
            None
        }
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

    #[test]
    fn a_missing_tool_skips_loudly_but_fails_on_ci() {
        assert_eq!(
            verdict(Tool::Xacro, None, false),
            Verdict::Skip("SKIPPED: xacro not found; run scripts/install-tools.sh".into())
        );
        let Verdict::Fail(message) = verdict(Tool::Mujoco, None, true) else {
            panic!("a missing tool on CI must fail")
        };
        assert!(
            message.starts_with("mujoco not found; run scripts/install-tools.sh"),
            "{message}"
        );
        let here = Path::new("/bin/sh");
        assert_eq!(
            verdict(Tool::CheckUrdf, Some(here), true),
            Verdict::Run(here.into())
        );
    }

    #[test]
    fn ci_is_ci_true() {
        assert!(is_ci_value(Some(OsStr::new("true"))));
        assert!(is_ci_value(Some(OsStr::new("TRUE"))));
        assert!(is_ci_value(Some(OsStr::new("1"))));
        assert!(!is_ci_value(Some(OsStr::new("false"))));
        assert!(!is_ci_value(Some(OsStr::new(""))));
        assert!(!is_ci_value(None));
    }
}
