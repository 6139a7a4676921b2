//! `robot`: the command-line tool of the shipped robots, a `robot_runner::App` of them and their
//! example controllers.
//!
//! * `robot emit` writes every description of a robot into a folder (by default the one
//!   `cargo build` wrote); `robot emit --ros-package DIR` writes its ROS 2 description package
//!   `<robot>_description/` into DIR; `robot emit --checked-in` regenerates the checked-in copies
//!   (descriptions, packages) and schemas.
//! * `robot describe` prints the joints, buses, interfaces, limits and bus load.
//! * `robot run` emits the descriptions and runs a controller (lite_biped: a slow squat;
//!   six_axis_arm: a wave) on the backend the runtime configuration (or `--backend`) selects,
//!   printing the loop statistics.
//! * `robot check CONFIG` validates a runtime configuration.

use std::process::ExitCode;

use robot_runner::App;
use robots::controllers::{KneeSwing, Squat, Wave};
use robots::{LiteBiped, SixAxisArm};

fn main() -> ExitCode {
    App::new("robot")
        .about("Descriptions and tools for the shipped robots")
        .descriptions_dir(env!("ROBOT_DESCRIPTIONS_DIR"))
        .checked_in(robots::checked_in::regenerate)
        .cargo_package(
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_AUTHORS"),
            env!("CARGO_PKG_LICENSE"),
        )
        .controller::<LiteBiped, _>("squat", "a slow squat", Squat::default)
        .controller::<SixAxisArm, _>("wave", "a slow wave", Wave::default)
        .typed_controller::<LiteBiped, _>(
            "left_knee_swing",
            "swings the left knee, claiming the left leg alone",
            KneeSwing::default,
        )
        .main()
}
