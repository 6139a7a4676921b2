//! Requests to a running loop and live progress from it, shared through atomics: the control
//! thread never locks.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

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
