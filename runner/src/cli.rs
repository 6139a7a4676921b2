//! [`App`]: the command-line tool of a robot crate, from the robots and controllers it registers.

#[macro_use]
mod output;

mod args;
mod can;
mod chaos;
mod commission;
mod descriptions;
mod emit;
mod frame;
mod imu;
mod outcome;
mod output_path;
mod plot_recording;
mod recover_recording;
mod register;
mod registry;
mod tool_error;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches};
use robot_core::config::{self, ConfigError, RuntimeConfig};
use robot_core::control_loop::{LoopOptions, Pacing, RealtimeOptions, StopAfter};

use output::{config_failed, plural};
use robot_core::emit::{WriteError, write_all};
use robot_core::{Backend, Robot};

use self::args::{Cli, Command, RunArgs};
use self::outcome::{failed_run, print_positions, print_sensors};
use self::plot_recording::plot_recording;
use self::recover_recording::recover_recording;
use self::registry::Registered;
use crate::run::{RunRequest, summary};

/// Regenerates a crate's checked-in descriptions; returns the paths written.
type Regenerate = fn() -> Result<Vec<PathBuf>, WriteError>;

/// A crate's version, authors and licence, as Cargo gives them ([`App::cargo_package`]).
#[derive(Debug, Clone, Copy)]
struct CargoPackage {
    version: &'static str,
    authors: &'static str,
    license: &'static str,
}

