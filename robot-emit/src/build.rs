//! For build scripts: `cargo build` emits a robot crate's descriptions.
//!
//! A build script cannot use the crate it builds, so it compiles the file that holds the
//! `robot!` definition as a module of its own (the file must use nothing else of the crate), and
//! hands the robots to [`emit_descriptions`]:
//!
//! ```ignore
//! // build.rs; build-dependencies: robot-core, robot-macros
//! #[allow(dead_code)] // the build script uses only the description
//! #[path = "src/robot.rs"]
//! mod robot;
//!
//! fn main() -> Result<(), robot_core::emit::WriteError> {
//!     robot_core::build::emit_descriptions(&[robot::MyRobot::DESCRIPTION])?;
//!     Ok(())
//! }
//! ```
//!
//! `examples/my_robot/` in the repository is a whole robot crate built this way.
//!
//! # MuJoCo's library
//!
//! mujoco-rs links MuJoCo's C library but sets no run-time path, so without one every binary and
//! test executable that links it fails to start (`libmujoco.so.3.17.0: cannot open shared object
//! file`); `cargo::rustc-link-arg` reaches only the targets of the package whose build script
//! prints it. The library is the project's own copy in `.tools/mujoco/lib`
//! (`scripts/install-mujoco.sh`), named by [`MUJOCO_LIB_DIR_ENV`], which the checkout's
//! `.cargo/mujoco.toml` sets (this workspace includes it; a robot crate of one's own includes it
//! with one line of its `.cargo/config.toml`). [`emit_descriptions`] gives the crate's targets
//! the run-time path when that variable names an installed library, and stays silent otherwise
//! (a robot crate without the MuJoCo backend); [`link_mujoco`] is for crates that always link
//! it, and fails the build naming the script when the library is not there.
//!
//! Every file of [`crate::all`] is written: the `.urdf.xacro`, one `.<backend>.urdf` per
//! backend, `controllers.yaml`, the `.mjcf.xml` with its `.scene.xml` (and, for a floating base,
//! the test stand's `.stand.scene.xml`), and the `.json`.
//!
//! The files go to `<OUT_DIR>/descriptions/<robot>/`: `OUT_DIR` is the one folder cargo gives a
//! build script, and it is right under any `--target`, `--profile` or `CARGO_TARGET_DIR`, where
//! a guess at the target folder from it is not. When a file changed, the build prints that folder
//! as a cargo `warning:` (the only build-script output cargo shows; cargo repeats it on later
//! builds until the script runs again), and it always passes the folder to the crate as the
//! compile-time environment variable [`DESCRIPTIONS_DIR_ENV`], so the crate's binaries find the
//! files with `env!("ROBOT_DESCRIPTIONS_DIR")`.

use std::path::PathBuf;

use crate::{WriteError, write_all};
use robot_model::model::Robot;

/// The compile-time environment variable that holds the descriptions folder.
pub const DESCRIPTIONS_DIR_ENV: &str = "ROBOT_DESCRIPTIONS_DIR";

/// The environment variable that names the folder of MuJoCo's library (`.cargo/mujoco.toml`).
pub const MUJOCO_LIB_DIR_ENV: &str = "ROBOT_MUJOCO_LIB_DIR";
/// Where else the folder may be named: the variable mujoco-rs itself reads.
const MUJOCO_RS_DIR_ENV: &str = "MUJOCO_DYNAMIC_LINK_DIR";
/// The version mujoco-rs 7.0.0 wraps; it refuses any other at load.
const MUJOCO_LIBRARY: &str = "libmujoco.so.3.17.0";
/// What installs it.
const MUJOCO_SCRIPT: &str = "scripts/install-mujoco.sh";

/// Writes every file of each robot into `<OUT_DIR>/descriptions/<robot>/`, prints where, and sets
/// [`DESCRIPTIONS_DIR_ENV`] for the crate; returns the `descriptions` folder.
///
/// Outside a build script (no `OUT_DIR`) it writes nothing and says so in the error.
pub fn emit_descriptions(robots: &[&Robot]) -> Result<PathBuf, WriteError> {
    let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| WriteError::Io {
        what: "finding the build output folder",
        path: PathBuf::from("$OUT_DIR"),
        source: std::io::Error::other("OUT_DIR is not set: call this from a build script"),
    })?;
    let dir = PathBuf::from(out_dir).join("descriptions");
    for robot in robots {
        let robot_dir = dir.join(robot.name.as_ref());
        let written = write_all(robot, &robot_dir)?;
        if written.changed > 0 {
            println!(
                "cargo::warning={}: wrote {} of its {} description files in {}",
                robot.name,
                written.changed,
                written.paths.len(),
                robot_dir.display()
            );
        }
    }
    println!("cargo::rustc-env={DESCRIPTIONS_DIR_ENV}={}", dir.display());
    // A crate that turns the MuJoCo backend on needs the library's run-time path; one that does
    // not is unaffected by it.
    mujoco_run_time_path();
    Ok(dir)
}

/// For the build script of a crate whose binaries or tests link MuJoCo only with a feature of a
/// dependency (the workspace's integration tests, whose runs reach the MuJoCo backend when
/// `robots/mujoco` is on): their run-time path to the library when it is installed; nothing
/// otherwise (a build without the feature needs none).
pub fn mujoco_run_time_path() {
    if let Ok(lib) = mujoco_library_dir() {
        println!("cargo::rustc-link-arg=-Wl,-rpath,{}", lib.display());
    }
}

/// For the build script of a crate whose binaries or tests always link MuJoCo: adds the
/// library's folder to the link search path and the crate's run-time path, or fails the build
/// with an error naming the script that installs it.
pub fn link_mujoco() {
    match mujoco_library_dir() {
        Ok(dir) => {
            println!(
                "cargo::rerun-if-changed={}",
                dir.join(MUJOCO_LIBRARY).display()
            );
            println!("cargo::rustc-link-search=native={}", dir.display());
            println!("cargo::rustc-link-arg=-Wl,-rpath,{}", dir.display());
        }
        Err(why) => println!("cargo::error={why}"),
    }
}

/// The folder holding MuJoCo's library: [`MUJOCO_LIB_DIR_ENV`], else mujoco-rs's own variable.
fn mujoco_library_dir() -> Result<PathBuf, String> {
    for var in [MUJOCO_LIB_DIR_ENV, MUJOCO_RS_DIR_ENV] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let hint = format!(
        "run `{MUJOCO_SCRIPT}` in the robot-rs checkout (it puts {MUJOCO_LIBRARY} into \
         .tools/mujoco/lib), or build without the MuJoCo backend (the `mujoco` cargo feature)"
    );
    let dir = [MUJOCO_LIB_DIR_ENV, MUJOCO_RS_DIR_ENV]
        .iter()
        .find_map(std::env::var_os)
        .map(PathBuf::from)
        .ok_or_else(|| {
            format!(
                "MuJoCo: neither {MUJOCO_LIB_DIR_ENV} nor {MUJOCO_RS_DIR_ENV} is set (a robot \
                 crate outside robot-rs includes robot-rs's .cargo/mujoco.toml from its \
                 .cargo/config.toml); {hint}"
            )
        })?;
    if !dir.join(MUJOCO_LIBRARY).is_file() {
        return Err(format!(
            "MuJoCo is not installed: {} has no {MUJOCO_LIBRARY}; {hint}",
            dir.display()
        ));
    }
    Ok(dir)
}
