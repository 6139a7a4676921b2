//! `robot`: the command-line tool of the shipped robots.
//!
//! * `robot emit` writes every description of a robot into a folder;
//!   `robot emit --checked-in` regenerates the checked-in copies and schemas.
//! * `robot describe` prints the joints, buses, interfaces, limits and bus load.
//! * `robot run` emits the descriptions and describes the robot (the control loop comes with the
//!   runtime).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use robot_core::Robot;

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
        #[arg(long)]
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
    /// Emit the robot's descriptions into target/descriptions and describe it.
    Run {
        /// The robot, by ROS name.
        #[arg(long, default_value = "lite_biped")]
        robot: String,
    },
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
            let selected = match &robot {
                Some(name) => vec![find(name)?],
                None => robots::all().to_vec(),
            };
            if checked_in {
                let written = robots::checked_in::regenerate().map_err(|e| e.to_string())?;
                for path in written {
                    println!("wrote {}", path.display());
                }
                return Ok(());
            }
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
        Command::Run { robot } => {
            let robot = find(&robot)?;
            let dir = Path::new("target/descriptions").join(robot.name.as_ref());
            let written =
                robots::checked_in::write_robot(robot, &dir).map_err(|e| e.to_string())?;
            println!("emitted {} files into {}", written.len(), dir.display());
            print!("{}", robots::describe::table(robot));
            Ok(())
        }
    }
}
