//! The command line, as clap parses it: every numeric flag has its range here, so a bad value is
//! refused with the range before anything runs.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use robot_core::Backend;
use robstride_protocol::{BaudRate, Protocol, RobstrideModel};
use robstride_tools::{commission, inspect};

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
    /// `sensor_msgs/JointState` over DDS: a simulator or robot driver on this machine or another.
    Topic,
}

impl From<BackendArg> for Backend {
    fn from(arg: BackendArg) -> Backend {
        match arg {
            BackendArg::Real => Backend::Real,
            BackendArg::Mujoco => Backend::Mujoco,
            BackendArg::Mock => Backend::Mock,
            BackendArg::Topic => Backend::Topic,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct EmitArgs {
    /// The robot, by ROS name; all robots when omitted.
    #[arg(long, conflicts_with = "checked_in")]
    pub robot: Option<String>,
    /// Folder to write into; each robot gets a subfolder named after it. By default the
    /// folder `cargo build` writes (printed by the build).
    #[arg(long, conflicts_with_all = ["checked_in", "ros_package"])]
    pub out: Option<PathBuf>,
    /// A runtime configuration whose bus interfaces, IMU ports and topics become the
    /// defaults of the launch args (`can_interface_<bus>`, `imu_port`, …); its robot only.
    #[arg(long, conflicts_with = "checked_in")]
    pub config: Option<PathBuf>,
    /// The `prefix` arg's default, which goes before every link, joint, sensor and
    /// `<ros2_control>` name, and before every joint, sensor and frame name of
    /// `controllers.yaml` (two robots in one graph).
    #[arg(long, conflicts_with = "checked_in")]
    pub prefix: Option<String>,
    /// Write each robot's ROS 2 description package, `<robot>_description/`, into this folder
    /// (a colcon workspace's `src/`, say) instead of the loose descriptions.
    #[arg(long, conflicts_with = "checked_in", value_name = "DIR")]
    pub ros_package: Option<PathBuf>,
    /// The package's maintainer, `"Name <email>"`; by default the crate's first author.
    #[arg(long, requires = "ros_package")]
    pub maintainer: Option<String>,
    /// The package's licence (an SPDX expression: `A OR B` gives one `<license>` each); by
    /// default the crate's.
    #[arg(long, requires = "ros_package")]
    pub license: Option<String>,
    /// The package's version, MAJOR.MINOR.PATCH; by default the crate's.
    #[arg(long, requires = "ros_package")]
    pub package_version: Option<String>,
    /// The package's description; by default one naming the robot and what the package holds.
    #[arg(long, requires = "ros_package")]
    pub description: Option<String>,
    /// Regenerate the checked-in copies of the descriptions and schemas.
    #[arg(long)]
    pub checked_in: bool,
}

#[derive(Debug, Parser)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write every emitted description of a robot (or of all robots) into a folder, or (with
    /// `--ros-package`) its ROS 2 description package.
    Emit(EmitArgs),
    /// Print a table of joints, buses, interfaces, limits and the bus load at the update rate.
    Describe {
        /// The robot, by ROS name; the first one this tool knows by default.
        #[arg(long)]
        robot: Option<String>,
    },
    /// Validate a runtime configuration file (backend, bus interfaces, IMU ports, sensors,
    /// calibration) against the configuration schema and its robot, and what `run` would refuse;
    /// print every error and exit 1 when it is not valid.
    Check {
        /// The configuration file (YAML).
        config: PathBuf,
        /// The robot to check against, by ROS name; by default the file's `robot:` field.
        #[arg(long)]
        robot: Option<String>,
    },
    /// Draw a recording (`run --record`) as `run --plot` draws a run: every joint's commanded
    /// against measured position, into an `.svg` or `.png`.
    Plot {
        /// The recording (`.mcap`).
        recording: PathBuf,
        /// The picture (`.svg` or `.png`).
        #[arg(long, value_name = "FILE", value_parser = plot_path)]
        out: PathBuf,
    },
    /// Make a recording cut short (a run killed with SIGKILL, a power loss) whole again: write
    /// the records that read (every whole chunk whose CRC matches) into a complete file, with the
    /// summary, indexes, statistics and rosbag2 metadata the readers that start from the footer
    /// need (`rosbags`, `ros2 bag`); say what was recovered and what was lost.
    Recover {
        /// The recording cut short (`.mcap`).
        input: PathBuf,
        /// The complete file to write (not the recording itself).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Emit the robot's descriptions, then run a controller on the backend the config or
    /// `--backend` selects, showing progress and printing the loop statistics at the end.
    Run(RunArgs),
    /// Run the real control loop, components and a controller on simulated time against
    /// simulated hardware, under fault schedules drawn from a seed, and check the safety
    /// invariants after each; exit 1 on a violation, printing its schedule shrunk.
    Chaos(ChaosArgs),
    /// RobStride motors on a CAN bus: find them, set their ids, zeros and parameters; and the
    /// traffic as text: encode a request as a `cansend` line, decode `candump -L` lines to JSON.
    #[command(subcommand)]
    Can(CanCommand),
    /// WitMotion-protocol IMUs on a serial port: find one's baud rate, read it, set its rate,
    /// content and baud, calibrate and save it; decode a hex byte stream to JSON.
    #[command(subcommand)]
    Imu(super::imu::ImuCommand),
}

/// `chaos`'s options.
#[derive(Debug, clap::Args)]
pub struct ChaosArgs {
    /// The robot, by ROS name; the first one this tool knows by default.
    #[arg(long)]
    pub robot: Option<String>,
    /// How many schedules to run.
    #[arg(long, default_value_t = 1000)]
    pub schedules: u64,
    /// The run's seed: the same seed runs the same schedules, with the same digest.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replay one schedule by its own seed (as a violation prints it: `0x...`), telling its
    /// faults and how it ended.
    #[arg(long, value_name = "SCHEDULE_SEED", value_parser = schedule_seed, conflicts_with_all = ["schedules", "seed"])]
    pub replay: Option<u64>,
    /// Simulated seconds a schedule runs if no fault ends it first.
    #[arg(long, default_value_t = 1.0, value_parser = chaos_seconds)]
    pub seconds: f64,
    /// Threads to run schedules on (every core by default); the outcome does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print every schedule's digest, not only the whole run's.
    #[arg(long)]
    pub each: bool,
    /// Plant a defect in the bus components, to see that it is found (the real path only).
    #[arg(long, value_enum)]
    pub plant: Option<Plant>,
    /// What the schedules run on: the real path (simulated buses and IMUs), MuJoCo (with the
    /// `mujoco` feature), or the topic backend against a peer in process.
    #[arg(long, value_enum, default_value = "real")]
    pub backend: ChaosBackend,
}

/// What `chaos` simulates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChaosBackend {
    /// RobStride buses and WitMotion IMUs, simulated.
    Real,
    /// The MuJoCo simulation.
    Mujoco,
    /// The topic backend, against a peer in process.
    Topic,
}

/// A defect `chaos --plant` plants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Plant {
    /// `on_deactivate` reports success and leaves torque on.
    TorqueLeftOn,
    /// The last command is written again after torque off.
    WriteAfterStop,
    /// A failed torque-off is reported as done, so it is never retried.
    NoRetry,
    /// The controller's positions go out with no limit check.
    NoLimitCheck,
}

fn schedule_seed(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|e| format!("`{text}` is not a seed (a number, or hex after `0x`): {e}"))
}

