//! The control loop's rhythm: what runs while inactive and active, lifecycle requests to a
//! spawned loop, stopping by itself, one read per cycle, several components sharing one robot.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod support;

use std::time::Duration;

use robot_core::control_loop::{
    ControlLoop, Controller, ControllerError, LoopControl, LoopOptions, LoopReport, Pacing,
    StopAfter,
};
use robot_core::hardware::{Clock, Component, Lifecycle, System};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
use support::{Call, Log, Probe, Scripted, all_joints, plain_calls as calls, system};

#[test]
fn an_inactive_loop_reads_but_neither_updates_nor_writes() {
    let log = Log::default();
    let mut control_loop =
        ControlLoop::new(system(vec![Scripted::whole(&log)]), Probe::default(), None);
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
fn one_component_per_bus_together_drive_the_whole_robot() {
    let log = Log::default();
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
    let log = Log::default();
    let control_loop = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
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
    assert_eq!(report.final_lifecycle(), Lifecycle::Inactive);
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
    let log = Log::default();
    let mut control_loop = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
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
        report.final_lifecycle(),
        Lifecycle::Inactive,
        "a clean stop deactivates"
    );
    assert_eq!(report.realtime[0].what, "timer slack 1 ns");
}

#[test]
fn activating_mid_run_reads_once_in_that_cycle() {
    let log = Log::default();
    let mut control_loop = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
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

/// Records the clock of every update.
#[derive(Default)]
struct Clocks(Vec<Clock>);

impl Controller<LiteBiped> for Clocks {
    fn update(
        &mut self,
        clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        self.0.push(clock);
        Ok(())
    }
}

fn simulated_run(pacing: Pacing, rate: u32, seconds: f64) -> (Vec<Clock>, LoopReport) {
    let log = Log::default();
    let mut control_loop = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
        Clocks::default(),
        Some(rate),
    );
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs_f64(seconds)),
        },
        pacing,
        ..LoopOptions::default()
    };
    let report = control_loop.run(&options, &LoopControl::default()).unwrap();
    (control_loop.controller().0.clone(), report)
}

#[test]
fn a_simulated_clock_advances_one_period_a_cycle_and_as_fast_as_it_can() {
    let (clocks, report) = simulated_run(Pacing::SimulatedFast, 100, 20.0);
    // Cycle 0 activates and updates at time zero; the last update's clock is the duration.
    assert_eq!(clocks.len(), 2001);
    for (k, clock) in clocks.iter().enumerate() {
        let expected = Duration::from_millis(10) * k as u32;
        assert_eq!(
            (clock.time, clock.period),
            (expected, Duration::from_millis(10))
        );
    }
    assert_eq!(report.timing.cycles, 2001);
    assert_eq!(report.timing.simulated, Some(Duration::from_secs(20)));
    let factor = report.timing.real_time_factor().unwrap();
    assert!(
        factor > 20.0,
        "20 s of a mock take far less than a second: {factor}"
    );
    assert_eq!(report.timing.lateness.max, Duration::ZERO, "no deadlines");
}

#[test]
fn a_paced_simulated_clock_keeps_to_wall_time() {
    let (clocks, report) = simulated_run(Pacing::Simulated, 1000, 0.1);
    assert_eq!(
        clocks.last().map(|c| c.time),
        Some(Duration::from_millis(100))
    );
    let factor = report.timing.real_time_factor().unwrap();
    assert!(
        (0.5..=1.05).contains(&factor),
        "paced to real time: {factor}"
    );
    let (_, wall_clocked) = simulated_run(Pacing::RealTime, 1000, 0.02);
    assert_eq!(wall_clocked.timing.simulated, None);
}

/// Counts what it is shown; the knee position of the last state and command.
struct Watcher(std::sync::Arc<std::sync::Mutex<Vec<(f64, f64)>>>);

impl robot_core::control_loop::CycleObserver<LiteBiped> for Watcher {
    fn observe(&mut self, _clock: Clock, state: &LiteBipedState, command: &LiteBipedCommand) {
        self.0.lock().unwrap().push((
            state.left_knee_pitch.position,
            command.left_knee_pitch.position,
        ));
    }
}

#[test]
fn an_observer_sees_every_cycle_inactive_and_active_after_write() {
    let log = Log::default();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let also = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    // Two at once (the ROS graph and a recording): a pair is an observer.
    let mut control_loop =
        ControlLoop::new(system(vec![Scripted::whole(&log)]), Probe::default(), None)
            .with_observer((Watcher(seen.clone()), Watcher(also.clone())));
    control_loop.configure().unwrap();
    control_loop.cycle(Clock::default()).unwrap();
    control_loop.activate(Clock::default()).unwrap();
    control_loop.cycle(Clock::default()).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2, "one inactive cycle, one active");
    assert_eq!(seen[0].0, 0.25, "the state read while inactive");
    assert_eq!(seen[1].1, 1.0, "the command the active cycle wrote");
    let bits = |log: &[(f64, f64)]| -> Vec<(u64, u64)> {
        log.iter()
            .map(|(a, b)| (a.to_bits(), b.to_bits()))
            .collect()
    };
    assert_eq!(
        bits(&also.lock().unwrap()),
        bits(&seen),
        "the second observer saw the same"
    );
}
