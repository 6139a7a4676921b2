//! `my_robot emit | describe | check | run`: the command-line tool of this crate's robot.

use std::process::ExitCode;

use my_robot::{LookAround, PanTilt};
use robot_runner::App;

fn main() -> ExitCode {
    App::new("my_robot")
        .about("The pan-tilt head")
        .descriptions_dir(env!("ROBOT_DESCRIPTIONS_DIR")) // set by build.rs
        // package.xml of `emit --ros-package`: version, maintainer and licence from Cargo.toml.
        .cargo_package(
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_AUTHORS"),
            env!("CARGO_PKG_LICENSE"),
        )
        .controller::<PanTilt, _>("look_around", "sweeps pan and tilt", LookAround::default)
        .main()
}
