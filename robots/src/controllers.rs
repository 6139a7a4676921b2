//! Example controllers, written against the typed state and command structs of a shipped robot.
//! The same source runs on every backend: they see only `LiteBipedState` and `LiteBipedCommand`.

mod squat;
mod wave;

pub use squat::{Squat, SquatGains};
pub use wave::Wave;
