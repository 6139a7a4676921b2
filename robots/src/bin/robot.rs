//! `robot`: the command-line tool of the shipped robots.
//!
//! * `robot emit` writes every description of a robot into a folder;
//!   `robot emit --checked-in` regenerates the checked-in copies and schemas.
//! * `robot describe` prints the joints, buses, interfaces, limits and bus load.
//! * `robot run` emits the descriptions and runs the robot's example controller on the backend
//!   the runtime configuration (or `--backend`) selects, printing the loop statistics.
//! * `robot check CONFIG` validates a runtime configuration.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use robot_core::control_loop::{LoopOptions, RealtimeOptions, StopAfter};
use robot_core::{Backend, Robot};
use robots::controllers::{Squat, Wave};
use robots::{LiteBiped, SixAxisArm, runtime};

/// A backend, as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendArg {
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

#[derive(Parser)]
#[command(
    name = "robot",
    about = "Descriptions and tools for the shipped robots",
    version
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write every emitted description of a robot (or of all robots) into a folder.
    Emit {
        /// The robot, by ROS name; all robots when omitted.
        #[arg(long, conflicts_with = "checked_in")]
        robot: Option<String>,
        /// Folder to write into; each robot gets a subfolder named after it.
        #[arg(
            long,
            default_value = "target/descriptions",
            conflicts_with = "checked_in"
        )]
        out: PathBuf,
        /// Regenerate the checked-in copies (`robots/descriptions/`) and `schema/`.
        #[arg(long)]
        checked_in: bool,
    },
    /// Print a table of joints, buses, interfaces, limits and the bus load at the update rate.
    Describe {
        /// The robot, by ROS name.
        #[arg(long, default_value = "lite_biped")]
        robot: String,
    },
    /// Validate a runtime configuration file (backend, bus interfaces, calibration) against the
    /// configuration schema and its robot; print every error and exit 1 when it is not valid.
    Check {
        /// The configuration file (YAML), e.g. robots/configs/lite_biped.real.yaml.
        config: PathBuf,
        /// The robot to check against, by ROS name; by default the file's `robot:` field.
        #[arg(long)]
        robot: Option<String>,
    },
    /// Emit the robot's descriptions into target/descriptions, then run its example controller
    /// (lite_biped: a slow squat; six_axis_arm: a wave) on the backend the config or `--backend`
    /// selects, showing progress and printing the loop statistics at the end.
    Run {
        /// Runtime configuration (backend, buses, calibration, disabled joints).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The robot, by ROS name; the config's `robot` when a config is given.
        #[arg(long)]
        robot: Option<String>,
        /// Backend, overriding the config's.
        #[arg(long, value_enum)]
        backend: Option<BackendArg>,
        /// How long to run, seconds.
        #[arg(long, default_value_t = 6.0, value_parser = seconds)]
        seconds: f64,
        /// Loop rate, Hz; the robot's update rate by default.
        #[arg(long)]
        rate: Option<u32>,
        /// Run the control thread under SCHED_FIFO at this priority (1-99).
        #[arg(long)]
        fifo_priority: Option<i32>,
        /// Pin the control thread to this CPU.
        #[arg(long)]
        cpu: Option<usize>,
        /// Lock the process's memory (mlockall).
        #[arg(long)]
        lock_memory: bool,
        /// Spin for the last N microseconds before each deadline instead of sleeping (busy core,
        /// lower wake-up lateness).
        #[arg(long, default_value_t = 0)]
        spin_us: u64,
    },
}

