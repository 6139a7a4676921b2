//! What an observer of the control loop takes on the control thread: each cycle's clock, state,
//! command and floating-base pose ([`Snapshot`], plain `f64` structs, copied without
//! allocating), and every so often how each component stands ([`Health`]); [`CycleTaker`] does
//! both for the graph's observer and a recording's.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robot_runtime::hardware::{Clock, Counters, Lifecycle, System};
use robot_runtime::kinematics::Transform;
use robot_runtime::typed::RobotTypes;

/// One cycle as the loop saw it.
#[derive(Debug, Clone, Copy)]
pub struct Snapshot<R: RobotTypes> {
    /// Cycles observed so far, this one included (0: nothing yet).
    pub cycle: u64,
    /// The cycle's clock.
    pub clock: Clock,
    /// The wall-clock time (since the epoch) the loop's clock started from, for stamps.
    pub epoch_at_start: Duration,
    /// The state read.
    pub state: R::State,
    /// The command held.
    pub command: R::Command,
    /// Where the floating base is, when a component knows ([`System::base_pose`]).
    pub base: Option<Transform>,
}

impl<R: RobotTypes> Default for Snapshot<R> {
    fn default() -> Self {
        Snapshot {
            cycle: 0,
            clock: Clock::default(),
            epoch_at_start: Duration::ZERO,
            state: R::State::default(),
            command: R::Command::default(),
            base: None,
        }
    }
}

impl<R: RobotTypes> Snapshot<R> {
    /// The cycle's time as a ROS stamp: when the loop's clock started, plus the clock.
    pub fn stamp(&self) -> ros2_msg::msg::Time {
        stamp(self.epoch_at_start, self.clock)
    }
}

/// A cycle's time as a ROS stamp: when the loop's clock started, plus the clock.
fn stamp(epoch_at_start: Duration, clock: Clock) -> ros2_msg::msg::Time {
    let at = epoch_at_start + clock.time;
    ros2_msg::msg::Time {
        // ROS's own Time is 32-bit seconds: good until 2038.
        sec: i32::try_from(at.as_secs()).unwrap_or(i32::MAX),
        nanosec: at.subsec_nanos(),
    }
}

/// The most components [`Health`] holds; a system of more shows the first ones in
/// `/diagnostics` and says how many it left out.
pub const MAX_COMPONENTS: usize = 16;

/// How one component stood.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentHealth {
    /// Its lifecycle state.
    pub lifecycle: Lifecycle,
    /// What it counted so far.
    pub counters: Counters,
}

impl Default for ComponentHealth {
    fn default() -> Self {
        ComponentHealth {
            lifecycle: Lifecycle::Unconfigured,
            counters: Counters::new(),
        }
    }
}

/// How the hardware stood at one cycle: each component's lifecycle and counters, in the
/// system's order (the names are taken once, when the observer is attached). Plain data, copied
/// without allocating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Health {
    /// The cycle it was taken at (0: not yet).
    pub cycle: u64,
    /// That cycle's clock.
    pub clock: Clock,
    /// The wall-clock time (since the epoch) the loop's clock started from, for stamps.
    pub epoch_at_start: Duration,
    /// The system's lifecycle, summarised ([`System::lifecycle`]).
    pub lifecycle: Lifecycle,
    components: [ComponentHealth; MAX_COMPONENTS],
    count: usize,
    /// Components past [`MAX_COMPONENTS`], left out.
    pub left_out: usize,
}

impl Default for Health {
    fn default() -> Self {
        Health {
            cycle: 0,
            clock: Clock::default(),
            epoch_at_start: Duration::ZERO,
            lifecycle: Lifecycle::Unconfigured,
            components: [ComponentHealth::default(); MAX_COMPONENTS],
            count: 0,
            left_out: 0,
        }
    }
}

impl Health {
    /// Each component's standing, in the system's order.
    pub fn components(&self) -> &[ComponentHealth] {
        self.components.get(..self.count).unwrap_or_default()
    }

    /// When it was taken, as a ROS stamp.
    pub fn stamp(&self) -> ros2_msg::msg::Time {
        stamp(self.epoch_at_start, self.clock)
    }

