//! Requests to a running loop and live progress from it, shared through atomics: the control
//! thread never locks.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::stats::CycleStats;
use crate::hardware::Lifecycle;

/// Requests to a running loop and live progress from it.
#[derive(Debug, Default)]
pub struct LoopControl {
    stop: AtomicBool,
    /// 1 = inactive wanted, 2 = active wanted, 0 = no request.
    target: AtomicU8,
    cycles: AtomicU64,
    overruns: AtomicU64,
    /// [`Lifecycle::liveness`] of the system.
    lifecycle: AtomicU8,
    /// A request for one component: `(index + 1) << 2 | target` (1 inactive, 2 active); 0 none.
    component_request: AtomicU32,
    /// Component requests carried out or refused so far.
    component_done: AtomicU64,
    /// Whether the last one failed (the component is where the loop left it).
    component_failed: AtomicBool,
    /// Each component's [`Lifecycle::liveness`] + 1 (0: not known), the first
    /// [`PUBLISHED_COMPONENTS`].
    components: [AtomicU8; PUBLISHED_COMPONENTS],
    component_count: AtomicUsize,
}

/// How many components' states a [`LoopControl`] publishes.
pub const PUBLISHED_COMPONENTS: usize = 32;

/// Why a component could not be switched ([`LoopControl::set_component`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComponentRequestError {
    /// Another request for a component is waiting.
    #[error("another component is being switched; try again")]
    Busy,
    /// The loop did not take it in time (it is not running, or its cycles stalled).
    #[error("the control loop did not take the request within {0:?}")]
    Timeout(Duration),
    /// The loop tried and the component refused (its state says where it is).
    #[error("the component refused; it is {0}")]
    Refused(Lifecycle),
}

/// A lifecycle request, as taken by the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Request {
    None,
    Deactivate,
    Activate,
}

const WANT_INACTIVE: u8 = 1;
const WANT_ACTIVE: u8 = 2;

impl LoopControl {
    /// Asks the loop to stop after the current cycle (it switches the hardware off).
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was asked for.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Acquire)
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

    /// The system's state as the loop last reported it.
    pub fn lifecycle(&self) -> Lifecycle {
        Lifecycle::from_liveness(self.lifecycle.load(Ordering::Acquire))
    }

    /// Asks the loop to take component `index` (in the system's order) to `active` or inactive
    /// between two cycles, and waits at most `timeout` for it: its lifecycle afterwards. Only
    /// while the loop is active: a component is activated alone only in a running loop.
    pub fn set_component(
        &self,
        index: usize,
        active: bool,
        timeout: Duration,
    ) -> Result<Lifecycle, ComponentRequestError> {
        let code =
            u32::try_from(index + 1).unwrap_or(u32::MAX >> 2) << 2 | if active { 2 } else { 1 };
        let before = self.component_done.load(Ordering::Acquire);
        (self.component_request)
            .compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire)
            .map_err(|_| ComponentRequestError::Busy)?;
        let started = Instant::now();
        while self.component_done.load(Ordering::Acquire) == before {
            if started.elapsed() > timeout {
                // Withdrawn, unless the loop took it meanwhile.
                if (self.component_request)
                    .compare_exchange(code, 0, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    return Err(ComponentRequestError::Timeout(timeout));
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let state = self.component(index).unwrap_or(Lifecycle::Finalized);
        match self.component_failed.load(Ordering::Acquire) {
            true => Err(ComponentRequestError::Refused(state)),
            false => Ok(state),
        }
    }

    /// Component `index`'s state as the loop last published it (the first
    /// [`PUBLISHED_COMPONENTS`]; `None` beyond them or before the loop ran).
    pub fn component(&self, index: usize) -> Option<Lifecycle> {
        if index >= self.component_count.load(Ordering::Acquire) {
            return None;
        }
        match self.components.get(index)?.load(Ordering::Acquire) {
            0 => None,
            code => Some(Lifecycle::from_liveness(code - 1)),
        }
    }

    /// The component request waiting, now the loop's: `(index, active)`.
    pub(super) fn take_component_request(&self) -> Option<(usize, bool)> {
        let code = self.component_request.swap(0, Ordering::AcqRel);
        (code != 0).then(|| (((code >> 2) - 1) as usize, code & 3 == 2))
    }

    /// A component request carried out (`failed`: refused or failed).
    pub(super) fn component_done(&self, failed: bool) {
        self.component_failed.store(failed, Ordering::Release);
        self.component_done.fetch_add(1, Ordering::AcqRel);
    }

    /// Each component's state. Allocates nothing.
    pub(super) fn publish_components(&self, states: impl Iterator<Item = Lifecycle>) {
        let mut count = 0;
        for (slot, state) in self.components.iter().zip(states) {
            slot.store(state.liveness() + 1, Ordering::Release);
            count += 1;
        }
        self.component_count.store(count, Ordering::Release);
    }

    pub(super) fn take_request(&self) -> Request {
        match self.target.swap(0, Ordering::AcqRel) {
            WANT_ACTIVE => Request::Activate,
            WANT_INACTIVE => Request::Deactivate,
            _ => Request::None,
        }
    }

    pub(super) fn publish(&self, lifecycle: Lifecycle, stats: &CycleStats) {
        self.lifecycle
            .store(lifecycle.liveness(), Ordering::Release);
        self.cycles.store(stats.cycles(), Ordering::Release);
        self.overruns.store(stats.overruns(), Ordering::Release);
    }
}