/// A run length: a finite, non-negative number of seconds that fits a `Duration`.
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(value)
        .map(|_| value)
        .map_err(|_| {
            format!("`{text}` is not a run length: give a finite number of seconds, 0 or more")
        })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn find(name: &str) -> Result<&'static Robot, String> {
    robots::all()
        .into_iter()
        .find(|r| r.name == name)
        .ok_or_else(|| {
            let known: Vec<_> = robots::all().iter().map(|r| r.name.to_string()).collect();
            format!(
                "unknown robot `{name}`; shipped robots: {}",
                known.join(", ")
            )
        })
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Emit {
            robot,
            out,
            checked_in,
        } => {
            if checked_in {
                let written = robots::checked_in::regenerate().map_err(|e| e.to_string())?;
                for path in written {
                    println!("wrote {}", path.display());
                }
                return Ok(());
            }
            let selected = match &robot {
                Some(name) => vec![find(name)?],
                None => robots::all().to_vec(),
            };
            for robot in selected {
                let dir = out.join(robot.name.as_ref());
                for path in
                    robots::checked_in::write_robot(robot, &dir).map_err(|e| e.to_string())?
                {
                    println!("wrote {}", path.display());
                }
            }
            Ok(())
        }
        Command::Describe { robot } => {
            print!("{}", robots::describe::table(find(&robot)?));
            Ok(())
        }
        Command::Check { config, robot } => check(&config, robot),
        Command::Run {
            config,
            robot,
            backend,
            seconds,
            rate,
            fifo_priority,
            cpu,
            lock_memory,
            spin_us,
        } => {
            let config = match &config {
                Some(path) => {
                    let name = match &robot {
                        Some(name) => name.clone(),
                        None => {
                            robot_core::config::robot_name_of(path).map_err(|e| e.to_string())?
                        }
                    };
                    Some(robot_core::config::load(path, find(&name)?).map_err(|e| e.to_string())?)
                }
                None => None,
            };
            let name = robot
                .or_else(|| config.as_ref().map(|c| c.robot.clone()))
                .unwrap_or_else(|| "lite_biped".into());
            let description = find(&name)?;
            let backend = backend
                .map(Backend::from)
                .or(config.as_ref().map(|c| c.backend))
                .unwrap_or(Backend::Mock);
            let dir = Path::new("target/descriptions").join(description.name.as_ref());
            let written =
                robots::checked_in::write_robot(description, &dir).map_err(|e| e.to_string())?;
            println!("emitted {} files into {}", written.len(), dir.display());
            let options = LoopOptions {
                activate: true,
                stop_after: StopAfter {
                    cycles: None,
                    duration: Some(Duration::from_secs_f64(seconds)),
                },
                realtime: RealtimeOptions {
                    fifo_priority,
                    cpu,
                    lock_memory,
                },
                spin: Duration::from_micros(spin_us),
                ..LoopOptions::default()
            };
            let rate = rate.unwrap_or(description.update_rate);
            let mut out = std::io::stdout();
            let report = match description.name.as_ref() {
                "lite_biped" => {
                    println!(
                        "running the squat on {} on {backend} at {rate} Hz for {seconds} s",
                        description.name
                    );
                    let components = runtime::components::<LiteBiped>(backend, config.as_ref())
                        .map_err(|e| e.to_string())?;
                    let (report, state) =
                        runtime::run(components, Squat::default(), Some(rate), options, &mut out)
                            .map_err(|e| e.to_string())?;
                    if let Some(state) = state {
                        println!(
                            "final knee positions: left {:+.3} rad, right {:+.3} rad",
                            state.left_knee_pitch.position, state.right_knee_pitch.position
                        );
                    }
                    report
                }
                "six_axis_arm" => {
                    println!(
                        "running the wave on {} on {backend} at {rate} Hz for {seconds} s",
                        description.name
                    );
                    let components = runtime::components::<SixAxisArm>(backend, config.as_ref())
                        .map_err(|e| e.to_string())?;
                    let (report, state) =
                        runtime::run(components, Wave::default(), Some(rate), options, &mut out)
                            .map_err(|e| e.to_string())?;
                    if let Some(state) = state {
                        println!("final elbow position: {:+.3} rad", state.elbow.position);
                    }
                    report
                }
                other => return Err(format!("no example controller for `{other}`")),
            };
            print!("{}", runtime::summary(&report));
            Ok(())
        }
    }
}

/// `robot check`: the robot from `--robot` or the file's `robot:` field, then the full load.
fn check(path: &Path, robot: Option<String>) -> Result<(), String> {
    use robot_core::config::{self, ConfigError, FieldError};

    let robot = match robot {
        Some(name) => find(&name)?, // a bad `--robot` is the command line's mistake
        None => {
            let name = config::robot_name_of(path).map_err(config_failed)?;
            find(&name).map_err(|message| {
                config_failed(ConfigError {
                    file: path.to_path_buf(),
                    errors: vec![FieldError::new("robot", message)],
                })
            })?
        }
    };
    let loaded = config::load(path, robot).map_err(config_failed)?;
    let buses = robot.buses.len();
    let disabled = loaded.disabled_joints().count();
    println!(
        "{}: ok ({} on {}; {buses} bus{}; {disabled} joint{} disabled)",
        path.display(),
        robot.name,
        loaded.backend,
        if buses == 1 { "" } else { "es" },
        if disabled == 1 { "" } else { "s" },
    );
    Ok(())
}

/// Prints every error of a configuration to stderr, one a line; returns their count as the
/// command's error.
fn config_failed(error: robot_core::config::ConfigError) -> String {
    eprintln!("{error}");
    let count = error.errors.len();
    format!(
        "{}: {count} error{}",
        error.file.display(),
        if count == 1 { "" } else { "s" }
    )
}