    /// Reads `system` now, at `cycle` of a loop whose clock started at `epoch_at_start`.
    /// Allocates nothing.
    pub fn of<R: RobotTypes>(
        cycle: u64,
        clock: Clock,
        epoch_at_start: Duration,
        system: &System<R>,
    ) -> Health {
        let mut health = Health {
            cycle,
            clock,
            epoch_at_start,
            lifecycle: system.lifecycle(),
            ..Health::default()
        };
        for (index, (_, lifecycle)) in system.states().enumerate() {
            match health.components.get_mut(index) {
                Some(slot) => {
                    *slot = ComponentHealth {
                        lifecycle,
                        counters: system.counters_of(index),
                    };
                    health.count += 1;
                }
                None => health.left_out += 1,
            }
        }
        health
    }
}

/// The components' names, set once when the observer is attached to a loop.
pub type Names = Arc<OnceLock<Vec<String>>>;

/// What every observer of this kind does on the control thread (the graph's and a
/// recording's): counts the cycles, takes the wall-clock epoch once, builds each cycle's
/// [`Snapshot`] from [`CycleObserver::observe`](robot_runtime::control_loop::CycleObserver::observe) and [`CycleObserver::observe_system`](robot_runtime::control_loop::CycleObserver::observe_system), and takes
/// a [`Health`] every `health_period` of loop time. Allocates nothing after
/// [`CycleTaker::attach`].
pub struct CycleTaker<R: RobotTypes> {
    names: Names,
    /// This cycle's snapshot, complete once the system has been seen too.
    pending: Snapshot<R>,
    health_period: Duration,
    next_health: Duration,
    epoch_at_start: Option<Duration>,
    /// Stamps on simulated time from zero, as `/clock` runs, rather than from the wall clock.
    sim_time: bool,
}

impl<R: RobotTypes> std::fmt::Debug for CycleTaker<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CycleTaker")
            .field("cycle", &self.pending.cycle)
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> CycleTaker<R> {
    /// A taker of a [`Health`] every `health_period` of loop time. With `sim_time`, stamps are
    /// the loop's simulated clock from zero (what `/clock` says, as a simulator's ROS time
    /// runs); without, the wall clock from when the loop started, advancing with the loop's
    /// clock.
    pub fn new(health_period: Duration, sim_time: bool) -> Self {
        CycleTaker {
            names: Names::default(),
            pending: Snapshot::default(),
            health_period,
            next_health: Duration::ZERO,
            epoch_at_start: sim_time.then_some(Duration::ZERO),
            sim_time,
        }
    }

    /// Whether stamps are simulated time.
    pub fn sim_time(&self) -> bool {
        self.sim_time
    }

    /// Where the components' names will be, for the thread that reads the healths.
    pub fn names(&self) -> Names {
        Arc::clone(&self.names)
    }

    /// [`CycleObserver::attach`](robot_runtime::control_loop::CycleObserver::attach): the components' names. Allocates.
    pub fn attach(&mut self, system: &System<R>) {
        let _ = self
            .names
            .set(system.states().map(|(name, _)| name.to_string()).collect());
    }

    /// [`CycleObserver::observe`](robot_runtime::control_loop::CycleObserver::observe): the cycle's clock, state and command.
    pub fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        // Once: the wall clock less the loop's clock (a vDSO call, no allocation), so stamps
        // follow the loop's clock, simulated or not, from where the wall clock was.
        let epoch_at_start = *self.epoch_at_start.get_or_insert_with(|| {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            now.saturating_sub(clock.time)
        });
        self.pending = Snapshot {
            cycle: self.pending.cycle + 1,
            clock,
            epoch_at_start,
            state: *state,
            command: *command,
            base: None,
        };
    }

    /// [`CycleObserver::observe_system`](robot_runtime::control_loop::CycleObserver::observe_system): the cycle completed with the floating base's pose,
    /// and the hardware's health when one is due.
    pub fn complete(&mut self, clock: Clock, system: &System<R>) -> (&Snapshot<R>, Option<Health>) {
        self.pending.base = system.base_pose();
        let health = (clock.time >= self.next_health).then(|| {
            self.next_health = clock.time + self.health_period;
            Health::of(
                self.pending.cycle,
                clock,
                self.pending.epoch_at_start,
                system,
            )
        });
        (&self.pending, health)
    }
}
