//! The hardware lifecycle and the control loop, driven through a scripted component that records
//! every call: what runs in which state, safe seeding on activation, errors ending the loop
//! without a panic, several components sharing one robot.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::sync::{Arc, Mutex};
use std::time::Duration;

use robot_core::control_loop::{
    ControlLoop, Controller, LoopControl, LoopError, LoopOptions, StopAfter,
};
use robot_core::hardware::{Claims, Clock, Component, ErrorKind, HardwareError, Lifecycle, System};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

#[derive(Debug, Clone, PartialEq)]
enum Call {
    Init,
    Configure,
    Cleanup,
    Activate {
        knee_position_command: f64,
        knee_stiffness: f64,
    },
    Deactivate,
    Read,
    Write {
        knee_position: f64,
    },
}

/// A component of lite_biped's left leg (or any joints) that logs calls and fails on request.
struct Scripted {
    name: String,
    claims: Claims,
    log: Arc<Mutex<Vec<Call>>>,
    fail_read_at: Option<usize>,
    fail_configure: bool,
    fail_activate: bool,
    reads: usize,
    measured_knee: f64,
}

impl Scripted {
    fn new(name: &str, joints: Vec<usize>, log: &Arc<Mutex<Vec<Call>>>) -> Self {
        Scripted {
            name: name.into(),
            claims: Claims {
                joints,
                sensors: vec![],
            },
            log: Arc::clone(log),
            fail_read_at: None,
            fail_configure: false,
            fail_activate: false,
            reads: 0,
            measured_knee: 0.25,
        }
    }

    fn record(&self, call: Call) {
        self.log.lock().unwrap().push(call);
    }
}

impl Component<LiteBiped> for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn claims(&self) -> &Claims {
        &self.claims
    }
    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Init);
        Ok(())
    }
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Configure);
        if self.fail_configure {
            return Err(HardwareError::new(
                &self.name,
                ErrorKind::Bus,
                "no such device",
            ));
        }
        Ok(())
    }
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Cleanup);
        Ok(())
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
        if self.fail_activate {
            return Err(HardwareError::new(
                &self.name,
                ErrorKind::DeviceFault,
                "actuator 44 faulted while enabling",
            ));
        }
        Ok(())
    }
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.record(Call::Deactivate);
        Ok(())
    }
    fn read(&mut self, _clock: Clock, state: &mut LiteBipedState) -> Result<(), HardwareError> {
        self.reads += 1;
        self.record(Call::Read);
        if self.fail_read_at == Some(self.reads) {
            return Err(HardwareError::new(
                &self.name,
                ErrorKind::Timeout,
                "actuator 34 did not answer",
            ));
        }
        if self.claims.joints.contains(&knee()) {
            state.left_knee_pitch.position = self.measured_knee;
        }
        Ok(())
    }
    fn write(&mut self, _clock: Clock, command: &LiteBipedCommand) -> Result<(), HardwareError> {
        self.record(Call::Write {
            knee_position: command.left_knee_pitch.position,
        });
        Ok(())
    }
}

fn knee() -> usize {
    LiteBiped::DESCRIPTION
        .joints
        .iter()
        .position(|j| j.name == "left_knee_pitch")
        .unwrap()
}

fn all_joints() -> Vec<usize> {
    (0..LiteBiped::DESCRIPTION.joints.len())
        .filter(|&i| LiteBiped::DESCRIPTION.joints[i].actuator.is_some())
        .collect()
}

/// Counts updates and commands the knee somewhere recognisable.
#[derive(Default)]
struct Probe {
    updates: usize,
    activations: usize,
}

impl Controller<LiteBiped> for Probe {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) {
        self.activations += 1;
    }
    fn update(&mut self, _clock: Clock, _state: &LiteBipedState, command: &mut LiteBipedCommand) {
        self.updates += 1;
        command.left_knee_pitch.position = 1.0;
    }
}

fn system(component: Scripted) -> System<LiteBiped> {
    System::new(vec![Box::new(component)]).unwrap()
}

fn calls(log: &Arc<Mutex<Vec<Call>>>) -> Vec<Call> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn lifecycle_runs_in_order_and_refuses_misuse() {
    let log = Arc::default();
    let mut system = system(Scripted::new("LiteBipedHardware", all_joints(), &log));
    assert_eq!(calls(&log), [Call::Init]);
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());

    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Lifecycle);
    assert_eq!(
        error.to_string(),
        "system: cannot activate: the system is unconfigured, not inactive"
    );
    assert_eq!(
        system
            .read(Clock::default(), &mut state)
            .unwrap_err()
            .kind(),
        ErrorKind::Lifecycle
    );

    system.configure().unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Inactive);
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Active);
    system.deactivate().unwrap();
    system.cleanup().unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
    let log = calls(&log);
    assert_eq!(log[0], Call::Configure);
    assert_eq!(
        log[1],
        Call::Read,
        "activation reads first, to seed from the measured state"
    );
    assert!(matches!(log[2], Call::Activate { .. }));
    assert_eq!(&log[3..], [Call::Deactivate, Call::Cleanup]);
}

