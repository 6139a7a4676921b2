//! Running a controller: the components the backend needs, a control loop on its own thread,
//! progress while it runs, Ctrl-C and SIGTERM handled, and the loop statistics at the end.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use robot_core::Backend;
use robot_core::bus_load::{self, BusOverloadError};
use robot_core::config::RuntimeConfig;
use robot_core::control_loop::{
    ControlLoop, Controller, LoopControl, LoopError, LoopOptions, LoopReport,
};
use robot_core::hardware::{Component, HardwareError, System};
use robot_core::typed::RobotTypes;

use crate::backends;
use crate::plot::{self, PlotError};
use crate::record;
use crate::ros::{self, RosRequest};
use crate::trace::{self, Recording, Trace};

/// Why a run could not start or ended badly.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The selected backend cannot be built.
    #[error("backend `{backend}`: {reason}")]
    Backend {
        /// The backend.
        backend: Backend,
        /// Why not.
        reason: String,
    },
    /// The real robot's buses cannot carry the loop at the requested rate.
    #[error("at {rate} Hz the buses would be overloaded:\n{source}")]
    BusLoad {
        /// The requested rate, Hz.
        rate: u32,
        /// Which bus, by how much.
        source: BusOverloadError,
    },
    /// The components refused the robot (shown with its aftermath).
    #[error("{0:#}")]
    Hardware(#[from] HardwareError),
    /// The loop ended with an error.
    #[error(transparent)]
    Loop(#[from] LoopError),
    /// SIGINT or SIGTERM stopped the run; the loop switched the hardware off first.
    #[error("interrupted by a signal: the loop stopped and the hardware is {}\n{}", .report.final_lifecycle, summary(.report))]
    Interrupted {
        /// The run up to the signal.
        report: Box<LoopReport>,
    },
    /// The signal handler could not be installed (the program has one of its own).
    #[error(
        "cannot handle Ctrl-C and SIGTERM: {0}; a run must be stoppable by them, so a program \
         with its own handler cannot use `run`: drive a `ControlLoop` and stop it from that handler"
    )]
    Signals(String),
    /// The run went as asked, but its plot could not be written.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// `--ros`, but the robot cannot publish into the ROS 2 graph.
    #[error(transparent)]
    Ros(#[from] ros2_graph::GraphError),
    /// The run speaks ROS 2, but no DDS participant can be made (no network, a port taken, a
    /// domain out of range).
    #[error(transparent)]
    Participant(#[from] ros2_dds::WireError),
    /// The run's DDS domain cannot be told (a `ROS_DOMAIN_ID` that is no number, two that
    /// differ).
    #[error("{0}")]
    Domain(String),
    /// `--record` to a path that cannot be written (refused before the hardware is
    /// configured), or the recording thread could not start.
    #[error(transparent)]
    Record(#[from] ros2_record::RecordError),
}

/// The ROS 2 graph's observer (`--ros`), the recorder's (`--record`), either or both.
type Observers<R> = (
    Option<ros2_graph::GraphObserver<R>>,
    Option<ros2_record::RecordObserver<R>>,
);

/// What watches the loop, and the recorder, whose failure (a full disk) the progress reports
/// when it happens.
struct Watchers<'a, R: RobotTypes> {
    observers: Option<Observers<R>>,
    /// Where the graph reads the running loop's counters (`/diagnostics`), with `--ros`.
    loop_watch: Option<ros2_graph::LoopWatch>,
    recorder: Option<&'a ros2_record::Recorder>,
}

impl<R: RobotTypes> Watchers<'_, R> {
    const NONE: Self = Watchers {
        observers: None,
        loop_watch: None,
        recorder: None,
    };
}

impl RunError {
    /// The statistics of a run that got as far as running and then failed or was stopped.
    pub fn report(&self) -> Option<&LoopReport> {
        match self {
            RunError::Loop(error) => error.report(),
            RunError::Interrupted { report } => Some(report),
            _ => None,
        }
    }
}

/// What to run on: the backend, its configuration, the rate and the loop's options.
#[derive(Debug, Clone, Copy)]
pub struct RunRequest<'a> {
    /// The backend, already chosen from a flag or the configuration.
    pub backend: Backend,
    /// The runtime configuration (buses, calibration, disabled joints), if any.
    pub config: Option<&'a RuntimeConfig>,
    /// Loop rate, Hz; the robot's update rate when `None`. The only place a rate is given.
    pub rate_hz: Option<u32>,
    /// Activation, stop condition, real-time setup.
    pub options: LoopOptions,
    /// Where to draw commanded against measured position of every joint (`.svg` or `.png`),
    /// written however the run ends.
    pub plot: Option<&'a Path>,
    /// A rendered frame of the robot mid-run (MuJoCo with feature `render` only, see
    /// [`backends::check_frame`]).
    pub frame: Option<&'a backends::FrameRequest>,
    /// Publish the running robot into the ROS 2 graph ([`crate::ros`]).
    pub ros: Option<&'a RosRequest>,
    /// Record every cycle into this rosbag2 MCAP file ([`crate::record`]); a path that cannot
    /// be written is refused before the hardware is configured.
    pub record: Option<&'a Path>,
    /// The process's DDS participant, for a run that speaks ROS 2 (the graph, the topic
    /// backend) and a controller that does (the trajectory controller): one per process, made
    /// once and handed to each. A run that needs one and is given none joins one
    /// ([`crate::ros::participant`]).
    pub participant: Option<&'a ros2_dds::Participant>,
}

