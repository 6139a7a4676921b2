//! How a run of the control loop ends when it does not end cleanly.

use super::controller::ControllerError;
use super::options::LoopReport;
use crate::hardware::error::write_aftermath;
use crate::hardware::{ErrorKind, HardwareError};

/// What made a cycle (or an activation) end the run. The hardware has been switched off by the
/// time a caller sees one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Fault {
    /// A component's `read`, `write` or `on_activate` failed (shown with its aftermath).
    #[error("{0:#}")]
    Hardware(HardwareError),
    /// The controller refused to go on.
    #[error("the controller stopped: {0}")]
    Controller(ControllerError),
    /// Something panicked; the panic was caught.
    #[error("{culprit} panicked: {message}")]
    Panicked {
        /// What panicked.
        culprit: PanicSource,
        /// The panic's message.
        message: String,
    },
}

impl From<HardwareError> for Fault {
    fn from(error: HardwareError) -> Self {
        if error.kind() == ErrorKind::Panicked {
            // The panic's message, and what failed after it (switching off again), in words.
            let mut message = error.message().to_owned();
            let _ = write_aftermath(&error, &mut message);
            Fault::Panicked {
                culprit: PanicSource::Component(error.component().to_owned()),
                message,
            }
        } else {
            Fault::Hardware(error)
        }
    }
}

/// What panicked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanicSource {
    /// The controller, in this call (`update`, `on_activate`).
    Controller(&'static str),
    /// The hardware component of this name.
    Component(String),
}

impl std::fmt::Display for PanicSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PanicSource::Controller(call) => write!(f, "the controller's `{call}`"),
            PanicSource::Component(name) => write!(f, "component `{name}`"),
        }
    }
}

/// Why the loop stopped with an error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
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
    /// The loop thread could not be started or panicked outside the calls that catch panics.
    #[error("control thread: {0}")]
    Thread(String),
}

impl LoopError {
    /// The report of a run that got as far as running, if this one did.
    pub fn report(&self) -> Option<&LoopReport> {
        match self {
            LoopError::Cycle { report, .. } | LoopError::TorqueOff { report } => Some(report),
            LoopError::Lifecycle { .. } | LoopError::Thread(_) => None,
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
    for (name, state) in &report.components {
        if *state == crate::hardware::Lifecycle::Active {
            note.push_str(&format!("; `{name}` is STILL ACTIVE"));
        }
    }
    if let Some(fault) = &report.controller_deactivate {
        note.push_str(&format!("; after torque off, {fault}"));
    }
    note
}
