//! The command line, as clap parses it: every numeric flag has its range here, so a bad value is
//! refused with the range before anything runs.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use robot_core::Backend;

/// Highest loop rate `run` accepts, Hz: a 100 µs period, about the shortest a Linux thread keeps
/// with SCHED_FIFO; the real robot's buses refuse far lower rates (the bus-load check).
pub const MAX_RATE_HZ: u32 = 10_000;
/// Longest run, seconds (a day); longer runs are a service, not a command.
pub const MAX_SECONDS: f64 = 86_400.0;

/// A backend, as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// RobStride actuators over SocketCAN.
    Real,
    /// The MuJoCo simulator.
    Mujoco,
    /// No hardware: commands mirrored to states.
    Mock,
}

impl From<BackendArg> for Backend {
    fn from(arg: BackendArg) -> Backend {
        match arg {
            BackendArg::Real => Backend::Real,
            BackendArg::Mujoco => Backend::Mujoco,
            BackendArg::Mock => Backend::Mock,
        }
    }
}

#[derive(Debug, Parser)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write every emitted description of a robot (or of all robots) into a folder.
    Emit {
        /// The robot, by ROS name; all robots when omitted.
        #[arg(long, conflicts_with = "checked_in")]
        robot: Option<String>,
        /// Folder to write into; each robot gets a subfolder named after it. By default the
        /// folder `cargo build` writes (printed by the build).
        #[arg(long, conflicts_with = "checked_in")]
        out: Option<PathBuf>,
        /// Regenerate the checked-in copies of the descriptions and schemas.
        #[arg(long)]
        checked_in: bool,
    },
    /// Print a table of joints, buses, interfaces, limits and the bus load at the update rate.
    Describe {
        /// The robot, by ROS name; the first one this tool knows by default.
        #[arg(long)]
        robot: Option<String>,
    },
    /// Validate a runtime configuration file (backend, bus interfaces, calibration) against the
    /// configuration schema and its robot; print every error and exit 1 when it is not valid.
    Check {
        /// The configuration file (YAML).
        config: PathBuf,
        /// The robot to check against, by ROS name; by default the file's `robot:` field.
        #[arg(long)]
        robot: Option<String>,
    },
    /// Emit the robot's descriptions, then run a controller on the backend the config or
    /// `--backend` selects, showing progress and printing the loop statistics at the end.
    Run(RunArgs),
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Runtime configuration (backend, buses, calibration, disabled joints).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The robot, by ROS name; the config's `robot` when a config is given.
    #[arg(long)]
    pub robot: Option<String>,
    /// The controller; the robot's first one by default.
    #[arg(long)]
    pub controller: Option<String>,
    /// Backend, overriding the config's; mock without either.
    #[arg(long, value_enum)]
    pub backend: Option<BackendArg>,
    /// How long to run, seconds (more than 0, at most 86400).
    #[arg(long, default_value_t = 6.0, value_parser = seconds)]
    pub seconds: f64,
    /// Loop rate, Hz (1 to 10000); the robot's update rate by default.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_RATE_HZ)))]
    pub rate: Option<u32>,
    /// Run the control thread under SCHED_FIFO at this priority (1 to 99).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=99))]
    pub fifo_priority: Option<i32>,
    /// Pin the control thread to this CPU (0 to 1023).
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=1023))]
    pub cpu: Option<u16>,
    /// Lock the process's memory (mlockall).
    #[arg(long)]
    pub lock_memory: bool,
    /// Spin for the last N microseconds before each deadline instead of sleeping (busy core,
    /// lower wake-up lateness); less than the period.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub spin_us: u64,
    /// Folder to emit the descriptions into; by default the folder `cargo build` writes.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A run length: more than 0 and at most [`MAX_SECONDS`] seconds.
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if value > 0.0 && value <= MAX_SECONDS && Duration::try_from_secs_f64(value).is_ok() {
        Ok(value)
    } else {
        Err(format!(
            "`{text}` is not a run length: give more than 0 and at most {MAX_SECONDS} seconds"
        ))
    }
}