impl RunRequest<'_> {
    /// A run on `backend` with everything else left out: no configuration, the robot's rate,
    /// the loop's default options, no plot, frame or ROS graph. Set what you need with struct
    /// update syntax (`RunRequest { options, ..RunRequest::on(Backend::Mock) }`), so code that
    /// builds requests keeps compiling when a field is added.
    pub fn on(backend: Backend) -> Self {
        RunRequest {
            backend,
            config: None,
            rate_hz: None,
            options: LoopOptions::default(),
            plot: None,
            frame: None,
            ros: None,
            record: None,
            participant: None,
        }
    }
}

/// A run that ended as asked (its time or cycles were up).
#[derive(Debug, Clone)]
pub struct RunOutcome<R: RobotTypes> {
    /// Timing, real-time setup, final lifecycle of every component.
    pub report: LoopReport,
    /// The last state read, when the loop came back.
    pub state: Option<R::State>,
}

/// Runs `controller` on robot `R` on the backend `request` selects, printing progress to
/// `progress` about once a second.
///
/// It starts by printing a warning for each pair of links whose collision shapes overlap at the
/// home pose (`robot_collision`; on MuJoCo its own contact list reports them, with the
/// statistics).
///
/// For the real backend the rate is first checked against every bus's load ceiling
/// ([`check_bus_load`]); the others have no bus.
pub fn run_controller<R: RobotTypes, C: Controller<R> + 'static>(
    controller: C,
    request: &RunRequest<'_>,
    progress: &mut dyn std::io::Write,
) -> Result<RunOutcome<R>, RunError> {
    let rate = request.rate_hz.unwrap_or(R::DESCRIPTION.update_rate);
    check_bus_load(R::DESCRIPTION, request.backend, rate)?;
    // Before anything moves: a simulation pushes overlapping links apart in its first steps.
    for warning in crate::self_collision::warnings(R::DESCRIPTION, Some(request.backend)) {
        let _ = writeln!(progress, "warning: {warning}");
    }
    if let Some(path) = request.plot {
        plot::Format::of(path)?; // before the run, not after it
    }
    // Created now: a path that cannot be written stops the run before anything is configured.
    let record_file = request
        .record
        .map(ros2_record::RecordFile::create)
        .transpose()?;
    let title = format!(
        "{} on {}",
        R::DESCRIPTION.name,
        crate::backends::label(R::DESCRIPTION, request.backend, request.config)
    );
    // One participant for the run: whatever speaks ROS 2 in it makes its endpoints on it.
    let participant = match ros::speaks_ros2(request) {
        true => Some(ros::participant(request)?),
        false => None,
    };
    let components = backends::components::<R>(
        request.backend,
        request.config,
        rate,
        request.frame,
        participant.as_ref(),
    )?;
    // Published before the run, so that a graph that cannot be made stops nothing mid-run.
    let graph = match (request.ros, &participant) {
        (Some(ros), Some(participant)) => Some(ros::start::<R>(
            ros,
            request.backend,
            request.config,
            participant,
            progress,
        )?),
        _ => None,
    };
    let (graph, graph_observer) = graph.unzip();
    let recorder = match record_file {
        Some(file) => Some(record::start::<R>(file, request.backend, title.clone())?),
        None => None,
    };
    let (recorder, record_observer) = recorder.unzip();
    let watchers = Watchers {
        observers: match (graph_observer, record_observer) {
            (None, None) => None,
            both => Some(both),
        },
        loop_watch: graph.as_ref().map(|g| g.loop_watch().clone()),
        recorder: recorder.as_ref(),
    };
    let outcome = match request.plot {
        None => run_observed(
            components,
            controller,
            Some(rate),
            request.options,
            watchers,
            progress,
        ),
        Some(path) => run_plotted_observed(
            components,
            controller,
            Some(rate),
            request.options,
            Plot {
                path,
                title: &title,
            },
            watchers,
            progress,
        ),
    };
    if let Some(graph) = graph {
        let _ = writeln!(progress, "{}", graph.stop());
    }
    // After the loop has stopped: every cycle it observed gets written.
    if let Some(recorder) = recorder {
        let _ = writeln!(progress, "{}", recorder.stop());
    }
    outcome
}