/// A robot crate's command-line tool: `emit`, `describe`, `check` and `run`, for the robots and
/// controllers registered here.
///
/// ```ignore
/// robot_runner::App::new("my_robot")
///     .descriptions_dir(env!("ROBOT_DESCRIPTIONS_DIR")) // set by robot_core::build
///     .controller::<MyRobot, _>("wave", "waves every joint", Wave::default)
///     .main()
/// ```
pub struct App {
    name: &'static str,
    about: Option<&'static str>,
    descriptions_dir: Option<PathBuf>,
    checked_in: Option<Regenerate>,
    cargo_package: Option<CargoPackage>,
    robots: Vec<&'static Robot>,
    controllers: Vec<Registered>,
    /// Per robot, `chaos`'s typed entry points.
    chaos: Vec<chaos::Chaos>,
    /// Per robot, its own controllers as the controller manager loads them: an
    /// `Rc<RefCell<Vec<UserController<R>>>>` for the robot named, shared with its `manager`.
    managed: Vec<(&'static str, Box<dyn std::any::Any>)>,
    /// Mistakes in the registration (a controller name given twice), reported by [`App::main`].
    problems: Vec<String>,
}

impl fmt::Debug for App {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("App")
            .field("name", &self.name)
            .field(
                "robots",
                &self.robots.iter().map(|r| &r.name).collect::<Vec<_>>(),
            )
            .field(
                "controllers",
                &self.controllers.iter().map(|c| c.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl App {
    /// A tool called `name` (as its help shows it) that knows no robot yet.
    pub fn new(name: &'static str) -> App {
        App {
            name,
            about: None,
            descriptions_dir: None,
            checked_in: None,
            cargo_package: None,
            robots: Vec::new(),
            controllers: Vec::new(),
            chaos: Vec::new(),
            managed: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The one-line description in `--help`.
    pub fn about(mut self, about: &'static str) -> App {
        self.about = Some(about);
        self
    }

    /// Where the build script wrote the descriptions (`env!("ROBOT_DESCRIPTIONS_DIR")`, see
    /// `robot_core::build`): where `emit` and `run` write by default when the program does not
    /// run from a cargo target directory. From one (`cargo run`), they write into the stable
    /// `<target>/descriptions/<robot>/`, whatever the features, profile or `--target`. Without
    /// either, `emit` needs `--out` and `run` emits only with `--out`.
    pub fn descriptions_dir(mut self, dir: impl Into<PathBuf>) -> App {
        self.descriptions_dir = Some(dir.into());
        self
    }

    /// Enables `emit --checked-in`, which calls `regenerate` (for a crate that checks its
    /// descriptions in and tests that they are fresh).
    pub fn checked_in(mut self, regenerate: Regenerate) -> App {
        self.checked_in = Some(regenerate);
        self
    }

    /// The robot crate's Cargo metadata, which the `package.xml` of `emit --ros-package` starts
    /// from (its flags override each): `.cargo_package(env!("CARGO_PKG_VERSION"),
    /// env!("CARGO_PKG_AUTHORS"), env!("CARGO_PKG_LICENSE"))`.
    pub fn cargo_package(
        mut self,
        version: &'static str,
        authors: &'static str,
        license: &'static str,
    ) -> App {
        self.cargo_package = Some(CargoPackage {
            version,
            authors,
            license,
        });
        self
    }

    /// Parses the process's arguments and runs the command; exit code 0 on success, 1 on error
    /// (the error on stderr), 2 for a bad command line (clap's).
    pub fn main(self) -> ExitCode {
        self.main_from(std::env::args_os())
    }

    /// [`App::main`] on the command line `args`, the program's name first: for a program that
    /// builds its command line itself, or a test that runs the tool in a child process of its
    /// own.
    pub fn main_from<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        if !self.problems.is_empty() {
            for problem in &self.problems {
                eprintln!("error: {}: {problem}", self.name);
            }
            return ExitCode::FAILURE;
        }
        let mut command = Cli::command().name(self.name).bin_name(self.name);
        if let Some(about) = self.about {
            command = command.about(about);
        }
        if self.checked_in.is_none() {
            command = command.mut_subcommand("emit", |emit| {
                emit.mut_arg("checked_in", |flag| flag.hide(true))
            });
        }
        let cli = match command
            .clone()
            .try_get_matches_from(args)
            .and_then(|m| Cli::from_arg_matches(&m))
        {
            Ok(cli) => cli,
            Err(error) => error.exit(),
        };
        if let Command::Can(can) = cli.command {
            let find_robot = |name: Option<&str>| match name {
                Some(name) => self.find(name),
                None => self.first_robot(),
            };
            return match can::run(can, &find_robot) {
                Ok(()) => ExitCode::SUCCESS,
                Err(tool_error::ToolError::Usage(message)) => command
                    .error(clap::error::ErrorKind::ValueValidation, message)
                    .exit(),
                Err(tool_error::ToolError::Failed(message)) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        if let Command::Imu(imu) = cli.command {
            return match imu::run(imu) {
                Ok(()) => ExitCode::SUCCESS,
                Err(tool_error::ToolError::Usage(message)) => command
                    .error(clap::error::ErrorKind::ValueValidation, message)
                    .exit(),
                Err(tool_error::ToolError::Failed(message)) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        match self.execute(cli.command) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        }
    }

    fn execute(&self, command: Command) -> Result<(), String> {
        match command {
            Command::Emit(args) => self.emit(args),
            Command::Describe { robot } => {
                let robot = match robot {
                    Some(name) => self.find(&name)?,
                    None => self.first_robot()?,
                };
                out!("{}", crate::describe::table(robot));
                let own = registry::of(&self.controllers, robot);
                if !own.is_empty() {
                    outln!("\ncontrollers (run --controller NAME; the first is the default)");
                    for c in own {
                        outln!("  {:<20} {}", c.name, c.about);
                    }
                }
                Ok(())
            }
            Command::Check { config, robot } => self.check(&config, robot.as_deref()),
            Command::Run(args) => self.run(args),
            Command::Chaos(args) => {
                let robot = match &args.robot {
                    Some(name) => self.find(name)?,
                    None => self.first_robot()?,
                };
                let entry = self.chaos.iter().find(|c| c.robot.name == robot.name);
                entry
                    .ok_or_else(|| self.unknown_robot(&robot.name))?
                    .main(&args)
            }
            Command::Plot { recording, out } => plot_recording(&recording, &out),
            Command::Recover { input, out } => recover_recording(&input, &out),
            // Handled in `main`, which knows the command line for its usage errors.
            Command::Can(_) | Command::Imu(_) => Ok(()),
        }
    }

    fn first_robot(&self) -> Result<&'static Robot, String> {
        self.robots.first().copied().ok_or_else(|| {
            format!(
                "`{}` knows no robot: register one with App::robot",
                self.name
            )
        })
    }

    fn find(&self, name: &str) -> Result<&'static Robot, String> {
        self.robots
            .iter()
            .copied()
            .find(|r| r.name == name)
            .ok_or_else(|| self.unknown_robot(name))
    }

    fn unknown_robot(&self, name: &str) -> String {
        let known: Vec<&str> = self.robots.iter().map(|r| r.name.as_ref()).collect();
        let hint = robot_core::validate::suggest::did_you_mean_before(name, known.iter().copied());
        format!(
            "unknown robot `{name}`; {hint}{} knows: {}",
            self.name,
            known.join(", ")
        )
    }

    /// `check`: the robot from `--robot` or the file's `robot:` field, then the full load.
    fn check(&self, path: &Path, robot: Option<&str>) -> Result<(), String> {
        let robot = match robot {
            Some(name) => self.find(name)?, // a bad `--robot` is the command line's mistake
            None => self.robot_of(path).map_err(config_failed)?,
        };
        let loaded = config::load(path, robot).map_err(config_failed)?;
        // What `run` would refuse before anything runs, `check` refuses too: a sensor the
        // backend has no driver for, a bus without an interface, an IMU without a port.
        crate::backends::interfaces_given(robot, loaded.backend, Some(&loaded))
            .map_err(|why| format!("{}: `run` would refuse it: {why}", path.display()))?;
        let buses = robot.buses.len();
        let disabled = loaded.disabled_joints().count();
        outln!(
            "{}: ok ({} on {}; {buses} {}; {disabled} {} disabled)",
            path.display(),
            robot.name,
            loaded.backend,
            plural(buses, "bus", "buses"),
            plural(disabled, "joint", "joints"),
        );
        if let Err(why) = crate::backends::available(loaded.backend) {
            eprintln!("note: `run` cannot use it in this build: {why}");
        }
        Ok(())
    }

    /// The robot a configuration file names in its `robot:` field.
    fn robot_of(&self, path: &Path) -> Result<&'static Robot, ConfigError> {
        let name = config::robot_name_of(path)?;
        self.robots
            .iter()
            .copied()
            .find(|r| r.name == name)
            .ok_or_else(|| {
                let known: Vec<&str> = self.robots.iter().map(|r| r.name.as_ref()).collect();
                config::unknown_robot(path, &name, &known)
            })
    }

    fn run(&self, args: RunArgs) -> Result<(), String> {
        // Written at the end of the run: checked before anything is configured.
        if let Some(path) = &args.plot {
            output_path::check_writable(path, "--plot")?;
        }
        if let Some(path) = &args.frame {
            output_path::check_writable(path, "--frame")?;
        }
        if let Some(path) = &args.record {
            output_path::check_writable(path, "--record")?;
        }
        let mut config: Option<RuntimeConfig> = match &args.config {
            Some(path) => {
                let robot = match &args.robot {
                    Some(name) => self.find(name)?,
                    None => self.robot_of(path).map_err(config_failed)?,
                };
                Some(config::load(path, robot).map_err(config_failed)?)
            }
            None => None,
        };
        let robot = match (&args.robot, &config) {
            (Some(name), _) => self.find(name)?,
            (None, Some(config)) => self.find(&config.robot)?,
            (None, None) => self
                .controllers
                .first()
                .map(|c| c.robot)
                .map_or_else(|| self.first_robot(), Ok)?,
        };
        // --controllers: the controllers of controllers.yaml under a controller manager.
        let chosen = match (&args.controller, &args.controllers) {
            (Some(name), Some(_)) if name != "manager" => {
                return Err(format!(
                    "--controllers names the controllers a controller manager starts: it runs \
                     `manager`, not `{name}`; give one or the other"
                ));
            }
            (_, Some(_)) => Some("manager"),
            (name, None) => name.as_deref(),
        };
        let controller = self.controller_for(robot, chosen)?;
        let backend = args
            .backend
            .map(Backend::from)
            .or(config.as_ref().map(|c| c.backend))
            .unwrap_or(Backend::Mock);
        if args.model.is_some() || args.stop_on_fall {
            if backend != Backend::Mujoco {
                let flag = match &args.model {
                    Some(model) => format!("--model {model} chooses what MuJoCo simulates"),
                    None => "--stop-on-fall watches a robot in MuJoCo".to_string(),
                };
                return Err(format!("{flag}, but the backend is {backend}"));
            }
            // The flags win over the file's `mujoco` section; without a file, a configuration
            // that says only that (it changes nothing else: no buses, calibration or disabled
            // joints).
            let mut with_flags = config.take().unwrap_or_else(|| RuntimeConfig {
                robot: robot.name.to_string(),
                backend,
                buses: Default::default(),
                joints: Default::default(),
                imus: Default::default(),
                sensors: Default::default(),
                mujoco: Default::default(),
                topic: Default::default(),
                ros: None,
            });
            if let Some(model) = &args.model {
                with_flags.mujoco.model = model.clone();
            }
            with_flags.mujoco.stop_on_fall |= args.stop_on_fall;
            config = Some(with_flags);
        }
        let rate = args.rate.unwrap_or(robot.update_rate);
        let period = Duration::from_secs_f64(1.0 / f64::from(rate));
        let spin = Duration::from_micros(args.spin_us);
        if spin >= period {
            return Err(format!(
                "--spin-us {} is not less than the period at {rate} Hz ({} µs)",
                args.spin_us,
                period.as_micros()
            ));
        }
        if let Some(note) =
            crate::run::check_bus_load(robot, backend, rate).map_err(|e| e.to_string())?
        {
            eprintln!("note: the real robot would refuse {rate} Hz:\n{note}");
        }
        crate::backends::available(backend).map_err(|e| e.to_string())?;
        let pacing = crate::backends::pacing(backend, args.fast).map_err(|e| e.to_string())?;
        crate::backends::interfaces_given(robot, backend, config.as_ref())
            .map_err(|e| e.to_string())?;
        let frame = frame::request(&args, backend)?;
        if let Some(out) = args
            .out
            .clone()
            .or_else(|| descriptions::default_dir(self.descriptions_dir.as_deref()))
        {
            let dir = out.join(robot.name.as_ref());
            let written = write_all(robot, &dir).map_err(|e| e.to_string())?;
            outln!(
                "emitted {} files into {}",
                written.paths.len(),
                dir.display()
            );
        }
        let undriven = crate::backends::undriven_sensors(robot, config.as_ref());
        if backend == Backend::Real && !undriven.is_empty() {
            eprintln!(
                "warning: {} left undriven on purpose (the configuration's `sensors:`): {} NaN",
                undriven.join(", "),
                if undriven.len() == 1 {
                    "it reads"
                } else {
                    "they read"
                },
            );
        }
        if let Some(config) = &config {
            let disabled: Vec<&str> = config.disabled_joints().collect();
            if !disabled.is_empty() {
                eprintln!(
                    "warning: {} disables {}: {} commands to {} are not sent, and {} stays where it is",
                    args.config
                        .as_deref()
                        .unwrap_or(Path::new("the config"))
                        .display(),
                    disabled.join(", "),
                    controller.name,
                    if disabled.len() == 1 { "it" } else { "them" },
                    if disabled.len() == 1 { "it" } else { "each" },
                );
            }
        }
        let options = LoopOptions {
            activate: true,
            stop_after: StopAfter {
                cycles: None,
                duration: Some(Duration::from_secs_f64(args.seconds)),
            },
            realtime: RealtimeOptions {
                fifo_priority: args.fifo_priority,
                cpu: args.cpu.map(usize::from),
                lock_memory: args.lock_memory,
            },
            spin,
            pacing,
            ..LoopOptions::default()
        };
        outln!(
            "running {} ({}) on {} on {} at {rate} Hz for {} s{}",
            controller.name,
            controller.about,
            robot.name,
            crate::backends::label(robot, backend, config.as_ref()),
            args.seconds,
            match pacing {
                Pacing::RealTime => "",
                Pacing::Simulated => " of simulated time, paced to the wall clock",
                Pacing::SimulatedFast => " of simulated time, as fast as it steps",
            }
        );
        if backend == Backend::Mujoco {
            use robot_core::config::MujocoModel;
            let model = config.as_ref().map(RuntimeConfig::mujoco_model);
            outln!(
                "simulating {}",
                match model.unwrap_or_default() {
                    MujocoModel::Scene => format!("{}.scene.xml: on the floor", robot.name),
                    MujocoModel::Stand if robot.floating_base => {
                        format!("{}.stand.scene.xml: on the test stand", robot.name)
                    }
                    MujocoModel::Stand => format!(
                        "{}.scene.xml: a fixed base has no stand, it stands on its base",
                        robot.name
                    ),
                    MujocoModel::File(path) => path.display().to_string(),
                }
            );
        }
        let ros = crate::ros::request(args.ros, args.ros_rate, config.as_ref())?;
        let request = RunRequest {
            backend,
            config: config.as_ref(),
            rate_hz: Some(rate),
            options,
            plot: args.plot.as_deref(),
            frame: frame.as_ref(),
            ros: ros.as_ref(),
            record: args.record.as_deref(),
            // Joined by the run (or the controller) that speaks ROS 2, once.
            participant: None,
            controllers: args.controllers.as_deref(),
        };
        let finished = (controller.run)(&request, &mut std::io::stdout())
            .map_err(|error| failed_run(&error, &mut std::io::stdout()))?;
        out!("{}", summary(&finished.report));
        print_positions(&finished.positions);
        print_sensors(&finished.sensors);
        match &frame {
            Some(frame) => frame::written(frame, &finished.report),
            None => Ok(()),
        }
    }

    fn controller_for(&self, robot: &Robot, name: Option<&str>) -> Result<&Registered, String> {
        let own = registry::of(&self.controllers, robot);
        let names = || own.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
        match name {
            None => own
                .first()
                .copied()
                .ok_or_else(|| format!("`{}` has no controller for {}", self.name, robot.name)),
            Some(name) => own.iter().copied().find(|c| c.name == name).ok_or_else(|| {
                let hint = robot_core::validate::suggest::did_you_mean_before(
                    name,
                    own.iter().map(|c| c.name),
                );
                format!(
                    "{} has no controller `{name}`; {hint}its controllers: {}",
                    robot.name,
                    names()
                )
            }),
        }
    }
}
