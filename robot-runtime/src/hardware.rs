//! The hardware-component contract, after ros2_control's `hardware_interface::SystemInterface`,
//! with the string-keyed handles replaced by the typed state and command structs of `robot!`.
//!
//! ```text
//!   unconfigured ──configure──▶ inactive ──activate──▶ active
//!        ▲                        │  ▲                    │
//!        └────────cleanup─────────┘  └────deactivate──────┘
//!   (shutdown from any of them ──▶ finalized; a failed read/write ──on_error──▶ unconfigured
//!    or finalized)
//! ```
//!
//! Each component has its own state; [`lifecycle`] has the transition table with upstream's
//! behaviour beside ours.
//!
//! What is legal where (`docs/hardware-lifecycle.md`):
//! * [`Component::on_init`] checks the definition against what the backend supports and fails
//!   loudly; nothing is opened yet.
//! * [`Component::on_configure`] opens the bus or loads the model; it may block.
//! * [`Component::on_activate`] enables torque; commands are seeded to a safe value first.
//! * [`Component::read`] runs while inactive and active: the state is visible before anything
//!   is enabled. [`Component::write`] is only called while active: an inactive system sends
//!   nothing.
//! * `read` and `write` run every cycle on the control thread: they never allocate, block or
//!   lock. Anything slow belongs in the lifecycle callbacks.
//!
//! A robot may be driven by several components at once (one per CAN bus, plus an IMU): a
//! [`System`] owns them, checks that no two claim the same joint or sensor, and runs them in turn
//! over the one state and command struct of the robot.

mod component;
pub(crate) mod error;
pub mod lifecycle;
pub mod mimic;
mod panics;
mod seed;
pub mod servo;
mod system;

pub use component::{
    Claims, Clock, Component, Counter, Counters, Identity, switch_off_and_clean_up,
};
pub use error::{Aftermath, ErrorKind, HardwareError, Recovery, summarize};
pub use lifecycle::Lifecycle;
pub use panics::{Panic, panic_message};
pub use seed::{seed_safe_commands, seed_safe_slots};
pub use servo::ServoGains;
pub use system::{ComponentReport, System};