/// Where [`run_plotted`] draws, and the picture's title.
#[derive(Debug, Clone, Copy)]
pub struct Plot<'a> {
    /// `.svg` or `.png`.
    pub path: &'a Path,
    /// Says what ran where (`lite_biped on mock`).
    pub title: &'a str,
}

/// [`run`], recording every joint's commanded and measured position ([`Recording`]) and
/// drawing them into `plot` however the run ends: a run that failed is plotted up to its end,
/// and the run's error is the one returned.
pub fn run_plotted<R: RobotTypes, C: Controller<R> + 'static>(
    components: Vec<Box<dyn Component<R>>>,
    controller: C,
    rate_hz: Option<u32>,
    options: LoopOptions,
    plot: Plot<'_>,
    progress: &mut dyn std::io::Write,
) -> Result<RunOutcome<R>, RunError> {
    run_plotted_observed(
        components,
        controller,
        rate_hz,
        options,
        plot,
        Watchers::NONE,
        progress,
    )
}

/// [`run_plotted`], with the loop observed by `observer` when there is one.
fn run_plotted_observed<R: RobotTypes, C: Controller<R> + 'static>(
    components: Vec<Box<dyn Component<R>>>,
    controller: C,
    rate_hz: Option<u32>,
    options: LoopOptions,
    plot: Plot<'_>,
    watchers: Watchers<'_, R>,
    progress: &mut dyn std::io::Write,
) -> Result<RunOutcome<R>, RunError> {
    plot::Format::of(plot.path)?;
    let trace = Arc::new(Mutex::new(Trace::of::<R>(trace::DEFAULT_CAPACITY)));
    let recording = Recording::new(controller, Arc::clone(&trace));
    let outcome = run_observed(components, recording, rate_hz, options, watchers, progress);
    // A panic while the trace was held cannot have left it half-written: `record` only pushes.
    let trace = trace
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let drawn = plot::write(&trace, plot.title, plot.path);
    let shown = plot.path.display();
    match (outcome, drawn) {
        (Ok(outcome), Ok(())) => {
            let _ = writeln!(progress, "plotted every joint's position into {shown}");
            Ok(outcome)
        }
        (Ok(_), Err(error)) => Err(error.into()),
        (Err(error), drawn) => {
            let _ = match drawn {
                Ok(()) => writeln!(progress, "plotted the run up to its end into {shown}"),
                Err(plot_error) => writeln!(progress, "{plot_error}"),
            };
            Err(error)
        }
    }
}

/// Runs `controller` on `components` at `rate_hz` (the robot's update rate when `None`) until
/// `options.stop_after`, printing progress to `progress` about once a second.
///
/// Ctrl-C (SIGINT) and SIGTERM stop the loop, which switches the hardware off, and the run ends
/// with [`RunError::Interrupted`] carrying the statistics. The handler is process-wide (the
/// `ctrlc` crate), installed on the first call; a second signal during the stop does nothing
/// more, so torque-off is never cut short. Between runs (before the first, after the last) a
/// signal ends the process with status 130, as it would without the handler. One run at a time
/// is stopped by a signal: the latest started. A program with a handler of its own gets
/// [`RunError::Signals`] rather than a run no signal can stop.
pub fn run<R: RobotTypes, C: Controller<R> + 'static>(
    components: Vec<Box<dyn Component<R>>>,
    controller: C,
    rate_hz: Option<u32>,
    options: LoopOptions,
    progress: &mut dyn std::io::Write,
) -> Result<RunOutcome<R>, RunError> {
    run_observed(
        components,
        controller,
        rate_hz,
        options,
        Watchers::NONE,
        progress,
    )
}

