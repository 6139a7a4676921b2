//! The control loop: read → update → write at a fixed rate, on a dedicated thread, driven
//! through the hardware lifecycle (unconfigured → inactive → active and back).
//!
//! * While inactive, `read` runs and nothing is written; the controller is not updated.
//! * On activation, commands are seeded to safe values, then the controller's `on_activate`
//!   runs, then cycles write.
//! * The clock ([`Clock`]) is wall time for real hardware, or simulated time for a simulating
//!   backend ([`Pacing`]): exactly one period a cycle, so the physics and the controller step in
//!   lock-step, paced to wall-clock time for watching or as fast as the backend runs.
//! * A cycle allocates nothing: state and command live in the loop, statistics go into
//!   preallocated rings, the lifecycle requests arrive through atomics.
//!
//! # Hardware is always left safe
//! Every way a run ends switches the hardware off, and after a fault nothing but deactivation
//! reaches a component:
//! * a failed `read` or `write` sends that component through `on_error`
//!   ([`crate::hardware::lifecycle`]), and **every other component is deactivated too**. A robot
//!   with one limb limp and the others stiff falls just as surely, and the controller was
//!   written for the whole robot, not for the part that is left; a user who wants upstream's
//!   behaviour (the others go on) can drive a [`System`] directly, which reports each
//!   component's state;
//! * a controller that refuses ([`ControllerError`]) or panics, and a component that panics,
//!   end the run the same way, with [`LoopError::Cycle`] saying what and the loop, its state and
//!   its command returned to the caller;
//! * torque-off is tried [`TORQUE_OFF_ATTEMPTS`] times; every failure is kept in
//!   [`LoopReport::torque_off_failures`], and a component that still fails stays active (as
//!   upstream leaves it), visible in [`LoopReport::components`];
//! * dropping an active [`ControlLoop`] switches it off; dropping a [`LoopHandle`] stops its
//!   loop and waits; dropping a [`System`] switches off whatever is still active.
//!
//! Panics are caught with `catch_unwind`, which needs `panic = "unwind"` (the default); under
//! `panic = "abort"` the process ends and the hardware's own watchdog is all that is left.

mod control;
mod controller;
mod error;
mod fault;
mod handle;
mod observer;
mod options;
mod realtime;
mod report;
mod stats;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

pub use control::{ComponentRequestError, LoopControl, PUBLISHED_COMPONENTS};
pub use controller::{Controller, ControllerError};
pub use error::LoopError;
pub use fault::Fault;
pub use handle::LoopHandle;
pub use observer::CycleObserver;
pub use options::{LoopOptions, Pacing, StopAfter};
pub use realtime::{RealtimeOptions, RealtimeStep};
pub use report::LoopReport;
pub use stats::{CycleStats, Percentiles, TimingReport};

use crate::hardware::{Clock, HardwareError, Lifecycle, Panic, Recovery, System};
use crate::typed::RobotTypes;
use control::Request;

/// How often the loop tries to switch the hardware off before it gives up and reports.
pub const TORQUE_OFF_ATTEMPTS: usize = 3;

/// A pause between torque-off attempts: a bus that just refused a frame may take the next.
const TORQUE_OFF_RETRY_PAUSE: Duration = Duration::from_millis(1);

/// A system, a controller, and the robot's state and command, stepped together.
pub struct ControlLoop<R: RobotTypes, C: Controller<R>> {
    system: System<R>,
    controller: C,
    state: R::State,
    command: R::Command,
    period: Duration,
    /// Whether the controller's `on_activate` succeeded and its `on_deactivate` is owed.
    controller_active: bool,
    last_clock: Clock,
    torque_off_failures: Vec<HardwareError>,
    /// The controller's `on_deactivate` panicked (after torque off).
    controller_deactivate: Option<Fault>,
    /// Sees every cycle that succeeded ([`ControlLoop::with_observer`]).
    observer: Option<Box<dyn CycleObserver<R>>>,
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
    /// A loop at `rate_hz` (the robot's update rate when `None`; zero counts as 1 Hz). This is
    /// the one place the rate is given.
    pub fn new(system: System<R>, controller: C, rate_hz: Option<u32>) -> Self {
        let rate = rate_hz.unwrap_or(R::DESCRIPTION.update_rate).max(1);
        ControlLoop {
            system,
            controller,
            state: R::State::default(),
            command: R::Command::default(),
            period: Duration::from_secs_f64(1.0 / f64::from(rate)),
            controller_active: false,
            last_clock: Clock::default(),
            torque_off_failures: Vec::new(),
            controller_deactivate: None,
            observer: None,
        }
    }

