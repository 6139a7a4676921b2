//! Example controllers, written against the typed state and command structs of a shipped robot.
//! The same source runs on every backend: they see only `LiteBipedState` and `LiteBipedCommand`.

mod knee_swing;
mod squat;
mod wave;

pub use knee_swing::KneeSwing;
pub use squat::{Squat, SquatGains};
pub use wave::Wave;
