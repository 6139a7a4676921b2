//! A scripted hardware component that records every call and fails, escalates or panics on
//! request, and a probe controller: the tools of the lifecycle and safety tests.
#![allow(dead_code)] // each test file uses its own part

use std::sync::{Arc, Mutex};

use robot_core::control_loop::{
    ControlLoop, Controller, ControllerError, LoopControl, LoopError, LoopOptions,
};
use robot_core::hardware::{
    Claims, Clock, Component, ErrorKind, HardwareError, Identity, Lifecycle, System,
    switch_off_and_clean_up,
};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// One call a component received.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Init,
    Configure,
    Cleanup,
    Activate {
        knee_position_command: f64,
        knee_stiffness: f64,
    },
    Deactivate,
    Shutdown(Lifecycle),
    Error(Lifecycle),
    Read,
    Write {
        knee_position: f64,
    },
}

/// How a scripted callback ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outcome {
    #[default]
    Succeed,
    /// `Err`: upstream's FAILURE.
    Fail,
    /// An escalated `Err`: upstream's ERROR.
    Escalate,
    /// An `Err` that says the hardware may still be enabled (from `on_activate`).
    FailLive,
    Panic,
}

impl Outcome {
    fn apply(self, component: &str, what: &str) -> Result<(), HardwareError> {
        let error =
            || HardwareError::new(component, ErrorKind::DeviceFault, format!("{what} failed"));
        match self {
            Outcome::Succeed => Ok(()),
            Outcome::Fail => Err(error()),
            Outcome::Escalate => Err(error().escalated()),
            Outcome::FailLive => Err(error().possibly_live()),
            Outcome::Panic => panic!("{what} exploded"),
        }
    }
}

pub type Log = Arc<Mutex<Vec<(String, Call)>>>;

/// A component of lite_biped (any of its joints) that logs calls and fails on request.
pub struct Scripted {
    pub identity: Identity,
    pub log: Log,
    pub init: Outcome,
    pub configure: Outcome,
    pub cleanup: Outcome,
    pub activate: Outcome,
    /// The first `n` deactivations fail with this outcome.
    pub deactivate: (usize, Outcome),
    pub shutdown: Outcome,
    pub on_error: Outcome,
    /// `on_error` runs the library's default (torque off, then clean up) instead of `on_error`.
    pub on_error_default: bool,
    /// Read number `n` (1-based) ends with this outcome.
    pub read_at: Option<(usize, Outcome)>,
    /// Write number `n` (1-based) ends with this outcome.
    pub write_at: Option<(usize, Outcome)>,
    /// `counters` panics (a component's report code is code too).
    pub counters_panic: bool,
    reads: usize,
    writes: usize,
    deactivations: usize,
    pub measured_knee: f64,
}

impl Scripted {
    pub fn new(name: &str, joints: Vec<usize>, log: &Log) -> Self {
        Scripted {
            identity: Identity::new(
                name,
                Claims {
                    joints,
                    sensors: vec![],
                },
            ),
            log: Arc::clone(log),
            init: Outcome::Succeed,
            configure: Outcome::Succeed,
            cleanup: Outcome::Succeed,
            activate: Outcome::Succeed,
            deactivate: (0, Outcome::Succeed),
            shutdown: Outcome::Succeed,
            on_error: Outcome::Succeed,
            on_error_default: false,
            counters_panic: false,
            read_at: None,
            write_at: None,
            reads: 0,
            writes: 0,
            deactivations: 0,
            measured_knee: 0.25,
        }
    }

    /// The whole robot in one component.
    pub fn whole(log: &Log) -> Self {
        Scripted::new("LiteBipedHardware", all_joints(), log)
    }

    /// Left and right leg, one component each.
    pub fn legs(log: &Log) -> (Self, Self) {
        let joints = all_joints();
        let (left, right) = joints.split_at(7);
        (
            Scripted::new("LiteBipedLeftLeg", left.to_vec(), log),
            Scripted::new("LiteBipedRightLeg", right.to_vec(), log),
        )
    }

    fn record(&self, call: Call) {
        self.log
            .lock()
            .unwrap()
            .push((self.identity.name().to_string(), call));
    }
}