fn chaos_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.01..=60.0).contains(&value) => Ok(value),
        _ => Err(format!("`{text}`: give simulated seconds from 0.01 to 60")),
    }
}

/// `can scan`, `set-id`, `set-zero`, `param`, `encode` and `decode`.
#[derive(Debug, Subcommand)]
pub enum CanCommand {
    /// Print one host->motor request as `cansend` takes it: `IIIIIIII#DDDDDDDDDDDDDDDD`, the
    /// 29-bit id as 8 uppercase hex digits and the 8 data bytes as uppercase hex.
    Encode(EncodeArgs),
    /// Decode frames (`ID#DATA` or `candump -L` lines `(ts) iface ID#DATA`) from the arguments,
    /// or from stdin when none are given, printing one JSON object per line; a line that does
    /// not decode prints `{"line": ..., "error": ...}` and the exit status stays 0.
    Decode(DecodeArgs),
    /// Find the motors on a bus: every id from --from to --to that answers get-id, with its
    /// MCU UID, run mode, angle and bus voltage. Changes nothing on any motor.
    Scan(ScanArgs),
    /// Give a motor a new CAN id (effective at once).
    SetId(SetIdArgs),
    /// Stop a motor, then make its present angle its mechanical zero; prints the angle read back.
    SetZero(MotorArgs),
    /// Read, write (to RAM, read back to confirm) or save (to flash) a motor's parameters.
    #[command(subcommand)]
    Param(ParamCommand),
}