    /// The loop, with `observer` shown every cycle that succeeded (see [`CycleObserver`]).
    pub fn with_observer(mut self, mut observer: impl CycleObserver<R> + 'static) -> Self {
        observer.attach(&self.system);
        self.observer = Some(Box::new(observer));
        self
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

    /// The hardware.
    pub fn system(&self) -> &System<R> {
        &self.system
    }

    /// The system's state, summarised ([`System::lifecycle`]).
    pub fn lifecycle(&self) -> Lifecycle {
        self.system.lifecycle()
    }

    /// Every failed torque-off attempt so far.
    pub fn torque_off_failures(&self) -> &[HardwareError] {
        &self.torque_off_failures
    }

    /// Unconfigured → inactive. On a failure, the components configured already are cleaned up
    /// again: nothing stays open (a failed clean-up is added to the error).
    pub fn configure(&mut self) -> Result<(), LoopError> {
        self.system.configure().map_err(|error| {
            let error = match self.system.cleanup() {
                Ok(()) => error,
                Err(cleanup) => error.then(Recovery::CleaningUpAgain, cleanup),
            };
            LoopError::Lifecycle {
                transition: "configure",
                error,
            }
        })
    }

    /// Inactive → active: reads, seeds safe commands, activates the components, then the
    /// controller. If a component or the controller refuses or panics, the hardware is switched
    /// off again (retrying what the system's own roll-back could not switch off).
    pub fn activate(&mut self, clock: Clock) -> Result<(), Fault> {
        self.last_clock = clock;
        if let Err(error) = self
            .system
            .activate(clock, &mut self.state, &mut self.command)
        {
            self.switch_off();
            return Err(error.into());
        }
        let (controller, state, command) = (&mut self.controller, &self.state, &mut self.command);
        let started = controller_catching_panics("on_activate", || {
            controller.on_activate(clock, state, command)
        });
        match started {
            Ok(()) => {
                self.controller_active = true;
                Ok(())
            }
            Err(fault) => {
                self.switch_off();
                Err(fault)
            }
        }
    }

    /// Active → inactive: switches every active component off (retrying), then tells the
    /// controller. Returns the failures of this call; a component that still fails stays active.
    pub fn deactivate(&mut self) -> Result<(), Vec<HardwareError>> {
        let before = self.torque_off_failures.len();
        if self.switch_off() {
            Ok(())
        } else {
            Err(self.torque_off_failures[before..].to_vec())
        }
    }

    /// Torque off, [`TORQUE_OFF_ATTEMPTS`] times at most, then the controller's `on_deactivate`.
    /// Returns whether no component is left active.
    fn switch_off(&mut self) -> bool {
        for attempt in 1..=TORQUE_OFF_ATTEMPTS {
            if !self.system.any_active() {
                break;
            }
            if let Err(failures) = self.system.deactivate() {
                self.torque_off_failures.extend(failures);
                if attempt < TORQUE_OFF_ATTEMPTS && self.system.any_active() {
                    std::thread::sleep(TORQUE_OFF_RETRY_PAUSE);
                }
            }
        }
        if std::mem::take(&mut self.controller_active) {
            let (controller, state, clock) = (&mut self.controller, &self.state, self.last_clock);
            if let Err(fault) = controller_catching_panics("on_deactivate", || {
                controller.on_deactivate(clock, state);
                Ok(())
            }) {
                // The hardware is off already; there is nothing left to stop, only to report.
                self.controller_deactivate = Some(fault);
            }
        }
        !self.system.any_active()
    }

    /// One cycle: read, then (when active) update and write. On a fault the hardware is
    /// switched off before it is returned.
    pub fn cycle(&mut self, clock: Clock) -> Result<(), Fault> {
        self.cycle_from(clock, true)
    }

    /// A cycle, with or without its read: activation has just read the state, and reading twice
    /// in one period would cost a second bus round trip (and integrate a mock twice).
    fn cycle_from(&mut self, clock: Clock, read: bool) -> Result<(), Fault> {
        self.last_clock = clock;
        let result = self.step(clock, read);
        match (&result, &mut self.observer) {
            (Err(_), _) => {
                self.switch_off();
            }
            (Ok(()), Some(observer)) => {
                observer.observe(clock, &self.state, &self.command);
                observer.observe_system(clock, &self.system);
            }
            (Ok(()), None) => {}
        }
        result
    }

    fn step(&mut self, clock: Clock, read: bool) -> Result<(), Fault> {
        if read {
            self.system.read(clock, &mut self.state)?;
        }
        if self.system.any_active() {
            let (controller, state, command) =
                (&mut self.controller, &self.state, &mut self.command);
            controller_catching_panics("update", || controller.update(clock, state, command))?;
            self.system.write(clock, &self.command)?;
        }
        Ok(())
    }

    /// The run's report; `simulated`: the clock was simulated time, up to the last cycle's.
    fn report(
        &self,
        stats: &CycleStats,
        realtime: &[RealtimeStep],
        start: Instant,
        simulated: bool,
    ) -> LoopReport {
        let mut timing = stats.report();
        timing.wall = start.elapsed();
        timing.simulated = simulated.then_some(self.last_clock.time);
        LoopReport {
            timing,
            realtime: realtime.to_vec(),
            components: self.system.report(),
            torque_off_failures: self.torque_off_failures.clone(),
            controller_deactivate: self.controller_deactivate.clone(),
        }
    }

    /// Runs on the calling thread at the fixed rate until `control` asks to stop or `options`'
    /// stop condition is met: configures, activates when asked (or at once with
    /// `options.activate`), cycles, and switches the hardware off at the end.
    ///
    /// `options.pacing` picks the clock: wall time on wall-clock deadlines (real hardware), or
    /// simulated time, one period a cycle, paced to wall-clock deadlines or back to back; the
    /// report then holds the simulated time and the real-time factor.
    pub fn run(
        &mut self,
        options: &LoopOptions,
        control: &LoopControl,
    ) -> Result<LoopReport, LoopError> {
        let realtime = realtime::apply(&options.realtime);
        let mut stats = if options.pacing == Pacing::SimulatedFast {
            CycleStats::unpaced(self.period, options.stats_capacity)
        } else {
            CycleStats::new(self.period, options.stats_capacity)
        };
        if self.system.lifecycle() == Lifecycle::Unconfigured {
            self.configure()?;
        }
        if options.activate {
            control.request_activate();
        }
        self.publish(control, &stats);
        let start = Instant::now();
        let mut deadline = start;
        let mut previous: Option<Instant> = None;
        let (simulated, paced) = (
            options.pacing.is_simulated(),
            options.pacing != Pacing::SimulatedFast,
        );
        loop {
            // A stop asked for before the first cycle (a handle dropped at once, zero cycles)
            // is honoured before anything is switched on.
            if control.stop_requested() || options.stop_after.cycles == Some(stats.cycles()) {
                break;
            }
            // Wait for the deadline. Sleeping is coarse (the 1 ns timer slack set above keeps the
            // wake-up close); the optional spin covers the last stretch.
            if paced {
                let now = Instant::now();
                let wake = deadline.checked_sub(options.spin).unwrap_or(deadline);
                if wake > now {
                    std::thread::sleep(wake - now);
                }
                while Instant::now() < deadline {
                    std::hint::spin_loop();
                }
            }
            let began = Instant::now();
            let clock = if simulated {
                // Exactly one period a cycle, however long the wall-clock cycle took. Every
                // cycle started before this one was recorded: one that fails ends the run.
                Clock {
                    time: periods(self.period, stats.cycles()),
                    period: self.period,
                }
            } else {
                Clock {
                    time: began - start,
                    period: previous.map_or(self.period, |p| began - p),
                }
            };
            let outcome = match self.apply_request(control, clock) {
                Ok(Applied::Nothing) => self.cycle_from(clock, true),
                Ok(Applied::Activated) => self.cycle_from(clock, false),
                Ok(Applied::TorqueOffFailed) => {
                    self.publish(control, &stats);
                    return Err(LoopError::TorqueOff {
                        report: Box::new(self.report(&stats, &realtime, start, simulated)),
                    });
                }
                Err(fault) => Err(fault),
            };
            if let Err(fault) = outcome {
                self.publish(control, &stats);
                return Err(LoopError::Cycle {
                    // Counted from 1: the cycles recorded before it, and this one.
                    cycle: stats.cycles() + 1,
                    fault,
                    report: Box::new(self.report(&stats, &realtime, start, simulated)),
                });
            }
            let ended = Instant::now();
            let lateness = if paced {
                began.saturating_duration_since(deadline)
            } else {
                Duration::ZERO
            };
            stats.record(ended - began, previous.map(|p| began - p), lateness);
            previous = Some(began);
            self.publish(control, &stats);

            let done_cycles = options
                .stop_after
                .cycles
                .is_some_and(|n| stats.cycles() >= n);
            let done_time = options.stop_after.duration.is_some_and(|d| {
                if simulated {
                    clock.time >= d
                } else {
                    ended - start >= d
                }
            });
            if control.stop_requested() || done_cycles || done_time {
                break;
            }
            if !paced {
                continue;
            }
            deadline += self.period;
            // More than a period behind: skip the missed deadlines rather than burst to catch up
            // (a simulated clock still advances one period a cycle: the simulation falls behind).
            let now = Instant::now();
            if now > deadline + self.period {
                let behind = (now - deadline).as_nanos() / self.period.as_nanos().max(1);
                let skip = u32::try_from(behind).unwrap_or(u32::MAX);
                deadline += self.period * skip;
                stats.record_skipped(u64::from(skip));
            }
        }
        let off = self.switch_off();
        self.publish(control, &stats);
        let report = self.report(&stats, &realtime, start, simulated);
        if off {
            Ok(report)
        } else {
            Err(LoopError::TorqueOff {
                report: Box::new(report),
            })
        }
    }

    /// The system's state and each component's, for other threads.
    fn publish(&self, control: &LoopControl, stats: &CycleStats) {
        control.publish(self.system.lifecycle(), stats);
        control.publish_components(self.system.states().map(|(_, state)| state));
    }

    /// Carries out a request for one component ([`LoopControl::set_component`]): torque off for
    /// it alone (retried as a whole-system torque-off is; one that still fails ends the run,
    /// everything switched off), or on again through its lifecycle while the loop is active.
    fn apply_component_request(&mut self, control: &LoopControl) -> Applied {
        let Some((index, active)) = control.take_component_request() else {
            return Applied::Nothing;
        };
        if active {
            let ok = self.controller_active
                && self
                    .system
                    .activate_component(index, &self.state, &mut self.command)
                    .is_ok();
            control.publish_components(self.system.states().map(|(_, state)| state));
            control.component_done(!ok);
            // One that failed and could not be switched off again is still active.
            return match !ok
                && self
                    .system
                    .states()
                    .nth(index)
                    .is_some_and(|(_, s)| s == Lifecycle::Active)
            {
                true => Applied::TorqueOffFailed,
                false => Applied::Nothing,
            };
        }
        for attempt in 1..=TORQUE_OFF_ATTEMPTS {
            match self.system.deactivate_component(index) {
                Ok(()) => {
                    control.publish_components(self.system.states().map(|(_, state)| state));
                    control.component_done(false);
                    return Applied::Nothing;
                }
                Err(error) => {
                    self.torque_off_failures.push(error);
                    if attempt < TORQUE_OFF_ATTEMPTS {
                        std::thread::sleep(TORQUE_OFF_RETRY_PAUSE);
                    }
                }
            }
        }
        control.publish_components(self.system.states().map(|(_, state)| state));
        control.component_done(true);
        Applied::TorqueOffFailed
    }

    /// Carries out a pending lifecycle request, before this cycle's own work.
    fn apply_request(&mut self, control: &LoopControl, clock: Clock) -> Result<Applied, Fault> {
        if let applied @ Applied::TorqueOffFailed = self.apply_component_request(control) {
            self.switch_off();
            return Ok(applied);
        }
        match (control.take_request(), self.system.lifecycle()) {
            (Request::Activate, Lifecycle::Inactive) if !control.stop_requested() => {
                self.activate(clock).map(|()| Applied::Activated)
            }
            (Request::Deactivate, Lifecycle::Active) => {
                // A torque-off that needed a retry or `on_error` ends the run, even when all is
                // off in the end: a component failed, and the run must not go on (or be
                // activated again) as if it had not.
                let before = self.torque_off_failures.len();
                let off = self.deactivate().is_ok();
                Ok(if off && self.torque_off_failures.len() == before {
                    Applied::Nothing
                } else {
                    Applied::TorqueOffFailed
                })
            }
            _ => Ok(Applied::Nothing),
        }
    }
}

/// What [`ControlLoop::apply_request`] did.
enum Applied {
    /// Nothing that changes the cycle (no request, or a deactivation that went cleanly).
    Nothing,
    /// It activated, reading the state: the cycle does not read it again.
    Activated,
    /// A requested deactivation failed, if only at first: the run ends.
    TorqueOffFailed,
}

impl<R: RobotTypes, C: Controller<R>> Drop for ControlLoop<R, C> {
    /// An active loop that is dropped (by its owner, or by unwinding) switches the hardware off.
    fn drop(&mut self) {
        if self.system.any_active() || self.controller_active {
            let before = self.torque_off_failures.len();
            self.switch_off();
            // The system, dropped next, tries again and reports these with its own.
            let failed = self.torque_off_failures.drain(before..);
            self.system.report_when_dropped(failed);
        }
    }
}

/// `count` periods, saturating.
fn periods(period: Duration, count: u64) -> Duration {
    let nanos = period.as_nanos().saturating_mul(u128::from(count));
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

/// Runs a controller call; a panic becomes [`Fault::ControllerPanicked`], a refusal
/// [`Fault::Controller`].
fn controller_catching_panics(
    call: &'static str,
    f: impl FnOnce() -> Result<(), ControllerError>,
) -> Result<(), Fault> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(Fault::Controller),
        Err(payload) => Err(Fault::ControllerPanicked {
            call,
            panic: Panic::of(payload.as_ref()),
        }),
    }
}
