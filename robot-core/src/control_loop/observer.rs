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

/// No observer: what an optional one (`--ros` not given) is when absent.
impl<R: RobotTypes, O: CycleObserver<R>> CycleObserver<R> for Option<O> {
    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        if let Some(observer) = self {
            observer.observe(clock, state, command);
        }
    }
}

/// Two observers, the first first: the loop takes one, and a run may be both published
/// (`--ros`) and recorded (`--record`). No allocation, no dynamic dispatch between them.
impl<R: RobotTypes, A: CycleObserver<R>, B: CycleObserver<R>> CycleObserver<R> for (A, B) {
    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        self.0.observe(clock, state, command);
        self.1.observe(clock, state, command);
    }
}