#[test]
fn activation_seeds_commands_to_hold_the_measured_position_with_zero_gains() {
    let log = Arc::default();
    let mut system = system(Scripted::new("LiteBipedHardware", all_joints(), &log));
    system.configure().unwrap();
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
    command.left_knee_pitch.stiffness = 500.0; // a stale command must not survive activation
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    let activate = calls(&log)
        .into_iter()
        .find(|c| matches!(c, Call::Activate { .. }))
        .unwrap();
    assert_eq!(
        activate,
        Call::Activate {
            knee_position_command: 0.25,
            knee_stiffness: 0.0
        }
    );
    assert_eq!(command.left_knee_pitch.velocity, 0.0);
    assert_eq!(command.right_ankle_roll.damping, 0.0);
    assert_eq!(command.right_ankle_roll.effort, 0.0);
}

#[test]
fn an_inactive_loop_reads_but_neither_updates_nor_writes() {
    let log = Arc::default();
    let mut control_loop = ControlLoop::new(
        system(Scripted::new("LiteBipedHardware", all_joints(), &log)),
        Probe::default(),
        None,
    );
    control_loop.configure().unwrap();
    calls(&log);
    for _ in 0..5 {
        control_loop.cycle(Clock::default()).unwrap();
    }
    assert_eq!(calls(&log), vec![Call::Read; 5]);
    assert_eq!(control_loop.controller().updates, 0);
    assert_eq!(
        control_loop.state().left_knee_pitch.position,
        0.25,
        "the state is visible before anything is enabled"
    );

    control_loop.activate(Clock::default()).unwrap();
    calls(&log);
    control_loop.cycle(Clock::default()).unwrap();
    assert_eq!(
        calls(&log),
        [Call::Read, Call::Write { knee_position: 1.0 }]
    );
    assert_eq!(control_loop.controller().updates, 1);
    assert_eq!(control_loop.controller().activations, 1);
}

#[test]
fn a_failing_read_deactivates_and_ends_the_loop_with_the_error() {
    let log = Arc::default();
    let mut component = Scripted::new("LiteBipedLeftLeg", all_joints(), &log);
    // Read #1 is activation's, which also serves the first cycle; cycles 2, 3 and 4 read #2-#4.
    component.fail_read_at = Some(4);
    let mut control_loop = ControlLoop::new(system(component), Probe::default(), Some(1000));
    let control = LoopControl::default();
    let result = control_loop.run(&LoopOptions::default(), &control);
    let Err(LoopError::Cycle {
        cycle,
        error,
        report,
    }) = result
    else {
        panic!("expected a cycle error, got {result:?}")
    };
    assert_eq!(cycle, 4);
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert_eq!(
        error.to_string(),
        "LiteBipedLeftLeg: actuator 34 did not answer"
    );
    assert_eq!(report.cycles, 3, "three good cycles before the failing one");
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    let log = calls(&log);
    assert_eq!(
        log.last(),
        Some(&Call::Deactivate),
        "torque off after the failure: {log:?}"
    );
    assert_eq!(control.lifecycle(), Lifecycle::Inactive);
}

#[test]
fn a_failing_configure_cleans_up_the_failing_component_and_those_already_configured() {
    let log = Arc::default();
    let joints = all_joints();
    let (left, right) = joints.split_at(7);
    let first = Scripted::new("LiteBipedLeftLeg", left.to_vec(), &log);
    let mut second = Scripted::new("LiteBipedRightLeg", right.to_vec(), &log);
    second.fail_configure = true;
    let mut system = System::<LiteBiped>::new(vec![Box::new(first), Box::new(second)]).unwrap();
    let error = system.configure().unwrap_err();
    assert_eq!(error.to_string(), "LiteBipedRightLeg: no such device");
    assert_eq!(
        calls(&log),
        [
            Call::Init,
            Call::Init,
            Call::Configure,
            Call::Configure,
            Call::Cleanup,
            Call::Cleanup
        ]
    );
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
}

#[test]
fn two_components_may_not_drive_the_same_joint() {
    let log = Arc::default();
    let a = Scripted::new("LiteBipedLeftLeg", vec![knee()], &log);
    let b = Scripted::new("LiteBipedHardware", all_joints(), &log);
    let error = System::<LiteBiped>::new(vec![Box::new(a), Box::new(b)]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "LiteBipedHardware: joint `left_knee_pitch` is already driven by `LiteBipedLeftLeg`"
    );
    let c = Scripted::new("Stray", vec![99], &log);
    assert!(System::<LiteBiped>::new(vec![Box::new(c)]).is_err());
}

