//! How a run of the control loop ends when it does not end cleanly.

use super::fault::Fault;
use super::report::LoopReport;
use crate::hardware::{HardwareError, Panic};

/// Why the loop stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// Configuring the hardware failed; whatever was configured was cleaned up again.
    #[error("{transition} failed: {error:#}")]
    Lifecycle {
        /// `configure`.
        transition: &'static str,
        /// The component's error.
        error: HardwareError,
    },
    /// A fault ended the run; the hardware was switched off ([`LoopReport::torque_off_failures`]
    /// lists every attempt that failed).
    #[error("cycle {cycle}: {fault}{}", .report.torque_off_note())]
    Cycle {
        /// The cycle that failed.
        cycle: u64,
        /// What failed.
        fault: Fault,
        /// Timing and final states up to the failure.
        report: Box<LoopReport>,
    },
    /// Switching the hardware off failed, after every retry.
    #[error("switching the hardware off failed{}", .report.torque_off_note())]
    TorqueOff {
        /// Timing, final states and every failed attempt.
        report: Box<LoopReport>,
    },
    /// The loop thread could not be started.
    #[error("cannot start the control thread: {0}")]
    Spawn(#[source] std::io::Error),
    /// The loop thread panicked outside the calls that catch panics.
    #[error("the control thread panicked: {0}")]
    ThreadPanicked(#[source] Panic),
    /// The loop was joined already.
    #[error("the control loop was joined already")]
    Joined,
}

impl LoopError {
    /// The report of a run that got as far as running, if this one did.
    pub fn report(&self) -> Option<&LoopReport> {
        match self {
            LoopError::Cycle { report, .. } | LoopError::TorqueOff { report } => Some(report),
            LoopError::Lifecycle { .. }
            | LoopError::Spawn(_)
            | LoopError::ThreadPanicked(_)
            | LoopError::Joined => None,
        }
    }
}
