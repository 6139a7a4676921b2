//! The handoff from the control thread: each cycle's clock, state and command, copied into a
//! triple buffer (wait-free, allocation-free: the state and command are plain `f64` structs),
//! the newest winning.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robot_core::control_loop::CycleObserver;
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;

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
}

impl<R: RobotTypes> Default for Snapshot<R> {
    fn default() -> Self {
        Snapshot {
            cycle: 0,
            clock: Clock::default(),
            epoch_at_start: Duration::ZERO,
            state: R::State::default(),
            command: R::Command::default(),
        }
    }
}

impl<R: RobotTypes> Snapshot<R> {
    /// The cycle's time as a ROS stamp: when the loop's clock started, plus the clock.
    pub fn stamp(&self) -> ros2_wire::msg::Time {
        let at = self.epoch_at_start + self.clock.time;
        ros2_wire::msg::Time {
            // ROS's own Time is 32-bit seconds: good until 2038.
            sec: i32::try_from(at.as_secs()).unwrap_or(i32::MAX),
            nanosec: at.subsec_nanos(),
        }
    }
}

/// The control thread's end: attach it to the loop with
/// [`ControlLoop::with_observer`](robot_core::control_loop::ControlLoop::with_observer).
pub struct GraphObserver<R: RobotTypes> {
    input: triple_buffer::Input<Snapshot<R>>,
    cycle: u64,
    epoch_at_start: Option<Duration>,
}

impl<R: RobotTypes> std::fmt::Debug for GraphObserver<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphObserver")
            .field("cycle", &self.cycle)
            .finish_non_exhaustive()
    }
}

/// The publishing thread's end.
pub(crate) struct Snapshots<R: RobotTypes> {
    output: triple_buffer::Output<Snapshot<R>>,
    last_cycle: u64,
}

/// A connected pair.
pub(crate) fn snapshots<R: RobotTypes>() -> (GraphObserver<R>, Snapshots<R>) {
    let (input, output) = triple_buffer::triple_buffer(&Snapshot::default());
    (
        GraphObserver {
            input,
            cycle: 0,
            epoch_at_start: None,
        },
        Snapshots {
            output,
            last_cycle: 0,
        },
    )
}

impl<R: RobotTypes> CycleObserver<R> for GraphObserver<R> {
    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        self.cycle += 1;
        // Once: the wall clock less the loop's clock (a vDSO call, no allocation), so stamps
        // follow the loop's clock, simulated or not, from where the wall clock was.
        let epoch_at_start = *self.epoch_at_start.get_or_insert_with(|| {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            now.saturating_sub(clock.time)
        });
        self.input.write(Snapshot {
            cycle: self.cycle,
            clock,
            epoch_at_start,
            state: *state,
            command: *command,
        });
    }
}

impl<R: RobotTypes> Snapshots<R> {
    /// The newest snapshot if one came since the last call, and how many cycles were passed
    /// over since the one before (replaced before they were taken).
    pub(crate) fn take_newest(&mut self) -> Option<(&Snapshot<R>, u64)> {
        self.output.update();
        let newest = self.output.output_buffer();
        if newest.cycle == self.last_cycle {
            return None;
        }
        let passed_over = newest.cycle.saturating_sub(self.last_cycle + 1);
        self.last_cycle = newest.cycle;
        Some((newest, passed_over))
    }
}
