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
    /// A measured state is not one the definition allows: a joint found beyond its limits when
    /// it is to be switched on (its motor's zero or turn is wrong).
    OutOfLimits,
    /// A lifecycle call in a state that does not allow it.
    Lifecycle,
    /// An operating-system or file error.
    Io,
    /// The component panicked; the [`super::System`] caught it.
    Panicked,
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
    /// Upstream's `ERROR` rather than `FAILURE`: the component goes through `on_error`.
    escalated: bool,
    /// The hardware may still be enabled (a failed `on_activate` that could not switch off
    /// again).
    possibly_live: bool,
}

impl HardwareError {
    /// A new error. Building one allocates; that is fine, an error ends the cycle.
    pub fn new(component: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        HardwareError {
            component: component.into(),
            kind,
            message: message.into(),
            escalated: false,
            possibly_live: false,
        }
    }

    /// Marks the error as upstream's `ERROR` rather than `FAILURE`: returned from a lifecycle
    /// callback, it sends the component through [`super::Component::on_error`] instead of leaving
    /// it where it was (see [`super::lifecycle`]).
    pub fn escalated(mut self) -> Self {
        self.escalated = true;
        self
    }

    /// Whether the error is upstream's `ERROR`.
    pub fn is_escalated(&self) -> bool {
        self.escalated
    }

    /// Marks a failed `on_activate` as one that may have left the hardware enabled (it enabled
    /// part of it and could not switch that off again): the [`super::System`] then holds the
    /// component active, so switching off is tried again, with retries, and reported, instead of
    /// calling it inactive while torque may be on.
    pub fn possibly_live(mut self) -> Self {
        self.possibly_live = true;
        self
    }

    /// Whether the hardware may still be enabled after this error.
    pub fn is_possibly_live(&self) -> bool {
        self.possibly_live
    }

    /// What kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}
