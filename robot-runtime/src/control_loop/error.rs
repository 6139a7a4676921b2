//! How a run of the control loop ends when it does not end cleanly.

use super::controller::ControllerError;
use super::options::LoopReport;
use crate::hardware::{HardwareError, Panic};

/// What made a cycle (or an activation) end the run. The hardware has been switched off by the
/// time a caller sees one.
///
/// Its `{}` is the whole report for people (a hardware error with its causes and aftermath);
/// `source()` is the typed error beneath it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Fault {
    /// A component's `read`, `write` or `on_activate` failed, or panicked
    /// ([`ErrorKind::Panicked`](crate::hardware::ErrorKind::Panicked), the
    /// [`Panic`] its cause).
    #[error("{0:#}")]
    Hardware(#[source] HardwareError),
    /// The controller refused to go on.
    #[error("the controller stopped: {0}")]
    Controller(#[source] ControllerError),
    /// The controller panicked; the panic was caught.
    #[error("the controller's `{call}` panicked: {panic}")]
    ControllerPanicked {
        /// The call it panicked in (`update`, `on_activate`, `on_deactivate`).
        call: &'static str,
        /// The panic.
        #[source]
        panic: Panic,
    },
}

impl From<HardwareError> for Fault {
    fn from(error: HardwareError) -> Self {
        Fault::Hardware(error)
    }
}

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
    #[error("cycle {cycle}: {fault}{}", torque_off_note(.report))]
    Cycle {
        /// The cycle that failed.
        cycle: u64,
        /// What failed.
        fault: Fault,
        /// Timing and final states up to the failure.
        report: Box<LoopReport>,
    },
    /// Switching the hardware off failed, after every retry.
    #[error("switching the hardware off failed{}", torque_off_note(.report))]
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

fn torque_off_note(report: &LoopReport) -> String {
    let mut note = String::new();
    if !report.torque_off_failures.is_empty() {
        note.push_str(&format!(
            "; torque off failed: {}",
            crate::hardware::summarize(&report.torque_off_failures)
        ));
    }
    for component in &report.components {
        if component.lifecycle == crate::hardware::Lifecycle::Active {
            note.push_str(&format!("; `{}` is STILL ACTIVE", component.name));
        }
    }
    if let Some(fault) = &report.controller_deactivate {
        note.push_str(&format!("; after torque off, {fault}"));
    }
    note
}
