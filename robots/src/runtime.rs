//! Running a shipped robot: the backend the runtime configuration (or a flag) selects, a control
//! loop on its own thread, progress while it runs and the loop statistics at the end.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backend_mock::MockSystem;
use robot_core::Backend;
use robot_core::config::RuntimeConfig;
use robot_core::control_loop::{
    ControlLoop, Controller, LoopControl, LoopError, LoopOptions, LoopReport,
};
use robot_core::hardware::{Component, HardwareError, System};
use robot_core::typed::RobotTypes;

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
    /// The components refused the robot.
    #[error(transparent)]
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
    /// The signal handler could not be installed.
    #[error("cannot handle Ctrl-C and SIGTERM: {0}")]
    Signals(#[from] ctrlc::Error),
}

/// The components that drive robot `R` on `backend`, honouring the configuration's disabled
/// joints.
pub fn components<R: RobotTypes>(
    backend: Backend,
    config: Option<&RuntimeConfig>,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    let robot = R::DESCRIPTION;
    let disabled: Vec<usize> = match config {
        Some(config) => (0..robot.joints.len())
            .filter(|&i| !config.joint_enabled(&robot.joints[i].name))
            .collect(),
        None => Vec::new(),
    };
    match backend {
        Backend::Mock => Ok(vec![Box::new(
            MockSystem::<R>::new().with_disabled_joints(&disabled),
        )]),
        Backend::Real | Backend::Mujoco => Err(RunError::Backend {
            backend,
            reason: format!(
                "not in this build yet: the {} backend comes with its own issue; run with `--backend mock`",
                if backend == Backend::Real {
                    "RobStride (SocketCAN)"
                } else {
                    "MuJoCo"
                }
            ),
        }),
    }
}

/// Runs `controller` on robot `R` at `rate_hz` (the robot's update rate when `None`) until
/// `options.stop_after`, printing progress to `progress` about once a second; returns the loop's
/// report.
///
/// Ctrl-C (SIGINT) and SIGTERM stop the loop, which switches the hardware off, and the run ends
/// with [`RunError::Interrupted`] carrying the statistics. The handler is process-wide (the
/// `ctrlc` crate), installed on the first call; a second signal during the stop does nothing
/// more, so torque-off is never cut short.
pub fn run<R: RobotTypes, C: Controller<R> + 'static>(
    components: Vec<Box<dyn Component<R>>>,
    controller: C,
    rate_hz: Option<u32>,
    options: LoopOptions,
    progress: &mut dyn std::io::Write,
) -> Result<(LoopReport, Option<R::State>), RunError> {
    let system = System::new(components)?;
    let control_loop = ControlLoop::new(system, controller, rate_hz);
    let handle = control_loop.spawn(options)?;
    let interrupted = watch_signals(handle.shared_control())?;
    let started = Instant::now();
    let mut next = Duration::from_secs(1);
    while !handle.is_finished() {
        std::thread::sleep(Duration::from_millis(20));
        if started.elapsed() >= next {
            let control = handle.control();
            let _ = writeln!(
                progress,
                "  {:>5.1} s  {:>7} cycles  {:>4} overruns  {}",
                started.elapsed().as_secs_f64(),
                control.cycles(),
                control.overruns(),
                control.lifecycle()
            );
            next += Duration::from_secs(1);
        }
    }
    let (control_loop, result) = handle.join();
    let report = result?;
    if interrupted.load(Ordering::Acquire) {
        return Err(RunError::Interrupted {
            report: Box::new(report),
        });
    }
    Ok((report, control_loop.map(|l| *l.state())))
}

/// The loop to stop on SIGINT or SIGTERM, and a flag that says a signal came.
fn watch_signals(control: Arc<LoopControl>) -> Result<Arc<AtomicBool>, RunError> {
    static TARGET: Mutex<Option<(Arc<LoopControl>, Arc<AtomicBool>)>> = Mutex::new(None);
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    let interrupted = Arc::new(AtomicBool::new(false));
    if let Ok(mut target) = TARGET.lock() {
        *target = Some((control, Arc::clone(&interrupted)));
    }
    let mut installed = Ok(());
    INSTALLED.call_once(|| {
        installed = ctrlc::set_handler(|| {
            if let Ok(target) = TARGET.lock()
                && let Some((control, interrupted)) = target.as_ref()
            {
                interrupted.store(true, Ordering::Release);
                control.request_stop();
            }
        });
    });
    installed?;
    Ok(interrupted)
}

/// The loop statistics and real-time outcome, as `robot run` prints them.
pub fn summary(report: &LoopReport) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}", report.timing);
    for step in &report.realtime {
        let _ = writeln!(out, "  real-time: {step}");
    }
    let _ = writeln!(out, "  final lifecycle: {}", report.final_lifecycle);
    out
}