/// The bus a commissioning command talks on.
#[derive(Debug, clap::Args)]
pub struct BusArgs {
    /// The CAN interface (`can0`), or `sim`: an in-process bus carrying simulated actuators for
    /// the motors of --robot's --bus, alive for this one command.
    #[arg(long)]
    pub interface: String,
    /// The host id the requests carry (0 to 255).
    #[arg(long, default_value_t = 253)]
    pub host: u8,
    /// How long each request waits for its reply, ms (1 to 10000).
    #[arg(long, default_value_t = 20, value_parser = whole_in(1u64, 10_000))]
    pub timeout_ms: u64,
    /// With `--interface sim`: the robot whose motors the simulated bus carries, by ROS name;
    /// the first one this tool knows by default.
    #[arg(long)]
    pub robot: Option<String>,
    /// With `--interface sim`: which of the robot's buses; its first by default.
    #[arg(long)]
    pub bus: Option<String>,
}

/// `can scan`.
#[derive(Debug, clap::Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub bus: BusArgs,
    /// The first id asked (1 to 127).
    #[arg(long, default_value_t = 1, value_parser = motor_id)]
    pub from: u8,
    /// The last id asked (1 to 127).
    #[arg(long, default_value_t = 127, value_parser = motor_id)]
    pub to: u8,
}

/// A commissioning command for one motor.
#[derive(Debug, clap::Args)]
pub struct MotorArgs {
    #[command(flatten)]
    pub bus: BusArgs,
    /// The motor's CAN id (1 to 127).
    #[arg(long, value_parser = motor_id)]
    pub motor: u8,
}

/// `can set-id`.
#[derive(Debug, clap::Args)]
pub struct SetIdArgs {
    #[command(flatten)]
    pub target: MotorArgs,
    /// The new id (1 to 127).
    #[arg(value_parser = motor_id)]
    pub new: u8,
}

