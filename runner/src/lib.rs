//! `robot-runner`: everything between a robot crate and a running robot.
//!
//! * [`run`]: one call runs a controller on the backend a runtime configuration (or a flag)
//!   selects, or on components of your own ([`Hardware`]), as a [`RunRequest`] asks, with Ctrl-C
//!   handled and the statistics returned;
//! * [`backends`]: which components drive which backend;
//! * [`App`]: the command-line tool (`emit`, `describe`, `check`, `run`) a robot crate gets by
//!   registering its robots and controllers:
//!
//! ```ignore
//! fn main() -> std::process::ExitCode {
//!     robot_runner::App::new("my_robot")
//!         .descriptions_dir(env!("ROBOT_DESCRIPTIONS_DIR"))
//!         .controller::<MyRobot, _>("wave", "waves every joint", Wave::default)
//!         .main()
//! }
//! ```
//!
//! The shipped `robot` tool (crate `robots`) is one such user.
#![warn(missing_docs)]

pub mod backends;
mod cli;
pub mod describe;
mod managed;
pub mod plot;
pub mod record;
pub mod ros;
mod run;
mod self_collision;
pub mod trace;

pub use cli::App;
pub use run::{Hardware, RunError, RunOutcome, RunRequest, check_bus_load, run, summary};