impl Component<LiteBiped> for Scripted {
    fn identity(&self) -> &Identity {
        &self.identity
    }
    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Init);
        self.init.apply(self.identity.name(), "init")
    }
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Configure);
        self.configure.apply(self.identity.name(), "configure")
    }
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Cleanup);
        self.cleanup.apply(self.identity.name(), "cleanup")
    }
    fn on_activate(
        &mut self,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), HardwareError> {
        self.record(Call::Activate {
            knee_position_command: command.left_knee_pitch.position,
            knee_stiffness: command.left_knee_pitch.stiffness,
        });
        self.activate.apply(self.identity.name(), "activate")
    }
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Deactivate);
        self.deactivations += 1;
        let (failing, outcome) = self.deactivate;
        if self.deactivations <= failing {
            outcome.apply(self.identity.name(), "deactivate")
        } else {
            Ok(())
        }
    }
    fn on_shutdown(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.record(Call::Shutdown(previous));
        self.shutdown.apply(self.identity.name(), "shutdown")
    }
    fn on_error(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.record(Call::Error(previous));
        if self.on_error_default {
            return switch_off_and_clean_up(self, previous);
        }
        self.on_error.apply(self.identity.name(), "on_error")
    }
    fn read(&mut self, _clock: Clock, state: &mut LiteBipedState) -> Result<(), HardwareError> {
        self.reads += 1;
        self.record(Call::Read);
        if let Some((at, outcome)) = self.read_at
            && at == self.reads
        {
            outcome.apply(self.identity.name(), "read")?;
        }
        if self.identity.claims().joints.contains(&knee()) {
            state.left_knee_pitch.position = self.measured_knee;
        }
        Ok(())
    }
    fn write(&mut self, _clock: Clock, command: &LiteBipedCommand) -> Result<(), HardwareError> {
        self.writes += 1;
        self.record(Call::Write {
            knee_position: command.left_knee_pitch.position,
        });
        if let Some((at, outcome)) = self.write_at
            && at == self.writes
        {
            outcome.apply(self.identity.name(), "write")?;
        }
        Ok(())
    }
    fn counters(&self) -> robot_core::hardware::Counters {
        assert!(!self.counters_panic, "counter overflow");
        robot_core::hardware::Counters::new()
    }
}

pub fn knee() -> usize {
    LiteBiped::DESCRIPTION
        .joints
        .iter()
        .position(|j| j.name == "left_knee_pitch")
        .unwrap()
}

pub fn all_joints() -> Vec<usize> {
    (0..LiteBiped::DESCRIPTION.joints.len())
        .filter(|&i| LiteBiped::DESCRIPTION.joints[i].actuator.is_some())
        .collect()
}

/// Counts updates, commands the knee somewhere recognisable, and refuses or panics on request.
#[derive(Default)]
pub struct Probe {
    pub updates: usize,
    pub activations: usize,
    pub deactivations: usize,
    /// Update number `n` (1-based) refuses.
    pub refuse_at: Option<usize>,
    /// Update number `n` (1-based) panics.
    pub panic_at: Option<usize>,
    pub refuse_activation: bool,
    pub panic_on_activate: bool,
    pub panic_on_deactivate: bool,
}

impl Controller<LiteBiped> for Probe {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        self.activations += 1;
        if self.panic_on_activate {
            panic!("the estimator divided by zero");
        }
        if self.refuse_activation {
            return Err(ControllerError::new("the estimator has not converged"));
        }
        Ok(())
    }
    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        self.updates += 1;
        if self.panic_at == Some(self.updates) {
            panic!("index out of bounds in the controller");
        }
        if self.refuse_at == Some(self.updates) {
            return Err(ControllerError::new("knee beyond its safe range"));
        }
        command.left_knee_pitch.position = 1.0;
        Ok(())
    }
    fn on_deactivate(&mut self, _clock: Clock, _state: &LiteBipedState) {
        self.deactivations += 1;
        if self.panic_on_deactivate {
            panic!("the log file is gone");
        }
    }
}

/// Runs `probe` on `components` at 1 kHz until the run fails; returns the loop and its error.
pub fn run_until_error(
    components: Vec<Scripted>,
    probe: Probe,
) -> (ControlLoop<LiteBiped, Probe>, LoopError) {
    let mut control_loop = ControlLoop::new(system(components), probe, Some(1000));
    let error = control_loop
        .run(&LoopOptions::default(), &LoopControl::default())
        .expect_err("the run fails");
    (control_loop, error)
}

pub fn system(components: Vec<Scripted>) -> System<LiteBiped> {
    System::new(
        components
            .into_iter()
            .map(|c| Box::new(c) as Box<dyn Component<LiteBiped>>)
            .collect(),
    )
    .unwrap()
}

/// The calls logged so far, emptying the log.
pub fn calls(log: &Log) -> Vec<(String, Call)> {
    std::mem::take(&mut *log.lock().unwrap())
}

/// The calls logged so far without component names, emptying the log.
pub fn plain_calls(log: &Log) -> Vec<Call> {
    calls(log).into_iter().map(|(_, call)| call).collect()
}

/// `(component, call)` pairs, for readable expectations.
pub fn by(name: &str, call: Call) -> (String, Call) {
    (name.to_string(), call)
}

pub fn knee_write(position: f64) -> Call {
    Call::Write {
        knee_position: position,
    }
}

pub fn fresh() -> (LiteBipedState, LiteBipedCommand) {
    (LiteBipedState::default(), LiteBipedCommand::default())
}
