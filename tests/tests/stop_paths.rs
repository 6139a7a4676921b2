//! Ways a run could end with hardware enabled that an adversarial review found, each a test
//! that failed before its fix: a panic half-way through `on_activate`, a requested deactivation
//! whose torque-off failed at first, a panic in `counters`, and a stop asked for before the
//! first cycle (a handle dropped at once, zero cycles).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report
mod support;

use robot_core::control_loop::{ControlLoop, LoopControl, LoopError, LoopOptions, StopAfter};
use robot_core::hardware::{Clock, Lifecycle};
use std::time::Duration;
use support::{
    Call, Log, Outcome, Probe, Scripted, by, calls, plain_calls, run_until_error, system,
};

/// A component that panics half-way through `on_activate` may have torque on: it is switched
/// off (it got `on_error(Inactive)`, whose default only cleaned up).
#[test]
fn a_component_that_panics_in_on_activate_is_switched_off_with_the_default_on_error() {
    let log = Log::default();
    let mut c = Scripted::whole(&log);
    c.activate = Outcome::Panic;
    c.on_error_default = true;
    let (_l, _e) = run_until_error(vec![c], Probe::default());
    let log = plain_calls(&log);
    let at = log
        .iter()
        .position(|c| matches!(c, Call::Activate { .. }))
        .unwrap();
    assert!(
        log[at + 1..].contains(&Call::Deactivate),
        "no torque-off after the panic: {:?}",
        &log[at + 1..]
    );
}

/// A requested deactivation whose torque-off escalates (the leg goes through `on_error`) ends
/// the run: nothing reads the other leg after the failure.
#[test]
fn a_requested_deactivation_whose_torque_off_fails_at_first_ends_the_run() {
    let log = Log::default();
    let (mut left, right) = Scripted::legs(&log);
    left.deactivate = (1, Outcome::Escalate);
    let cl = ControlLoop::new(system(vec![left, right]), Probe::default(), Some(1000));
    // Without the fix the loop would go on, inactive, until this ends it.
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs(10)),
        },
        ..LoopOptions::default()
    };
    let h = cl.spawn(options).unwrap();
    while h.control().cycles() < 5 {
        std::thread::sleep(Duration::from_millis(1));
    }
    h.control().request_deactivate();
    let (_, result) = h.join();
    let Err(LoopError::TorqueOff { report }) = result else {
        panic!("the run ends with the torque-off failure: {result:?}")
    };
    assert_eq!(report.torque_off_failures.len(), 1, "{report:?}");
    let log = calls(&log);
    let at = log
        .iter()
        .position(|c| *c == by("LiteBipedLeftLeg", Call::Error(Lifecycle::Active)))
        .unwrap();
    let reads_after = log[at..].iter().filter(|c| c.1 == Call::Read).count();
    assert_eq!(reads_after, 0, "{:?}", &log[at..]);
}

/// A component whose `counters` panics, and whose torque-off never succeeds: the loop comes
/// back with `TorqueOff`, not a panicked thread whose report only reached stderr.
#[test]
fn a_panic_in_counters_loses_neither_the_loop_nor_the_still_active_report() {
    let log = Log::default();
    let mut c = Scripted::whole(&log);
    c.deactivate = (usize::MAX, Outcome::Fail);
    c.counters_panic = true;
    let cl = ControlLoop::new(system(vec![c]), Probe::default(), Some(1000));
    let opts = LoopOptions {
        stop_after: StopAfter {
            cycles: Some(3),
            duration: None,
        },
        ..LoopOptions::default()
    };
    let (cl, r) = cl.spawn(opts).unwrap().join();
    assert!(
        cl.is_some() && matches!(r, Err(LoopError::TorqueOff { .. })),
        "got loop={} {r:?}",
        cl.is_some()
    );
}

/// A stop asked for before the first cycle (as a handle dropped right after `spawn` asks it,
/// if the thread has not got that far): nothing is switched on.
#[test]
fn a_stop_asked_for_before_the_first_cycle_enables_nothing() {
    let log = Log::default();
    let mut cl = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
        Probe::default(),
        Some(1000),
    );
    let control = LoopControl::default();
    control.request_stop();
    let report = cl.run(&LoopOptions::default(), &control).unwrap();
    assert_eq!(report.timing.cycles, 0);
    let log = plain_calls(&log);
    assert!(
        !log.iter()
            .any(|c| matches!(c, Call::Activate { .. } | Call::Write { .. })),
        "{log:?}"
    );
}

/// Zero cycles asked for: nothing is switched on, nothing written.
#[test]
fn zero_cycles_enable_nothing() {
    let log = Log::default();
    let mut cl = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
        Probe::default(),
        Some(1000),
    );
    let opts = LoopOptions {
        stop_after: StopAfter {
            cycles: Some(0),
            duration: None,
        },
        ..LoopOptions::default()
    };
    cl.run(&opts, &LoopControl::default()).unwrap();
    let log = plain_calls(&log);
    assert!(
        !log.iter().any(|c| matches!(c, Call::Write { .. })),
        "{log:?}"
    );
}

/// A panic outside any guarded call while an active loop is owned, its component panicking in
/// `on_deactivate` during the unwind: caught (no abort), switched off through `on_error`.
#[test]
fn a_panic_in_on_deactivate_while_a_loop_is_dropped_in_unwinding_is_caught() {
    let log = Log::default();
    let mut c = Scripted::whole(&log);
    c.deactivate = (1, Outcome::Panic);
    c.on_error_default = true;
    let mut cl = ControlLoop::new(system(vec![c]), Probe::default(), None);
    cl.configure().unwrap();
    cl.activate(Clock::default()).unwrap();
    calls(&log);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let _cl = cl;
        panic!("outside")
    }));
    assert!(r.is_err());
    assert_eq!(
        plain_calls(&log),
        [
            Call::Deactivate,
            Call::Error(Lifecycle::Active),
            Call::Deactivate,
            Call::Cleanup
        ]
    );
}
