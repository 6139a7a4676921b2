//! How frames reach a RobStride bus. One small trait, so the component (`backend-robstride`)
//! never knows whether it talks to SocketCAN or to simulated actuators on an in-process bus
//! (crate `robstride-sim`, which implements [`Transport`] for its host end): this crate lies
//! below both, and neither depends on the other.
//!
//! The runtime configuration picks the transport per bus by its interface name ([`open`],
//! [`TransportKind::of`]):
//!
//! * `sim` or `sim:<name>` (`sim:left`; the name is at least one character, no whitespace) is
//!   the in-process bus, one per bus, with simulated actuators attached to it. The
//!   `:` cannot occur in a Linux interface name, so `sim:<name>` never shadows a real one; plain
//!   `sim` would shadow a Linux interface of that name, which therefore cannot be used.
//! * Any other name is a SocketCAN interface (`can0`, `vcan0`, `simcan0`).
//!
//! A runtime configuration file says `sim` (its loader takes only Linux interface names, and lets
//! several buses name `sim`, each getting a bus of its own); `sim:<name>` is for code that builds
//! buses itself and wants them told apart.

#![warn(missing_docs)]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use robstride_protocol::Frame;

mod socketcan;

pub use self::socketcan::SocketCan;

/// The reserved interface name of the in-process bus, alone or as the `sim:` prefix: the
/// runtime configuration's own ([`robot_runtime::config::SIMULATED_BUS`]), so the two cannot drift.
pub const SIM: &str = robot_runtime::config::SIMULATED_BUS;

/// Which transport an interface name from the runtime configuration selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind<'a> {
    /// SocketCAN on this OS interface.
    SocketCan(&'a str),
    /// The in-process bus, by its whole reserved name (`sim`, `sim:left`).
    Sim(&'a str),
    /// `sim:` followed by nothing, or by whitespace: reserved, but not a valid name.
    InvalidSim(&'a str),
}

impl<'a> TransportKind<'a> {
    /// The transport `interface` selects: `sim` and `sim:<name>` the in-process bus, anything
    /// else SocketCAN.
    pub fn of(interface: &'a str) -> TransportKind<'a> {
        match interface.strip_prefix(SIM) {
            Some("") => TransportKind::Sim(interface),
            Some(rest) => match rest.strip_prefix(':') {
                Some(name) if !name.is_empty() && !name.chars().any(char::is_whitespace) => {
                    TransportKind::Sim(interface)
                }
                Some(_) => TransportKind::InvalidSim(interface),
                None => TransportKind::SocketCan(interface), // `simcan0`
            },
            None => TransportKind::SocketCan(interface),
        }
    }
}

/// A bus opened by [`open`].
#[derive(Debug)]
pub enum Opened {
    /// A SocketCAN interface, ready to use.
    SocketCan(SocketCan),
    /// The reserved name of the in-process bus (`sim`, `sim:left`): the caller makes it, with
    /// its simulated actuators (crate `robstride-sim`); this crate never simulates.
    Simulated(String),
}

/// Opens the bus the runtime configuration names `interface`: see the [module docs](self) for
/// the reserved `sim` form.
pub fn open(interface: &str) -> Result<Opened, TransportError> {
    match TransportKind::of(interface) {
        TransportKind::SocketCan(interface) => SocketCan::open(interface).map(Opened::SocketCan),
        TransportKind::Sim(name) => Ok(Opened::Simulated(name.to_owned())),
        TransportKind::InvalidSim(interface) => Err(TransportError::Open {
            interface: interface.to_owned(),
            kind: OpenErrorKind::InvalidName,
            reason: "`sim:` is reserved for the in-process bus, and needs a name after it"
                .to_owned(),
            hint: "write `sim` or `sim:<name>` (`sim:left`, no whitespace)".to_owned(),
            cause: None,
        }),
    }
}

/// A CAN bus, as the component uses it: send without blocking, take what has arrived without
/// blocking. One transport per bus; it is moved to the control thread, hence `Send`.
pub trait Transport: Send {
    /// Queues `frame` for sending. Never blocks: a full queue is [`TransportError::QueueFull`].
    fn send(&mut self, frame: &Frame) -> Result<(), TransportError>;

    /// The next frame received from the bus, or `None` when nothing more has arrived. Never
    /// blocks.
    fn try_recv(&mut self) -> Result<Option<Frame>, TransportError>;

    /// The time on this bus's clock, since a fixed start: what reply deadlines are measured
    /// on. A real bus's is the wall clock (the default); a simulated bus has its own.
    fn now(&self) -> Duration {
        wall_epoch().elapsed()
    }

    /// Waits about `pause` for frames to arrive, between two `try_recv`s that found nothing. A
    /// real bus sleeps (the default: its frames arrive meanwhile); a simulated one moves its
    /// own clock on instead, so that waiting for a reply that never comes costs no wall time
    /// and happens alike on every run.
    fn pause(&mut self, pause: Duration) {
        std::thread::sleep(pause);
    }
}

/// The start of the wall clock [`Transport::now`] reads by default: the first time it is read.
fn wall_epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// A transport failed. What the operating system said is kept as the source (an
/// `io::Error`), never flattened into the message.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The bus could not be opened.
    #[error("cannot open CAN interface `{interface}`: {reason}; {hint}")]
    Open {
        /// The OS interface (`can0`) or the reserved name of the in-process bus.
        interface: String,
        /// Which kind of failure, for code that acts on it.
        kind: OpenErrorKind,
        /// Why not, in words (the operating system's error is the source).
        reason: String,
        /// What to do about it.
        hint: String,
        /// What the operating system said, when it said something.
        #[source]
        cause: Option<std::io::Error>,
    },
    /// The send queue is full: the bus is not draining (no other node acknowledging, or bus-off).
    #[error(
        "CAN interface `{interface}`: send queue full (is anything else on the bus, and is it up?)"
    )]
    QueueFull {
        /// The interface.
        interface: String,
    },
    /// The interface went down.
    #[error("CAN interface `{interface}` is down; bring it up with {hint}")]
    Down {
        /// The interface.
        interface: String,
        /// The command that brings it up.
        hint: String,
        /// What the operating system said.
        #[source]
        cause: std::io::Error,
    },
    /// The operating system reported another error on the bus.
    #[error("CAN interface `{interface}` failed")]
    Bus {
        /// The interface.
        interface: String,
        /// What the operating system said.
        #[source]
        cause: std::io::Error,
    },
    /// The controller reported an error frame (bus-off, a lost arbitration, an error counter).
    #[error("CAN interface `{interface}` reported an error frame")]
    ErrorFrame {
        /// The interface.
        interface: String,
        /// The error the frame carries.
        #[source]
        error: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A frame that classic CAN cannot carry.
    #[error("CAN interface `{interface}`: frame {frame:?} has no classic CAN form")]
    NotClassic {
        /// The interface.
        interface: String,
        /// The frame.
        frame: Frame,
    },
}

impl TransportError {
    /// The interface (or reserved name) the error is about.
    pub fn interface(&self) -> &str {
        match self {
            TransportError::Open { interface, .. }
            | TransportError::QueueFull { interface }
            | TransportError::Down { interface, .. }
            | TransportError::Bus { interface, .. }
            | TransportError::ErrorFrame { interface, .. }
            | TransportError::NotClassic { interface, .. } => interface,
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
