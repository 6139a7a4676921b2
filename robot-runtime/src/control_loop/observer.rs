//! A way to watch the loop without being its controller: an observer sees, after every cycle
//! that succeeded (inactive ones too), the cycle's clock, the state read and the command held,
//! then the hardware itself (each component's lifecycle and counters, a floating base's pose).
//!
//! It runs on the control thread, inside the cycle's time, so it must do as little as a
//! controller may: no allocation, no lock, no system call that can block. Copy what it needs
//! into a preallocated buffer and let another thread do the work (the ROS 2 graph publisher
//! hands a copy to its own thread through a triple buffer). [`CycleObserver::attach`], called
//! once before any cycle, is where it allocates.

use crate::hardware::{Clock, System};
use crate::typed::RobotTypes;

/// Sees each cycle's state and command. See the module docs for what it may do.
pub trait CycleObserver<R: RobotTypes>: Send {
    /// Called once, when attached to a loop, before any cycle: the place to size buffers by the
    /// system's components ([`System::states`]). May allocate.
    fn attach(&mut self, system: &System<R>) {
        let _ = system;
    }

    /// Called once per cycle, after `write` (or after `read` while inactive).
    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command);

    /// Called right after [`CycleObserver::observe`], with the hardware: read what the
    /// components stand and counted ([`System::states`], [`System::counters_of`]) or where a
    /// floating base is ([`System::base_pose`]) when it is due. Nothing by default.
    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        let _ = (clock, system);
    }
}

/// Two observers, each seeing every cycle: the ROS 2 graph and a recording, say.
impl<R: RobotTypes, A: CycleObserver<R>, B: CycleObserver<R>> CycleObserver<R> for (A, B) {
    fn attach(&mut self, system: &System<R>) {
        self.0.attach(system);
        self.1.attach(system);
    }

    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        self.0.observe(clock, state, command);
        self.1.observe(clock, state, command);
    }

    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        self.0.observe_system(clock, system);
        self.1.observe_system(clock, system);
    }
}

/// An optional observer (`--ros` or `--record` not given): nothing when absent.
impl<R: RobotTypes, O: CycleObserver<R>> CycleObserver<R> for Option<O> {
    fn attach(&mut self, system: &System<R>) {
        if let Some(observer) = self {
            observer.attach(system);
        }
    }

    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        if let Some(observer) = self {
            observer.observe(clock, state, command);
        }
    }

    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        if let Some(observer) = self {
            observer.observe_system(clock, system);
        }
    }
}
