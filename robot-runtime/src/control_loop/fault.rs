//! What made a cycle end the run.

use super::controller::ControllerError;
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
