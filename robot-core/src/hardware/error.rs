//! Errors of hardware components: a backend-specific message plus a shared [`ErrorKind`], so
//! generic code (the control loop) can act on a timeout or a bus-off without knowing the backend
//! (embedded-hal's pattern).

/// What kind of failure, for generic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The definition asks for something this backend cannot do (found by `on_init`).
    Unsupported,
    /// A device did not answer in time.
    Timeout,
    /// The bus is off, missing or refused a frame.
    Bus,
    /// A device reported a fault.
    DeviceFault,
    /// A command was not a number the hardware can take (infinite, out of range).
    InvalidCommand,
    /// A lifecycle call in a state that does not allow it.
    Lifecycle,
    /// An operating-system or file error.
    Io,
    /// Anything else.
    Other,
}

/// A failure of one component.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{component}: {message}")]
pub struct HardwareError {
    /// The component that failed (its block name, e.g. `LiteBipedLeftLeg`).
    pub component: String,
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What happened, for people.
    pub message: String,
}

impl HardwareError {
    /// A new error. Building one allocates; that is fine, an error ends the cycle.
    pub fn new(component: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        HardwareError {
            component: component.into(),
            kind,
            message: message.into(),
        }
    }

    /// What kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}
