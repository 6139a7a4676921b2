//! How to run the loop.

use std::time::Duration;

use super::realtime::RealtimeOptions;

/// When a blocking run ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StopAfter {
    /// After this many cycles.
    pub cycles: Option<u64>,
    /// After this much time.
    pub duration: Option<Duration>,
}

/// Which clock the loop gives the hardware and the controller, and how cycles are paced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pacing {
    /// Real hardware: cycles start on wall-clock deadlines and the clock is wall time.
    #[default]
    RealTime,
    /// A simulation watched by a person: the clock is simulated time, exactly one period a
    /// cycle (a simulating backend steps its physics up to it), and cycles start on wall-clock
    /// deadlines, so it runs at real speed while the backend keeps up.
    Simulated,
    /// A simulation for tests and batch runs: simulated time, cycles back to back, as fast as
    /// the backend steps. `stop_after.duration` is simulated time.
    SimulatedFast,
}

impl Pacing {
    /// Whether the clock is simulated time.
    pub fn is_simulated(self) -> bool {
        self != Pacing::RealTime
    }
}

/// How to run the loop. The rate is not here: it is the loop's own
/// ([`super::ControlLoop::new`]), given in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopOptions {
    /// Activate as soon as configured (otherwise stay inactive until asked).
    pub activate: bool,
    /// When to stop by itself. With a simulated [`Pacing`] the duration is simulated time.
    pub stop_after: StopAfter,
    /// Wall or simulated clock, and whether cycles wait for wall-clock deadlines.
    pub pacing: Pacing,
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
            activate: true,
            stop_after: StopAfter::default(),
            pacing: Pacing::default(),
            realtime: RealtimeOptions::default(),
            stats_capacity: 1 << 16,
            spin: Duration::ZERO,
        }
    }
}
