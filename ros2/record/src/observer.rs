//! The control thread's end: each cycle's snapshot (clock, state, command: plain `f64` structs;
//! the floating base's pose)
//! pushed into a bounded single-producer single-consumer ring (`rtrb`, wait-free, allocation
//! free). Every cycle is kept unless the writer is a whole ring behind; then the cycle is
//! dropped and counted, and the loop never waits. Once a second of loop time, how each
//! component stands (ros2-graph's [`Health`]) goes through a second, small ring, for
//! `/diagnostics`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use robot_runtime::control_loop::CycleObserver;
use robot_runtime::hardware::{Clock, System};
use robot_runtime::typed::RobotTypes;
use ros2_state::snapshot::{Names, Snapshot};
use ros2_state::{CycleTaker, Health};

/// `/diagnostics`' period in loop time: diagnostic_updater's one second.
const HEALTH_PERIOD: Duration = Duration::from_secs(1);

/// Healths the writer may be behind by: half a minute of loop time, which a run as fast as it
/// steps (`--fast`) gets through in moments (each is about 5 kB).
const HEALTH_RING: usize = 32;

/// Attach it to the loop with
/// [`ControlLoop::with_observer`](robot_runtime::control_loop::ControlLoop::with_observer).
pub struct RecordObserver<R: RobotTypes> {
    producer: rtrb::Producer<Snapshot<R>>,
    health: rtrb::Producer<Health>,
    taker: CycleTaker<R>,
    dropped: Arc<AtomicU64>,
}

impl<R: RobotTypes> std::fmt::Debug for RecordObserver<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordObserver")
            .field("taker", &self.taker)
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
pub(crate) fn ring<R: RobotTypes>(
    capacity: usize,
    sim_time: bool,
) -> (RecordObserver<R>, Incoming<R>) {
    let (producer, snapshots) = rtrb::RingBuffer::new(capacity.max(1));
    let (health_producer, health) = rtrb::RingBuffer::new(HEALTH_RING);
    let dropped = Arc::new(AtomicU64::new(0));
    let taker = CycleTaker::new(HEALTH_PERIOD, sim_time);
    let names = taker.names();
    let observer = RecordObserver {
        producer,
        health: health_producer,
        taker,
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
        self.taker.attach(system);
    }

    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        self.taker.observe(clock, state, command);
    }

    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        let (snapshot, health) = self.taker.complete(clock, system);
        if self.producer.push(*snapshot).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(health) = health {
            // A writer seconds behind loses a diagnostics message, never the cycle.
            let _ = self.health.push(health);
        }
    }
}
