//! The control loop: read → update → write at a fixed rate, on a dedicated thread, driven
//! through the hardware lifecycle (unconfigured → inactive → active and back).
//!
//! * While inactive, `read` runs and nothing is written; the controller is not updated.
//! * On activation, commands are seeded to safe values, then the controller's `on_activate`
//!   runs, then cycles write.
//! * An error from `read` or `write` deactivates the components and ends the loop with that
//!   error; nothing panics.
//! * A cycle allocates nothing: state and command live in the loop, statistics go into
//!   preallocated rings, the lifecycle requests arrive through atomics.

mod realtime;
mod stats;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use realtime::{RealtimeOptions, RealtimeStep};
pub use stats::{CycleStats, Percentiles, TimingReport};

use crate::hardware::{Clock, HardwareError, Lifecycle, System};
use crate::typed::RobotTypes;

/// A controller: computes commands from the state, every active cycle.
pub trait Controller<R: RobotTypes>: Send {
    /// Called once the hardware is active and the commands hold safe values, before the first
    /// active update.
    fn on_activate(&mut self, clock: Clock, state: &R::State, command: &mut R::Command) {
        let _ = (clock, state, command);
    }

    /// One control step. Must not allocate, block or lock: it runs on the control thread.
    fn update(&mut self, clock: Clock, state: &R::State, command: &mut R::Command);
}

/// Why the loop stopped with an error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LoopError {
    /// A lifecycle transition failed.
    #[error("{transition} failed: {error}")]
    Lifecycle {
        /// `configure`, `activate`, ...
        transition: &'static str,
        /// The component's error.
        error: HardwareError,
    },
    /// `read` or `write` failed; the components were deactivated.
    #[error("cycle {cycle}: {error}")]
    Cycle {
        /// The cycle that failed.
        cycle: u64,
        /// The component's error.
        error: HardwareError,
        /// Timing up to the failure.
        report: Box<TimingReport>,
    },
    /// The loop thread could not be started or panicked.
    #[error("control thread: {0}")]
    Thread(String),
}

/// When a blocking run ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StopAfter {
    /// After this many cycles.
    pub cycles: Option<u64>,
    /// After this much time.
    pub duration: Option<Duration>,
}

/// How to run the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopOptions {
    /// Cycle rate; the robot's `update_rate` when `None`.
    pub rate_hz: Option<u32>,
    /// Activate as soon as configured (otherwise stay inactive until asked).
    pub activate: bool,
    /// When to stop by itself.
    pub stop_after: StopAfter,
    /// Real-time setup of the control thread.
    pub realtime: RealtimeOptions,
    /// How many recent cycles the percentiles are computed over.
    pub stats_capacity: usize,
    /// Sleep until this long before each deadline, then spin: trades a busy core for wake-up
    /// lateness of a few microseconds instead of tens. Zero sleeps all the way.
    pub spin: Duration,
}

impl Default for LoopOptions {
    fn default() -> Self {
        LoopOptions {
            rate_hz: None,
            activate: true,
            stop_after: StopAfter::default(),
            realtime: RealtimeOptions::default(),
            stats_capacity: 1 << 16,
            spin: Duration::ZERO,
        }
    }
}

/// What a finished run reports.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopReport {
    /// Timing statistics.
    pub timing: TimingReport,
    /// The outcome of each real-time setup step.
    pub realtime: Vec<RealtimeStep>,
    /// The lifecycle state at the end (inactive after a clean stop of an active loop).
    pub final_lifecycle: Lifecycle,
}

/// Requests to a running loop and live progress from it, shared through atomics: the control
/// thread never locks.
#[derive(Debug, Default)]
pub struct LoopControl {
    stop: AtomicBool,
    /// 1 = inactive wanted, 2 = active wanted, 0 = no request.
    target: AtomicU8,
    cycles: AtomicU64,
    overruns: AtomicU64,
    lifecycle: AtomicU8,
}

const WANT_INACTIVE: u8 = 1;
const WANT_ACTIVE: u8 = 2;

impl LoopControl {
    /// Asks the loop to stop after the current cycle.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Asks the loop to activate the hardware.
    pub fn request_activate(&self) {
        self.target.store(WANT_ACTIVE, Ordering::Release);
    }

    /// Asks the loop to deactivate the hardware (it keeps reading).
    pub fn request_deactivate(&self) {
        self.target.store(WANT_INACTIVE, Ordering::Release);
    }