/// [`run`], with the loop observed by `watchers` (the ROS 2 graph, the recorder).
fn run_observed<R: RobotTypes, C: Controller<R> + 'static>(
    components: Vec<Box<dyn Component<R>>>,
    controller: C,
    rate_hz: Option<u32>,
    options: LoopOptions,
    watchers: Watchers<'_, R>,
    progress: &mut dyn std::io::Write,
) -> Result<RunOutcome<R>, RunError> {
    let system = System::new(components)?;
    for (index, sensor) in R::DESCRIPTION.sensors.iter().enumerate() {
        let _ = match system.sensor_driver(index) {
            Some(component) => writeln!(progress, "`{}` is driven by {component}", sensor.name),
            None => writeln!(
                progress,
                "note: no component of this backend drives `{}`: its state reads NaN",
                sensor.name
            ),
        };
    }
    let mut control_loop = ControlLoop::new(system, controller, rate_hz);
    if let Some(observers) = watchers.observers {
        control_loop = control_loop.with_observer(observers);
    }
    let mut recording_failed = false;
    let handle = control_loop.spawn(options)?;
    if let Some(watch) = watchers.loop_watch {
        watch.watch(handle.shared_control()); // /diagnostics' cycles and overruns
    }
    let watch = SignalWatch::new(handle.shared_control())?;
    let started = Instant::now();
    let mut next = Duration::from_secs(1);
    while !handle.is_finished() {
        std::thread::sleep(Duration::from_millis(20));
        if let Some(why) = watchers.recorder.and_then(|r| r.failure())
            && !std::mem::replace(&mut recording_failed, true)
        {
            let _ = writeln!(progress, "the recording stopped: {why}; the run goes on");
        }
        if started.elapsed() >= next && !handle.is_finished() {
            if next == Duration::from_secs(1) {
                let _ = writeln!(
                    progress,
                    "  {:>7}  {:>7}  {:>8}  lifecycle",
                    "time", "cycles", "overruns"
                );
            }
            let control = handle.control();
            let _ = writeln!(
                progress,
                "  {:>5.1} s  {:>7}  {:>8}  {}",
                started.elapsed().as_secs_f64(),
                control.cycles(),
                control.overruns(),
                control.lifecycle()
            );
            next += Duration::from_secs(1);
        }
    }
    let (control_loop, result) = handle.join();
    let interrupted = watch.interrupted();
    drop(watch);
    let report = result?;
    if interrupted {
        return Err(RunError::Interrupted {
            report: Box::new(report),
        });
    }
    Ok(RunOutcome {
        report,
        state: control_loop.map(|l| *l.state()),
    })
}

/// The run SIGINT and SIGTERM stop, and whether one came; none between runs.
static SIGNAL_TARGET: Mutex<Option<(Arc<LoopControl>, Arc<AtomicBool>)>> = Mutex::new(None);

/// What a signal during a run does: stops its loop while this lives. Dropped, it leaves signals
/// ending the process again.
struct SignalWatch {
    interrupted: Arc<AtomicBool>,
}

impl SignalWatch {
    fn new(control: Arc<LoopControl>) -> Result<SignalWatch, RunError> {
        static INSTALLED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
        let installed = INSTALLED.get_or_init(|| {
            ctrlc::set_handler(|| {
                let target = SIGNAL_TARGET
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                match target.as_ref() {
                    Some((control, interrupted)) => {
                        interrupted.store(true, Ordering::Release);
                        control.request_stop();
                    }
                    // No run: what the signal would have done without a handler.
                    None => std::process::exit(130),
                }
            })
            .map_err(|error| error.to_string())
        });
        if let Err(reason) = installed {
            return Err(RunError::Signals(reason.clone()));
        }
        let interrupted = Arc::new(AtomicBool::new(false));
        *SIGNAL_TARGET
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((control, Arc::clone(&interrupted)));
        Ok(SignalWatch { interrupted })
    }

    fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Acquire)
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        let mut target = SIGNAL_TARGET
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Only this run's: a later run may have taken the signals over already.
        if target
            .as_ref()
            .is_some_and(|(_, flag)| Arc::ptr_eq(flag, &self.interrupted))
        {
            *target = None;
        }
    }
}

/// The loop statistics and real-time outcome, as `run` prints them.
pub fn summary(report: &LoopReport) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}", report.timing);
    for step in &report.realtime {
        let _ = writeln!(out, "  real-time: {step}");
    }
    let _ = writeln!(out, "  final lifecycle: {}", report.final_lifecycle);
    if let Some(fault) = &report.controller_deactivate {
        let _ = writeln!(out, "  after torque off, {fault}");
    }
    for (component, events) in &report.events {
        for event in events {
            let _ = writeln!(out, "  {component}: {event}");
        }
    }
    for (component, counters) in &report.counters {
        let counted: Vec<String> = counters
            .iter()
            .map(|c| format!("{} {}", c.name, c.value))
            .collect();
        if !counted.is_empty() {
            let _ = writeln!(out, "  {component}: {}", counted.join(", "));
        }
    }
    if report.timing.paced {
        let _ = writeln!(
            out,
            "  (an overrun: a cycle that ended after the next cycle's deadline, as ros2_control counts them;\n   \
             a skipped deadline: one the loop dropped to catch up rather than run late cycles back to back)"
        );
    }
    out
}

/// Checks the real robot's buses at `rate` Hz: an overload refuses the real backend; on the
/// others (no bus) it is returned as a note.
pub fn check_bus_load(
    robot: &robot_core::Robot,
    backend: Backend,
    rate: u32,
) -> Result<Option<BusOverloadError>, RunError> {
    match bus_load::check_rate(robot, rate) {
        Ok(()) => Ok(None),
        Err(source) if backend == Backend::Real => Err(RunError::BusLoad { rate, source }),
        Err(source) => Ok(Some(source)),
    }
}
