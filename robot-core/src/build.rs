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
//! Every file of [`crate::emit::all`] is written: the `.urdf.xacro`, one `.<backend>.urdf` per
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

use crate::emit::{WriteError, write_all};
use crate::model::Robot;

/// The compile-time environment variable that holds the descriptions folder.
pub const DESCRIPTIONS_DIR_ENV: &str = "ROBOT_DESCRIPTIONS_DIR";

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
    Ok(dir)
}
