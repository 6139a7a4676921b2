//! A real component, wrapped so that a schedule's callback faults strike it: a callback fails,
//! fails escalated or panics instead of doing its work, or hangs (the world's time passes) before
//! doing it. A planted defect ([`Defect`]) is wrapped here too, for the tests that show the
//! invariants see each class of defect.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use robot_runtime::hardware::{
    Clock, Component, Counters, ErrorKind, HardwareError, Identity, Lifecycle,
};
use robot_runtime::transmission::Transmission;
use robot_runtime::typed::RobotTypes;
use robot_runtime::{InterfaceKind, Values};

use crate::schedule::{Call, Fault, How};
use crate::world::World;

/// A defect planted in the runtime's place, to show `robot chaos` finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Defect {
    /// A bus component whose `on_deactivate` reports success and leaves torque on.
    DeactivateLeavesTorqueOn,
    /// A bus component that writes its last command again after switching torque off.
    WritesAfterTorqueOff,
    /// A bus component that reports a failed torque-off as done, so it is never retried.
    SkipsTorqueOffRetry,
    /// A bus component that sends the controller's positions with no limit check.
    NoLimitCheck,
}

impl Defect {
    /// Every defect, for the tests.
    pub const ALL: [Defect; 4] = [
        Defect::DeactivateLeavesTorqueOn,
        Defect::WritesAfterTorqueOff,
        Defect::SkipsTorqueOffRetry,
        Defect::NoLimitCheck,
    ];
}

/// A fault that struck: which, in which call, when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Struck {
    /// Its index in the schedule.
    pub fault: usize,
    /// The world's time.
    pub at: Duration,
    /// Whether the loop was running (not yet ended) when it struck.
    pub running: bool,
    /// Whether the hardware was active when it struck (as of the last cycle).
    pub active: bool,
}

/// The faults that struck, shared by every wrapper, the controller and the driver.
#[derive(Debug, Clone, Default)]
pub struct Log(Arc<Mutex<LogInner>>);

#[derive(Debug, Default)]
struct LogInner {
    struck: Vec<Struck>,
    ended: bool,
    /// The hardware was active after the last cycle.
    active: bool,
    /// Cycles the loop completed.
    cycles: u32,
    /// Whether the hardware was active after each cycle, by cycle.
    active_after: Vec<bool>,
}

impl Log {
    /// Fault `fault` struck at `at`.
    pub fn strike(&self, fault: usize, at: Duration) {
        let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (running, active) = (!inner.ended, inner.active);
        inner.struck.push(Struck {
            fault,
            at,
            running,
            active,
        });
    }

    /// Whether the hardware is active, after a cycle.
    pub fn set_active(&self, active: bool) {
        let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        inner.active = active;
        inner.active_after.push(active);
    }

    /// Whether the hardware was active after every one of cycles `from..=to`, all of which ran.
    pub fn active_through(&self, from: u32, to: u32) -> bool {
        let inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (from..=to).all(|cycle| inner.active_after.get(cycle as usize) == Some(&true))
    }

    /// The loop's outcome is known: what strikes from now on is teardown.
    pub fn end(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).ended = true;
    }

    /// The loop completed another cycle.
    pub fn cycle_done(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).cycles += 1;
    }

    /// Cycles the loop completed.
    pub fn cycles(&self) -> u32 {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).cycles
    }

    /// Every strike, in order.
    pub fn struck(&self) -> Vec<Struck> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .struck
            .clone()
    }
}

/// The message a struck callback fault's error or panic carries: what the report must name.
pub fn tag(fault: usize) -> String {
    format!("chaos fault #{fault}")
}

/// A component with a schedule's callback faults, and perhaps a planted defect.
pub struct Faulty<R: RobotTypes> {
    inner: Box<dyn Component<R>>,
    /// `(index in the schedule, call, from the nth, times, how)`.
    faults: Vec<(usize, Call, u32, u32, How)>,
    calls: [u32; 9],
    world: World,
    log: Log,
    defect: Option<Planted>,
    last_write: Option<(Clock, R::Command)>,
}

/// A defect with what it needs.
struct Planted {
    defect: Defect,
    /// For [`Defect::NoLimitCheck`]: its bus, and each motor's position slot, transmission and
    /// id.
    bus: usize,
    motors: Vec<(usize, Transmission, u8)>,
}