/// `can param read|write|save`.
#[derive(Debug, Subcommand)]
pub enum ParamCommand {
    /// Read a parameter (type 17).
    Read {
        #[command(flatten)]
        target: MotorArgs,
        /// A parameter name (`loc_kp`) or index (`0x701E`).
        #[arg(value_parser = inspect::parse_param_index)]
        param: u16,
    },
    /// Write a parameter to RAM (type 18), then read it back to confirm.
    Write {
        #[command(flatten)]
        target: MotorArgs,
        /// A parameter name (`loc_kp`) or index (`0x701E`) of the table.
        param: String,
        /// The value, of the parameter's type.
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Save the parameters written so far to flash (type 22), to keep them over a power cycle.
    Save(MotorArgs),
}

/// A motor id RobStride firmware takes, 1 to 127.
fn motor_id(text: &str) -> Result<u8, String> {
    let id: u16 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a motor id: give 1 to 127"))?;
    commission::motor_id(id).map_err(|e| e.to_string())
}

#[derive(Debug, clap::Args)]
pub struct EncodeArgs {
    /// The actuator model (RS00..RS06, EL05), which scales `mit` setpoints.
    #[arg(long, value_parser = inspect::parse_model)]
    pub model: RobstrideModel,
    /// The motor's CAN id (0 to 255).
    #[arg(long)]
    pub motor: u8,
    /// The host id (0 to 255).
    #[arg(long, default_value_t = 253)]
    pub host: u8,
    #[command(subcommand)]
    pub request: RequestArg,
}

#[derive(Debug, clap::Args)]
pub struct DecodeArgs {
    /// The actuator model (RS00..RS06, EL05), which scales setpoints and feedback.
    #[arg(long, value_parser = inspect::parse_model)]
    pub model: RobstrideModel,
    /// Frame lines; stdin, one frame a line, when none are given.
    pub lines: Vec<String>,
}

/// The request to encode.
#[derive(Debug, Subcommand)]
pub enum RequestArg {
    /// Type 1, operation control (finite values; clamped to the model's ranges).
    Mit {
        /// Target position, rad.
        #[arg(long, allow_hyphen_values = true, value_parser = inspect::parse_finite)]
        position: f32,
        /// Target velocity, rad/s.
        #[arg(long, allow_hyphen_values = true, value_parser = inspect::parse_finite)]
        velocity: f32,
        /// Stiffness.
        #[arg(long, allow_hyphen_values = true, value_parser = inspect::parse_finite)]
        kp: f32,
        /// Damping.
        #[arg(long, allow_hyphen_values = true, value_parser = inspect::parse_finite)]
        kd: f32,
        /// Feed-forward torque, N·m.
        #[arg(long, allow_hyphen_values = true, value_parser = inspect::parse_finite)]
        torque: f32,
    },
    /// Type 3, enable.
    Enable,
    /// Type 4, stop.
    Stop {
        /// Also clear faults.
        #[arg(long)]
        clear_fault: bool,
    },
    /// Type 6, set the mechanical zero.
    SetZero,
    /// Type 0, get the device id.
    GetId,
    /// Type 7, set the motor's CAN id.
    SetId {
        /// The new id (0 to 255).
        new: u8,
    },
    /// Type 17, read a parameter.
    ParamRead {
        /// A parameter name (`loc_kp`) or index (`0x701E`).
        #[arg(value_parser = inspect::parse_param_index)]
        param: u16,
    },
    /// Type 18, write a parameter (RAM; `save` keeps it).
    ParamWrite {
        /// A parameter name (`loc_kp`) or index (`0x701E`) of the table.
        param: String,
        /// The value, of the parameter's type.
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Type 22, save parameters.
    Save,
    /// Type 23, bus rate (after a power cycle): 1000000, 500000, 250000 or 125000.
    Baud {
        /// The rate, bit/s.
        #[arg(value_parser = inspect::parse_baud)]
        rate: BaudRate,
    },
    /// Type 24, active reports on or off.
    ActiveReport {
        /// `on` or `off`.
        state: OnOff,
    },
    /// Type 25, protocol switch (after a power cycle).
    Protocol {
        /// `private`, `canopen` or `mit`.
        #[arg(value_parser = inspect::parse_protocol)]
        protocol: Protocol,
    },
}

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    /// On.
    On,
    /// Off.
    Off,
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
    /// Run the controllers of controllers.yaml under a controller manager (`--controller
    /// manager`), these active at start and the others inactive, to switch to with `ros2
    /// control switch_controllers`: `left_leg_trajectory_controller,right_leg_effort_controller`.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub controllers: Option<Vec<String>>,
    /// Backend, overriding the config's; mock without either.
    #[arg(long, value_enum, ignore_case = true)]
    pub backend: Option<BackendArg>,
    /// How long to run, seconds (more than 0, at most 86400); simulated seconds on MuJoCo or
    /// with `--fast`.
    #[arg(long, default_value_t = 6.0, value_parser = seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Run on simulated time as fast as the backend steps (MuJoCo, mock), not paced to the wall
    /// clock; the statistics give the real-time factor. Refused on the real robot.
    #[arg(long)]
    pub fast: bool,
    /// On MuJoCo, what is simulated, overriding the config's `mujoco.model`: `scene` (the robot
    /// on the floor, the default), `stand` (hanging on a test stand) or an MJCF file (`.xml`).
    #[arg(long, value_name = "scene|stand|FILE.xml", value_parser = mujoco_model)]
    pub model: Option<robot_core::config::MujocoModel>,
    /// On MuJoCo, end the run when the robot falls (its floating base below half its home
    /// height, or tilted more than 45°), as the config's `mujoco.stop_on_fall`; a fall is in the
    /// statistics either way.
    #[arg(long)]
    pub stop_on_fall: bool,
    /// Loop rate, Hz (1 to 10000); the robot's update rate by default.
    #[arg(long, value_parser = whole_in(1u32, MAX_RATE_HZ), allow_negative_numbers = true)]
    pub rate: Option<u32>,
    /// Run the control thread under SCHED_FIFO at this priority (1 to 99).
    #[arg(long, value_parser = whole_in(1i32, 99), allow_negative_numbers = true)]
    pub fifo_priority: Option<i32>,
    /// Pin the control thread to this CPU (0 to 1023).
    #[arg(long, value_parser = whole_in(0u16, 1023), allow_negative_numbers = true)]
    pub cpu: Option<u16>,
    /// Lock the process's memory (mlockall).
    #[arg(long)]
    pub lock_memory: bool,
    /// Spin for the last N microseconds before each deadline instead of sleeping (busy core,
    /// lower wake-up lateness); less than the period.
    #[arg(long, default_value_t = 0, value_parser = whole_in(0u64, 1_000_000), allow_negative_numbers = true)]
    pub spin_us: u64,
    /// Join the ROS 2 graph (domain `ROS_DOMAIN_ID`, else 0) and publish the running robot as
    /// a ros2_control robot with robot_state_publisher would: /joint_states, /imu/data, /tf,
    /// /tf_static, /robot_description and /diagnostics. A config's `ros:` section does too, and
    /// says the namespace, rates and topics.
    #[arg(long)]
    pub ros: bool,
    /// With --ros (or a `ros:` section), /joint_states, /imu/data and /tf at most this often,
    /// Hz (1 to 10000; the loop's rate when slower); default 500, or the section's `rate_hz`.
    #[arg(long, value_parser = whole_in(1u32, MAX_RATE_HZ), allow_negative_numbers = true)]
    pub ros_rate: Option<u32>,
    /// Folder to emit the descriptions into; by default `target/descriptions/`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Draw every joint's commanded against measured position over the run into this file
    /// (`.svg` or `.png`), however the run ends.
    #[arg(long, value_name = "FILE", value_parser = plot_path)]
    pub plot: Option<PathBuf>,
    /// Record every cycle into this rosbag2 MCAP file (`ros2 bag play`, Foxglove,
    /// PlotJuggler, `plot`): /joint_states, /joint_commands, /tf, /imu/data, /tf_static and
    /// /robot_description, with or without --ros.
    #[arg(long, value_name = "FILE.mcap")]
    pub record: Option<PathBuf>,
    /// With `--backend mujoco`: render one frame of the robot mid-run into this PNG, headless
    /// (robot-runner's cargo feature `render`; the shipped tool's `mujoco-render`). The cycle
    /// that renders runs long: 0.16 s in a release build on a software rasterizer.
    #[arg(long, value_name = "FILE", value_parser = frame_path)]
    pub frame: Option<PathBuf>,
    /// Simulated time of the frame, seconds from the start (0 to `--seconds`); the middle of the
    /// run by default.
    #[arg(long, value_name = "SECONDS", requires = "frame", value_parser = frame_at, allow_negative_numbers = true)]
    pub frame_at: Option<f64>,
}

/// A frame file: a `.png`.
fn frame_path(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match path.extension().and_then(|e| e.to_str()) {
        Some(extension) if extension.eq_ignore_ascii_case("png") => Ok(path),
        _ => Err(format!(
            "`{text}` is not a `.png` file: a frame is written as PNG"
        )),
    }
}

/// A frame time: a number of seconds, at least 0 (at most the run's length, checked with it).
fn frame_at(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=MAX_SECONDS).contains(&value) => Ok(value),
        _ => Err(format!(
            "`{text}` is not a time in the run: give 0 to {MAX_SECONDS} seconds"
        )),
    }
}

/// A `--model`: `scene`, `stand` or an `.xml` path, as the config's `mujoco.model`.
fn mujoco_model(text: &str) -> Result<robot_core::config::MujocoModel, String> {
    text.parse()
        .map_err(|e: robot_core::config::MujocoModelError| e.to_string())
}

/// A plot file: its extension names a format [`crate::plot`] draws.
fn plot_path(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    crate::plot::Format::of(&path).map_err(|e| e.to_string())?;
    Ok(path)
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

/// A whole number from `lower` to `upper`; anything else (`abc`, `1.5`, `-3`, too big) is refused
/// naming the range, never with the parser's bare `invalid digit found in string`.
fn whole_in<T>(lower: T, upper: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| match text.parse::<T>() {
        Ok(value) if lower <= value && value <= upper => Ok(value),
        Ok(_) => Err(format!("{text} is not in {lower}..={upper}")),
        // A whole number the type cannot hold (`-5` for a rate) is out of range, not malformed.
        Err(_) if text.parse::<i128>().is_ok() => {
            Err(format!("{text} is not in {lower}..={upper}"))
        }
        Err(_) => Err(format!(
            "`{text}` is not a whole number in {lower}..={upper}"
        )),
    }
}