    /// Cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.cycles.load(Ordering::Acquire)
    }

    /// Overruns so far.
    pub fn overruns(&self) -> u64 {
        self.overruns.load(Ordering::Acquire)
    }

    /// The lifecycle state the loop last reported.
    pub fn lifecycle(&self) -> Lifecycle {
        match self.lifecycle.load(Ordering::Acquire) {
            2 => Lifecycle::Active,
            1 => Lifecycle::Inactive,
            _ => Lifecycle::Unconfigured,
        }
    }

    fn publish(&self, lifecycle: Lifecycle, stats: &CycleStats) {
        let code = match lifecycle {
            Lifecycle::Unconfigured => 0,
            Lifecycle::Inactive => 1,
            Lifecycle::Active => 2,
        };
        self.lifecycle.store(code, Ordering::Release);
        self.cycles.store(stats.cycles(), Ordering::Release);
        self.overruns.store(stats.overruns(), Ordering::Release);
    }
}

/// A system, a controller, and the robot's state and command, stepped together.
pub struct ControlLoop<R: RobotTypes, C: Controller<R>> {
    system: System<R>,
    controller: C,
    state: R::State,
    command: R::Command,
    period: Duration,
    cycle: u64,
}

impl<R: RobotTypes, C: Controller<R>> std::fmt::Debug for ControlLoop<R, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControlLoop")
            .field("system", &self.system)
            .field("period", &self.period)
            .finish()
    }
}

impl<R: RobotTypes, C: Controller<R>> ControlLoop<R, C> {
    /// A loop at `rate_hz` (the robot's update rate when `None`).
    pub fn new(system: System<R>, controller: C, rate_hz: Option<u32>) -> Self {
        let rate = rate_hz.unwrap_or(R::DESCRIPTION.update_rate).max(1);
        ControlLoop {
            system,
            controller,
            state: R::State::default(),
            command: R::Command::default(),
            period: Duration::from_secs_f64(1.0 / f64::from(rate)),
            cycle: 0,
        }
    }

    /// The nominal period.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// The latest state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The latest command.
    pub fn command(&self) -> &R::Command {
        &self.command
    }

    /// The controller.
    pub fn controller(&self) -> &C {
        &self.controller
    }

    /// The lifecycle state of the hardware.
    pub fn lifecycle(&self) -> Lifecycle {
        self.system.lifecycle()
    }

    /// Unconfigured → inactive.
    pub fn configure(&mut self) -> Result<(), LoopError> {
        self.system
            .configure()
            .map_err(|error| LoopError::Lifecycle {
                transition: "configure",
                error,
            })
    }

    /// Inactive → active: reads, seeds safe commands, activates the components, then the
    /// controller.
    pub fn activate(&mut self, clock: Clock) -> Result<(), LoopError> {
        self.system
            .activate(clock, &mut self.state, &mut self.command)
            .map_err(|error| LoopError::Lifecycle {
                transition: "activate",
                error,
            })?;
        self.controller
            .on_activate(clock, &self.state, &mut self.command);
        Ok(())
    }

    /// Active → inactive.
    pub fn deactivate(&mut self) -> Result<(), LoopError> {
        self.system
            .deactivate()
            .map_err(|error| LoopError::Lifecycle {
                transition: "deactivate",
                error,
            })
    }

    /// One cycle: read, then (when active) update and write. On an error the components are
    /// deactivated before it is returned.
    pub fn cycle(&mut self, clock: Clock) -> Result<(), HardwareError> {
        self.cycle_from(clock, true)
    }

    /// A cycle, with or without its read: activation has just read the state, and reading twice
    /// in one period would cost a second bus round trip (and integrate a mock twice).
    fn cycle_from(&mut self, clock: Clock, read: bool) -> Result<(), HardwareError> {
        self.cycle += 1;
        let result = self.step(clock, read);
        if result.is_err() && self.system.lifecycle() == Lifecycle::Active {
            // Torque off first; the cycle's error is the one worth reporting.
            let _ = self.system.deactivate();
        }
        result
    }

    fn step(&mut self, clock: Clock, read: bool) -> Result<(), HardwareError> {
        if read {
            self.system.read(clock, &mut self.state)?;
        }
        if self.system.lifecycle() == Lifecycle::Active {
            self.controller
                .update(clock, &self.state, &mut self.command);
            self.system.write(clock, &self.command)?;
        }
        Ok(())
    }

