//! Transports: how frames reach a bus. One small trait, so the component never knows whether it
//! talks to SocketCAN or to simulated actuators on an in-process bus.

use robstride_protocol::Frame;

pub mod sim;
pub mod socketcan;

pub use self::sim::{SimBus, SimHost};
pub use self::socketcan::SocketCan;

/// A CAN bus, as the component uses it: send without blocking, take what has arrived without
/// blocking. One transport per bus; it is moved to the control thread, hence `Send`.
pub trait Transport: Send {
    /// Queues `frame` for sending. Never blocks: a full queue is [`TransportError::QueueFull`].
    fn send(&mut self, frame: &Frame) -> Result<(), TransportError>;

    /// The next frame received from the bus, or `None` when nothing more has arrived. Never
    /// blocks.
    fn try_recv(&mut self) -> Result<Option<Frame>, TransportError>;
}

/// A transport failed.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The bus could not be opened.
    #[error("cannot open CAN interface `{interface}`: {reason}; {hint}")]
    Open {
        /// The OS interface (`can0`) or the reserved name of the in-process bus.
        interface: String,
        /// Which kind of failure, for code that acts on it.
        kind: OpenErrorKind,
        /// Why not.
        reason: String,
        /// What to do about it.
        hint: String,
    },
    /// The send queue is full: the bus is not draining (no other node acknowledging, or bus-off).
    #[error(
        "CAN interface `{interface}`: send queue full (is anything else on the bus, and is it up?)"
    )]
    QueueFull {
        /// The interface.
        interface: String,
    },
    /// The operating system reported an error on the bus.
    #[error("CAN interface `{interface}`: {reason}")]
    Bus {
        /// The interface.
        interface: String,
        /// What the OS said.
        reason: String,
    },
}

impl TransportError {
    /// The interface (or reserved name) the error is about.
    pub fn interface(&self) -> &str {
        match self {
            TransportError::Open { interface, .. }
            | TransportError::QueueFull { interface }
            | TransportError::Bus { interface, .. } => interface,
        }
    }
}

/// Why a bus could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpenErrorKind {
    /// The kernel has no CAN support: `socket(AF_CAN, SOCK_RAW, CAN_RAW)` fails with
    /// `EAFNOSUPPORT` (the `can` and `can_raw` modules are missing or not loaded).
    NoKernelSupport,
    /// The kernel has CAN, but no interface has this name (`ENODEV`).
    NoSuchInterface,
    /// An interface of this name exists but is not a CAN interface (`lo`, `eth0`).
    NotCanInterface,
    /// The operating system refused (`EPERM`, `EACCES`).
    PermissionDenied,
    /// SocketCAN exists only on Linux.
    Unsupported,
    /// The name is malformed (an empty in-process bus name, `sim:`).
    InvalidName,
    /// Anything else the operating system reported.
    Other,
}