#[test]
fn one_component_per_bus_together_drive_the_whole_robot() {
    let log = Arc::default();
    let joints = all_joints();
    let (left, right) = joints.split_at(7);
    let components: Vec<Box<dyn Component<LiteBiped>>> = vec![
        Box::new(Scripted::new("LiteBipedLeftLeg", left.to_vec(), &log)),
        Box::new(Scripted::new("LiteBipedRightLeg", right.to_vec(), &log)),
    ];
    let system = System::new(components).unwrap();
    assert_eq!(
        system.component_names().collect::<Vec<_>>(),
        ["LiteBipedLeftLeg", "LiteBipedRightLeg"]
    );
    let mut control_loop = ControlLoop::new(system, Probe::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(Clock::default()).unwrap();
    calls(&log);
    control_loop.cycle(Clock::default()).unwrap();
    let log = calls(&log);
    assert_eq!(log.iter().filter(|c| **c == Call::Read).count(), 2);
    assert_eq!(
        log.iter()
            .filter(|c| matches!(c, Call::Write { .. }))
            .count(),
        2
    );
}

#[test]
fn a_spawned_loop_runs_at_its_rate_switches_lifecycle_on_request_and_stops() {
    let log = Arc::default();
    let control_loop = ControlLoop::new(
        system(Scripted::new("LiteBipedHardware", all_joints(), &log)),
        Probe::default(),
        Some(1000),
    );
    let options = LoopOptions {
        activate: false,
        ..LoopOptions::default()
    };
    let handle = control_loop.spawn(options).unwrap();
    let wait_for = |what: &dyn Fn() -> bool| {
        for _ in 0..2000 {
            if what() {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        panic!("timed out");
    };
    wait_for(&|| handle.control().cycles() >= 20);
    assert_eq!(handle.control().lifecycle(), Lifecycle::Inactive);
    handle.control().request_activate();
    wait_for(&|| handle.control().lifecycle() == Lifecycle::Active);
    let at_activation = handle.control().cycles();
    wait_for(&|| handle.control().cycles() >= at_activation + 20);
    handle.control().request_deactivate();
    wait_for(&|| handle.control().lifecycle() == Lifecycle::Inactive);
    let (control_loop, result) = handle.stop();
    let report = result.unwrap();
    assert!(report.timing.cycles >= 40, "{}", report.timing);
    assert_eq!(report.final_lifecycle, Lifecycle::Inactive);
    assert_eq!(report.timing.period, Duration::from_millis(1));
    assert!(report.timing.interval.p50 > Duration::ZERO);
    let controller = control_loop.unwrap();
    assert!(controller.controller().updates >= 20);
    let log = calls(&log);
    let writes = log
        .iter()
        .filter(|c| matches!(c, Call::Write { .. }))
        .count();
    let reads = log.iter().filter(|c| **c == Call::Read).count();
    assert!(
        reads > writes,
        "reads continue while inactive: {reads} reads, {writes} writes"
    );
    assert_eq!(writes, controller.controller().updates);
}

#[test]
fn a_run_stops_by_itself_after_the_requested_cycles() {
    let log = Arc::default();
    let mut control_loop = ControlLoop::new(
        system(Scripted::new("LiteBipedHardware", all_joints(), &log)),
        Probe::default(),
        Some(2000),
    );
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: Some(50),
            duration: None,
        },
        ..LoopOptions::default()
    };
    let report = control_loop.run(&options, &LoopControl::default()).unwrap();
    assert_eq!(report.timing.cycles, 50);
    assert_eq!(control_loop.controller().updates, 50);
    assert_eq!(
        report.final_lifecycle,
        Lifecycle::Inactive,
        "a clean stop deactivates"
    );
    assert_eq!(report.realtime[0].what, "timer slack 1 ns");
}

#[test]
fn a_failing_activation_switches_off_the_failing_component_too() {
    let log = Arc::default();
    let joints = all_joints();
    let (left, right) = joints.split_at(7);
    let first = Scripted::new("LiteBipedLeftLeg", left.to_vec(), &log);
    let mut second = Scripted::new("LiteBipedRightLeg", right.to_vec(), &log);
    second.fail_activate = true;
    let mut system = System::<LiteBiped>::new(vec![Box::new(first), Box::new(second)]).unwrap();
    system.configure().unwrap();
    calls(&log);
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    let log = calls(&log);
    let deactivations = log.iter().filter(|c| **c == Call::Deactivate).count();
    assert_eq!(
        deactivations, 2,
        "both legs torque off, the failing one included: {log:?}"
    );
    assert_eq!(system.lifecycle(), Lifecycle::Inactive);
}

#[test]
fn activating_mid_run_reads_once_in_that_cycle() {
    let log = Arc::default();
    let mut control_loop = ControlLoop::new(
        system(Scripted::new("LiteBipedHardware", all_joints(), &log)),
        Probe::default(),
        Some(1000),
    );
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: Some(3),
            duration: None,
        },
        ..LoopOptions::default()
    };
    control_loop.run(&options, &LoopControl::default()).unwrap();
    let log = calls(&log);
    let reads = log.iter().filter(|c| **c == Call::Read).count();
    let writes = log
        .iter()
        .filter(|c| matches!(c, Call::Write { .. }))
        .count();
    assert_eq!(
        (reads, writes),
        (3, 3),
        "one read per cycle, activation's included: {log:?}"
    );
}