impl<R: RobotTypes> std::fmt::Debug for Faulty<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Faulty")
            .field("component", &self.inner.name())
            .field("faults", &self.faults)
            .field("defect", &self.defect())
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> Faulty<R> {
    /// Component `index` of the schedule's (buses first), `inner`, with the faults of
    /// `schedule` that strike it; `bus` when it drives one (a planted defect needs it).
    pub fn new(
        inner: Box<dyn Component<R>>,
        index: usize,
        faults: &[Fault],
        world: &World,
        log: &Log,
        defect: Option<(Defect, usize)>,
    ) -> Faulty<R> {
        let faults = faults
            .iter()
            .enumerate()
            .filter_map(|(i, fault)| match *fault {
                Fault::Callback {
                    component,
                    call,
                    nth,
                    times,
                    how,
                } if component == index => Some((i, call, nth, times, how)),
                _ => None,
            })
            .collect();
        let defect = defect.map(|(defect, bus)| Planted::new::<R>(defect, bus, world));
        Faulty {
            inner,
            faults,
            calls: [0; 9],
            world: world.clone(),
            log: log.clone(),
            defect,
            last_write: None,
        }
    }

    /// Counts a call of `call`; the error (or panic) of a fault striking it, after any hang.
    fn strike(&mut self, call: Call) -> Result<(), HardwareError> {
        let slot = call as usize;
        self.calls[slot] += 1;
        let n = self.calls[slot];
        let Some(&(fault, _, _, _, how)) = self.faults.iter().find(|(_, c, nth, times, _)| {
            *c == call && (*nth..nth.saturating_add(*times)).contains(&n)
        }) else {
            return Ok(());
        };
        self.log.strike(fault, self.world.now());
        self.world.trace(&[0xFA, fault as u8, slot as u8]);
        let message = format!("{}: {} failed", tag(fault), call.name());
        let error = || HardwareError::new(self.inner.name(), ErrorKind::Other, message.clone());
        match how {
            How::Fail => Err(error()),
            How::Error => Err(error().escalated()),
            How::Panic => panic!("{}: {} panicked", tag(fault), call.name()),
            How::Hang(ms) => {
                self.world.advance(Duration::from_millis(u64::from(ms)));
                Ok(())
            }
        }
    }

    fn defect(&self) -> Option<Defect> {
        self.defect.as_ref().map(|p| p.defect)
    }
}

impl Planted {
    fn new<R: RobotTypes>(defect: Defect, bus: usize, world: &World) -> Planted {
        let robot = R::DESCRIPTION;
        let motors = world
            .motors(bus)
            .iter()
            .filter_map(|motor| {
                let joint = robot.joints.iter().position(|j| j.name == motor.joint)?;
                let slot = R::COMMAND_LAYOUT.joint_slot(joint, InterfaceKind::Position)?;
                let actuator = robot.joints[joint].actuator.as_ref()?;
                Some((slot, Transmission::of(actuator), motor.id))
            })
            .collect();
        Planted {
            defect,
            bus,
            motors,
        }
    }

    /// The controller's positions, unchecked: the bus's operation-control frames carry them in
    /// place of the guarded ones ([`World::bypass`]).
    fn bypass<R: RobotTypes>(&self, command: &R::Command, world: &World) {
        let values = command.as_slice();
        for (slot, transmission, id) in &self.motors {
            let position = values
                .get(*slot)
                .and_then(|&q| transmission.motor_position(q).ok());
            world.bypass(self.bus, *id, position);
        }
    }
}

impl<R: RobotTypes> Component<R> for Faulty<R> {
    fn identity(&self) -> &Identity {
        self.inner.identity()
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.strike(Call::Init)?;
        self.inner.on_init()
    }

    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.strike(Call::Configure)?;
        self.inner.on_configure()
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.strike(Call::Cleanup)?;
        self.inner.on_cleanup()
    }

    fn on_activate(
        &mut self,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        self.strike(Call::Activate)?;
        self.inner.on_activate(state, command)
    }

    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.strike(Call::Deactivate)?;
        match self.defect() {
            Some(Defect::DeactivateLeavesTorqueOn) => Ok(()),
            Some(Defect::SkipsTorqueOffRetry) => {
                let _ = self.inner.on_deactivate();
                Ok(())
            }
            Some(Defect::WritesAfterTorqueOff) => {
                self.inner.on_deactivate()?;
                if let Some((clock, command)) = self.last_write {
                    let _ = self.inner.write(clock, &command);
                }
                Ok(())
            }
            Some(Defect::NoLimitCheck) | None => self.inner.on_deactivate(),
        }
    }

    fn on_shutdown(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.strike(Call::Shutdown)?;
        self.inner.on_shutdown(previous)
    }

    fn on_error(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.strike(Call::OnError)?;
        self.inner.on_error(previous)
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        self.strike(Call::Read)?;
        self.inner.read(clock, state)
    }

    fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        self.strike(Call::Write)?;
        self.last_write = Some((clock, *command));
        if let Some(planted) = &self.defect
            && planted.defect == Defect::NoLimitCheck
        {
            planted.bypass::<R>(command, &self.world);
        }
        self.inner.write(clock, command)
    }

    fn counters(&self) -> Counters {
        self.inner.counters()
    }

    fn events(&self) -> Vec<String> {
        self.inner.events()
    }
}
