//! The control thread's end: each cycle's snapshot (clock, state, command: plain `f64` structs;
//! the floating base's pose)
//! pushed into a bounded single-producer single-consumer ring (`rtrb`, wait-free, allocation
//! free). Every cycle is kept unless the writer is a whole ring behind; then the cycle is
//! dropped and counted, and the loop never waits.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robot_core::control_loop::CycleObserver;
use robot_core::hardware::{Clock, System};
use robot_core::typed::RobotTypes;
use ros2_graph::snapshot::Snapshot;

/// Attach it to the loop with
/// [`ControlLoop::with_observer`](robot_core::control_loop::ControlLoop::with_observer).
pub struct RecordObserver<R: RobotTypes> {
    producer: rtrb::Producer<Snapshot<R>>,
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

/// A connected pair: the observer and the writer's end, a ring of `capacity` snapshots.
pub(crate) fn ring<R: RobotTypes>(
    capacity: usize,
) -> (
    RecordObserver<R>,
    rtrb::Consumer<Snapshot<R>>,
    Arc<AtomicU64>,
) {
    let (producer, consumer) = rtrb::RingBuffer::new(capacity.max(1));
    let dropped = Arc::new(AtomicU64::new(0));
    let observer = RecordObserver {
        producer,
        pending: Snapshot::default(),
        epoch_at_start: None,
        dropped: Arc::clone(&dropped),
    };
    (observer, consumer, dropped)
}

impl<R: RobotTypes> CycleObserver<R> for RecordObserver<R> {
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

    fn observe_system(&mut self, _clock: Clock, system: &System<R>) {
        // Right after `observe`: the cycle is complete with the floating base's pose.
        self.pending.base = system.base_pose();
        if self.producer.push(self.pending).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}