    /// Runs on the calling thread at the fixed rate until `control` asks to stop or `options`'
    /// stop condition is met: configures, activates when asked (or at once with
    /// `options.activate`), cycles, and deactivates at the end.
    pub fn run(
        &mut self,
        options: &LoopOptions,
        control: &LoopControl,
    ) -> Result<LoopReport, LoopError> {
        let realtime = realtime::apply(&options.realtime);
        if let Some(rate) = options.rate_hz {
            self.period = Duration::from_secs_f64(1.0 / f64::from(rate.max(1)));
        }
        let mut stats = CycleStats::new(self.period, options.stats_capacity);
        if self.system.lifecycle() == Lifecycle::Unconfigured {
            self.configure()?;
        }
        if options.activate {
            control.request_activate();
        }
        control.publish(self.system.lifecycle(), &stats);
        let start = Instant::now();
        let mut deadline = start;
        let mut previous: Option<Instant> = None;
        loop {
            // Wait for the deadline. Sleeping is coarse (the 1 ns timer slack set above keeps the
            // wake-up close); the optional spin covers the last stretch.
            let now = Instant::now();
            let wake = deadline.checked_sub(options.spin).unwrap_or(deadline);
            if wake > now {
                std::thread::sleep(wake - now);
            }
            while Instant::now() < deadline {
                std::hint::spin_loop();
            }
            let began = Instant::now();
            let clock = Clock {
                time: began - start,
                period: previous.map_or(self.period, |p| began - p),
            };
            let activated = self.apply_request(control, clock)?;
            if let Err(error) = self.cycle_from(clock, !activated) {
                control.publish(self.system.lifecycle(), &stats);
                return Err(LoopError::Cycle {
                    cycle: self.cycle,
                    error,
                    report: Box::new(stats.report()),
                });
            }
            let ended = Instant::now();
            stats.record(
                ended - began,
                previous.map(|p| began - p),
                began.saturating_duration_since(deadline),
            );
            previous = Some(began);
            control.publish(self.system.lifecycle(), &stats);

            let done_cycles = options
                .stop_after
                .cycles
                .is_some_and(|n| stats.cycles() >= n);
            let done_time = options
                .stop_after
                .duration
                .is_some_and(|d| ended - start >= d);
            if control.stop.load(Ordering::Acquire) || done_cycles || done_time {
                break;
            }
            deadline += self.period;
            // More than a period behind: skip the missed deadlines rather than burst to catch up.
            let now = Instant::now();
            if now > deadline + self.period {
                let behind = (now - deadline).as_nanos() / self.period.as_nanos().max(1);
                let skip = u32::try_from(behind).unwrap_or(u32::MAX);
                deadline += self.period * skip;
                stats.record_skipped(u64::from(skip));
            }
        }
        if self.system.lifecycle() == Lifecycle::Active {
            self.deactivate()?;
        }
        control.publish(self.system.lifecycle(), &stats);
        Ok(LoopReport {
            timing: stats.report(),
            realtime,
            final_lifecycle: self.system.lifecycle(),
        })
    }

    /// Carries out a pending lifecycle request; returns whether it activated (and so just read).
    fn apply_request(&mut self, control: &LoopControl, clock: Clock) -> Result<bool, LoopError> {
        match (
            control.target.swap(0, Ordering::AcqRel),
            self.system.lifecycle(),
        ) {
            (WANT_ACTIVE, Lifecycle::Inactive) => self.activate(clock).map(|()| true),
            (WANT_INACTIVE, Lifecycle::Active) => self.deactivate().map(|()| false),
            _ => Ok(false),
        }
    }
}

impl<R: RobotTypes, C: Controller<R> + 'static> ControlLoop<R, C> {
    /// Runs the loop on a dedicated thread named `control`.
    pub fn spawn(mut self, options: LoopOptions) -> Result<LoopHandle<R, C>, LoopError> {
        let control = Arc::new(LoopControl::default());
        let shared = Arc::clone(&control);
        let thread = std::thread::Builder::new()
            .name("control".into())
            .spawn(move || {
                let result = self.run(&options, &shared);
                (self, result)
            })
            .map_err(|e| LoopError::Thread(e.to_string()))?;
        Ok(LoopHandle { control, thread })
    }
}

/// A loop running on its own thread.
#[derive(Debug)]
pub struct LoopHandle<R: RobotTypes, C: Controller<R>> {
    control: Arc<LoopControl>,
    thread: JoinHandle<(ControlLoop<R, C>, Result<LoopReport, LoopError>)>,
}

impl<R: RobotTypes, C: Controller<R>> LoopHandle<R, C> {
    /// Requests and progress.
    pub fn control(&self) -> &LoopControl {
        &self.control
    }

    /// Whether the loop has ended (by itself, by request or by an error).
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Asks the loop to stop and waits for it; returns the loop (for its final state) and how
    /// the run ended.
    pub fn stop(self) -> (Option<ControlLoop<R, C>>, Result<LoopReport, LoopError>) {
        self.control.request_stop();
        self.join()
    }

    /// Waits for the loop to end by itself.
    pub fn join(self) -> (Option<ControlLoop<R, C>>, Result<LoopReport, LoopError>) {
        match self.thread.join() {
            Ok((control_loop, result)) => (Some(control_loop), result),
            Err(_) => (
                None,
                Err(LoopError::Thread("the control thread panicked".into())),
            ),
        }
    }
}
