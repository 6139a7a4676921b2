//! A way to watch the loop without being its controller: an observer sees, after every cycle
//! that succeeded (inactive ones too), the cycle's clock, the state read and the command held.
//!
//! It runs on the control thread, inside the cycle's time, so it must do as little as a
//! controller may: no allocation, no lock, no system call that can block. Copy what it needs
//! into a preallocated buffer and let another thread do the work (the ROS 2 graph publisher
//! hands a copy to its own thread through a triple buffer).

use crate::hardware::Clock;
use crate::typed::RobotTypes;

/// Sees each cycle's state and command. See the module docs for what it may do.
pub trait CycleObserver<R: RobotTypes>: Send {
    /// Called once per cycle, after `write` (or after `read` while inactive).
    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command);
}
