//! The control thread's end: each cycle's snapshot (clock, state, command: plain `f64` structs;
//! the floating base's pose)
//! pushed into a bounded single-producer single-consumer ring (`rtrb`, wait-free, allocation
//! free). Every cycle is kept unless the writer is a whole ring behind; then the cycle is
//! dropped and counted, and the loop never waits. Once a second of loop time, how each
//! component stands (ros2-graph's [`Health`]) goes through a second, small ring, for
//! `/diagnostics`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robot_core::control_loop::CycleObserver;
use robot_core::hardware::{Clock, System};
use robot_core::typed::RobotTypes;
use ros2_graph::Health;
use ros2_graph::snapshot::Snapshot;

/// `/diagnostics`' period in loop time: diagnostic_updater's one second.
const HEALTH_PERIOD: Duration = Duration::from_secs(1);

/// Healths the writer may be behind by: half a minute of loop time, which a run as fast as it
/// steps (`--fast`) gets through in moments (each is about 5 kB).
const HEALTH_RING: usize = 32;

/// The components' names, set once when the observer is attached to a loop.
pub(crate) type Names = Arc<std::sync::OnceLock<Vec<String>>>;

/// Attach it to the loop with
/// [`ControlLoop::with_observer`](robot_core::control_loop::ControlLoop::with_observer).
pub struct RecordObserver<R: RobotTypes> {
    producer: rtrb::Producer<Snapshot<R>>,
    health: rtrb::Producer<Health>,
    names: Names,
    next_health: Duration,
    /// This cycle's snapshot, pushed once the system has been seen too.
    pending: Snapshot<R>,
    epoch_at_start: Option<Duration>,
    dropped: Arc<AtomicU64>,
}

impl<R: RobotTypes> std::fmt::Debug for RecordObserver<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordObserver")
            .field("cycle", &self.pending.cycle)
            .finish_non_exhaustive()
    }
}

/// The writer's ends of an observer's rings.
pub(crate) struct Incoming<R: RobotTypes> {
    /// Every cycle.
    pub(crate) snapshots: rtrb::Consumer<Snapshot<R>>,
    /// How the components stood, once a second.
    pub(crate) health: rtrb::Consumer<Health>,
    /// Their names.
    pub(crate) names: Names,
    /// Cycles the writer was a whole ring behind for.
    pub(crate) dropped: Arc<AtomicU64>,
}

/// A connected pair: the observer and the writer's end, a ring of `capacity` snapshots.
pub(crate) fn ring<R: RobotTypes>(capacity: usize) -> (RecordObserver<R>, Incoming<R>) {
    let (producer, snapshots) = rtrb::RingBuffer::new(capacity.max(1));
    let (health_producer, health) = rtrb::RingBuffer::new(HEALTH_RING);
    let dropped = Arc::new(AtomicU64::new(0));
    let names = Names::default();
    let observer = RecordObserver {
        producer,
        health: health_producer,
        names: Arc::clone(&names),
        next_health: Duration::ZERO,
        pending: Snapshot::default(),
        epoch_at_start: None,
        dropped: Arc::clone(&dropped),
    };
    let incoming = Incoming {
        snapshots,
        health,
        names,
        dropped,
    };
    (observer, incoming)
}

impl<R: RobotTypes> CycleObserver<R> for RecordObserver<R> {
    fn attach(&mut self, system: &System<R>) {
        let _ = self
            .names
            .set(system.states().map(|(name, _)| name.to_string()).collect());
    }

    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        // As ros2-graph stamps: the wall clock at the first cycle less the loop's clock (a vDSO
        // call, once), so stamps follow the loop's clock, simulated or not.
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

    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        // Right after `observe`: the cycle is complete with the floating base's pose.
        self.pending.base = system.base_pose();
        if self.producer.push(self.pending).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        if clock.time >= self.next_health {
            self.next_health = clock.time + HEALTH_PERIOD;
            let health = Health::of(
                self.pending.cycle,
                clock,
                self.pending.epoch_at_start,
                system,
            );
            // A writer seconds behind loses a diagnostics message, never the cycle.
            let _ = self.health.push(health);
        }
    }
}
