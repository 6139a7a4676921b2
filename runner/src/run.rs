//! Running a controller: the components the backend needs, a control loop on its own thread,
//! progress while it runs, Ctrl-C and SIGTERM handled, and the loop statistics at the end.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(crate) mod error;
mod report;
mod request;

pub use error::RunError;
pub use report::{RunOutcome, summary};
pub use request::{Hardware, RunRequest};

use robot_core::Backend;
use robot_core::bus_load::{self, BusOverloadError};
use robot_core::control_loop::{ControlLoop, Controller, LoopControl, LoopOptions};
use robot_core::hardware::{Component, System};
use robot_core::typed::RobotTypes;

use crate::backends;
use crate::plot;
use crate::record;
use crate::ros;
use crate::trace::{self, Recording, Trace};

/// The ROS 2 graph's observer (`--ros`), the recorder's (`--record`), either or both.
type Observers<R> = (
    Option<ros2_graph::GraphObserver<R>>,
    Option<ros2_record::RecordObserver<R>>,
);

/// Runs `controller` on robot `R` on `hardware` as `request` asks, printing progress to
/// `progress` about once a second: the one way a run is made, from the command line or any
/// program.
///
/// It starts by printing a warning for each pair of links whose collision shapes overlap at the
/// home pose (`robot_collision`; on MuJoCo its own contact list reports them, with the
/// statistics). For the real backend the rate is first checked against every bus's load ceiling
/// ([`check_bus_load`]); the others have no bus. A plot path, a recording path and a ROS 2 graph
/// that cannot be had are refused before the hardware is configured.
///
/// Ctrl-C (SIGINT) and SIGTERM stop the loop, which switches the hardware off, and the run ends
/// with [`RunError::Interrupted`] carrying the statistics. The handler is process-wide (the
/// `ctrlc` crate), installed on the first call; a second signal during the stop does nothing
/// more, so torque-off is never cut short. Between runs (before the first, after the last) a
/// signal ends the process with status 130, as it would without the handler. One run at a time
/// is stopped by a signal: the latest started. A program with a handler of its own gets
/// [`RunError::Signals`] rather than a run no signal can stop.
///
/// With a plot path, every joint's commanded and measured position are recorded
/// ([`Recording`]) and drawn however the run ends: a run that failed is plotted up to its end,
/// and the run's error is the one returned.
pub fn run<R: RobotTypes, C: Controller<R> + 'static>(
    controller: C,
    hardware: Hardware<R>,
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
    let participant = match request.speaks_ros2() {
        true => Some(request.participant()?),
        false => None,
    };
    let components = match hardware {
        Hardware::Backend => backends::components::<R>(
            request.backend,
            request.config,
            rate,
            request.frame,
            participant.as_ref(),
        )?,
        Hardware::Components(components) => components,
    };
    // Published before the run, so that a graph that cannot be made stops nothing mid-run.
    let graph = match (request.ros, &participant) {
        (Some(ros), Some(participant)) => Some(ros::start::<R>(
            ros,
            request.backend,
            request.config,
            participant,
            request.options.pacing.is_simulated(),
            rate,
            progress,
        )?),
        _ => None,
    };
    let (graph, graph_observer) = graph.unzip();
    let recorder = match record_file {
        Some(file) => Some(record::start::<R>(
            file,
            request.backend,
            title.clone(),
            request.options.pacing.is_simulated(),
        )?),
        None => None,
    };
    let (recorder, record_observer) = recorder.unzip();
    let run = Loop {
        components,
        rate,
        options: request.options,
        observers: match (graph_observer, record_observer) {
            (None, None) => None,
            both => Some(both),
        },
        loop_watch: graph.as_ref().map(|g| g.loop_watch().clone()),
        recorder: recorder.as_ref(),
    };
    let outcome = match request.plot {
        None => run.go(controller, progress),
        Some(path) => run.plotted(controller, path, &title, progress),
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

/// A loop about to run: its components, its rate and options, and what watches it (the ROS 2
/// graph, the recorder, whose failure, a full disk, the progress reports when it happens).
struct Loop<'a, R: RobotTypes> {
    components: Vec<Box<dyn Component<R>>>,
    rate: u32,
    options: LoopOptions,
    observers: Option<Observers<R>>,
    /// Where the graph reads the running loop's counters (`/diagnostics`), with `--ros`.
    loop_watch: Option<ros2_graph::LoopWatch>,
    recorder: Option<&'a ros2_record::Recorder>,
}

impl<R: RobotTypes> Loop<'_, R> {
    /// [`Loop::go`], recording every joint's commanded and measured position and drawing them
    /// into `path` however the run ends.
    fn plotted<C: Controller<R> + 'static>(
        self,
        controller: C,
        path: &Path,
        title: &str,
        progress: &mut dyn std::io::Write,
    ) -> Result<RunOutcome<R>, RunError> {
        let trace = Arc::new(Mutex::new(Trace::of::<R>(trace::DEFAULT_CAPACITY)));
        let recording = Recording::new(controller, Arc::clone(&trace));
        let outcome = self.go(recording, progress);
        // A panic while the trace was held cannot have left it half-written: `record` only
        // pushes.
        let trace = trace
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let drawn = plot::write(&trace, title, path);
        let shown = path.display();
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

    /// Runs `controller` until `options.stop_after`, signals handled, progress about once a
    /// second.
    fn go<C: Controller<R> + 'static>(
        self,
        controller: C,
        progress: &mut dyn std::io::Write,
    ) -> Result<RunOutcome<R>, RunError> {
        let system = System::new(self.components)?;
        for (index, sensor) in R::DESCRIPTION.sensors.iter().enumerate() {
            let _ = match system.sensor_driver(index) {
                Some(component) => {
                    writeln!(progress, "`{}` is driven by {component}", sensor.name)
                }
                None => writeln!(
                    progress,
                    "note: no component of this backend drives `{}`: its state reads NaN",
                    sensor.name
                ),
            };
        }
        let mut control_loop = ControlLoop::new(system, controller, Some(self.rate));
        if let Some(observers) = self.observers {
            control_loop = control_loop.with_observer(observers);
        }
        let mut recording_failed = false;
        let handle = control_loop.spawn(self.options)?;
        if let Some(watch) = self.loop_watch {
            watch.watch(handle.shared_control()); // /diagnostics' cycles and overruns
        }
        let watch = SignalWatch::new(handle.shared_control())?;
        let started = Instant::now();
        let mut next = Duration::from_secs(1);
        while !handle.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
            if let Some(why) = self.recorder.and_then(|r| r.failure())
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
