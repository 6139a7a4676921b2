//! Hardware is always left safe: every way a run of the control loop can end (a failed read or
//! write, a controller that refuses or panics, a component that panics, a drop, a torque-off
//! that fails) switches the hardware off, and after the failure nothing but deactivation reaches
//! a component. Each test asserts the exact calls.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod support;

use std::time::Duration;

use robot_core::control_loop::{
    ControlLoop, Fault, LoopControl, LoopError, LoopOptions, StopAfter, TORQUE_OFF_ATTEMPTS,
};
use robot_core::hardware::{Clock, ErrorKind, Lifecycle, Panic, Recovery};
use support::{
    Call, Log, Outcome, Probe, Scripted, by, calls, knee_write, plain_calls, run_until_error,
    system,
};

/// The calls after the first one matching `failure`, which must all be switching off.
fn after<'a>(log: &'a [(String, Call)], failure: &(String, Call)) -> &'a [(String, Call)] {
    let at = log
        .iter()
        .position(|c| c == failure)
        .expect("the failing call");
    &log[at + 1..]
}

fn only_switching_off(calls: &[(String, Call)]) {
    for (name, call) in calls {
        assert!(
            matches!(call, Call::Deactivate | Call::Error(_) | Call::Cleanup),
            "{name} got {call:?} after the failure: {calls:?}"
        );
    }
}

#[test]
fn a_controller_that_panics_in_update_is_caught_and_the_hardware_switched_off() {
    let log = Log::default();
    let probe = Probe {
        panic_at: Some(3),
        ..Probe::default()
    };
    let control_loop = ControlLoop::new(system(vec![Scripted::whole(&log)]), probe, Some(1000));
    let handle = control_loop.spawn(LoopOptions::default()).unwrap();
    let (control_loop, result) = handle.join();
    let control_loop = control_loop.expect("the loop comes back after a controller panic");
    let Err(LoopError::Cycle { cycle, fault, .. }) = result else {
        panic!("{result:?}")
    };
    assert_eq!(cycle, 3);
    assert_eq!(
        fault,
        Fault::ControllerPanicked {
            call: "update",
            panic: Panic::new("index out of bounds in the controller"),
        }
    );
    // Activation's read serves cycle 1; cycles 2 and 3 read; the panic is in cycle 3's update.
    assert_eq!(
        plain_calls(&log)[2..],
        [
            Call::Read,
            Call::Activate {
                knee_position_command: 0.25,
                knee_stiffness: 0.0
            },
            knee_write(1.0),
            Call::Read,
            knee_write(1.0),
            Call::Read,
            Call::Deactivate,
        ]
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert_eq!(control_loop.controller().deactivations, 1);
    assert_eq!(control_loop.state().left_knee_pitch.position, 0.25);
}

#[test]
fn a_controller_that_refuses_stops_the_robot_with_its_reason() {
    let log = Log::default();
    let (left, right) = Scripted::legs(&log);
    let probe = Probe {
        refuse_at: Some(2),
        ..Probe::default()
    };
    let (control_loop, error) = run_until_error(vec![left, right], probe);
    assert_eq!(
        error.to_string(),
        "cycle 2: the controller stopped: knee beyond its safe range"
    );
    let log = calls(&log);
    assert_eq!(
        log[log.len() - 4..],
        [
            by("LiteBipedLeftLeg", Call::Read),
            by("LiteBipedRightLeg", Call::Read),
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
        ],
        "refused before writing: cycle 2 writes nothing"
    );
    only_switching_off(&log[log.len() - 2..]);
    assert_eq!(control_loop.controller().deactivations, 1);
}

#[test]
fn a_controller_that_refuses_to_activate_switches_the_hardware_off_again() {
    let log = Log::default();
    let probe = Probe {
        refuse_activation: true,
        ..Probe::default()
    };
    let (control_loop, error) = run_until_error(vec![Scripted::whole(&log)], probe);
    let LoopError::Cycle { fault, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(
        fault.to_string(),
        "the controller stopped: the estimator has not converged"
    );
    let log = plain_calls(&log);
    assert!(matches!(
        log[2..],
        [Call::Read, Call::Activate { .. }, Call::Deactivate]
    ));
    assert_eq!(
        control_loop.controller().deactivations,
        0,
        "on_deactivate is owed only after a successful on_activate"
    );
}

#[test]
fn a_failing_read_of_one_leg_switches_both_off_and_nothing_else_reaches_them() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    // Read #1 is activation's, which also serves the first cycle; cycles 2, 3 and 4 read #2-#4.
    right.read_at = Some((4, Outcome::Fail));
    let (control_loop, error) = run_until_error(vec![left, right], Probe::default());
    let LoopError::Cycle {
        cycle,
        fault,
        report,
    } = error
    else {
        panic!("{error:?}")
    };
    assert_eq!(cycle, 4);
    let Fault::Hardware(error) = fault else {
        panic!("{fault:?}")
    };
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert_eq!(error.to_string(), "LiteBipedRightLeg: read failed");
    assert_eq!(
        report.timing.cycles, 3,
        "three good cycles before the failing one"
    );
    let log = calls(&log);
    let rest = after(&log, &by("LiteBipedRightLeg", Call::Read));
    let rest = after(rest, &by("LiteBipedRightLeg", Call::Read));
    let rest = after(rest, &by("LiteBipedRightLeg", Call::Read));
    let rest = after(rest, &by("LiteBipedRightLeg", Call::Read));
    assert_eq!(
        rest,
        [
            by("LiteBipedRightLeg", Call::Error(Lifecycle::Active)),
            by("LiteBipedLeftLeg", Call::Deactivate),
        ]
    );
    let ends: Vec<(&str, Lifecycle)> = (report.components.iter())
        .map(|c| (c.name.as_str(), c.lifecycle))
        .collect();
    assert_eq!(
        ends,
        [
            ("LiteBipedLeftLeg", Lifecycle::Inactive),
            ("LiteBipedRightLeg", Lifecycle::Unconfigured),
        ]
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
}

#[test]
fn a_component_that_panics_in_write_ends_the_run_and_the_other_leg_is_switched_off() {
    let log = Log::default();
    let (mut left, right) = Scripted::legs(&log);
    left.write_at = Some((2, Outcome::Panic));
    let (_, error) = run_until_error(vec![left, right], Probe::default());
    let LoopError::Cycle { fault, .. } = &error else {
        panic!("{error:?}")
    };
    let Fault::Hardware(panicked) = fault else {
        panic!("{fault:?}")
    };
    assert_eq!(
        (panicked.component(), panicked.kind(), panicked.message()),
        (
            "LiteBipedLeftLeg",
            ErrorKind::Panicked,
            "panicked in `write`"
        )
    );
    assert_eq!(
        panicked.panic().map(Panic::message),
        Some("write exploded"),
        "the payload, typed as the error's cause"
    );
    let log = calls(&log);
    let failing = by("LiteBipedLeftLeg", knee_write(1.0));
    let rest = after(after(&log, &failing), &failing);
    assert_eq!(
        rest,
        [
            by("LiteBipedLeftLeg", Call::Error(Lifecycle::Active)),
            by("LiteBipedRightLeg", Call::Deactivate),
        ],
        "the right leg is not written after the left one panicked"
    );
    only_switching_off(rest);
}

#[test]
fn a_failed_torque_off_is_retried_and_every_failure_reported() {
    // Fails twice, then succeeds: the run ends cleanly, with both failures in the report.
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (2, Outcome::Fail);
    let mut control_loop = ControlLoop::new(system(vec![component]), Probe::default(), Some(1000));
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: Some(3),
            duration: None,
        },
        ..LoopOptions::default()
    };
    let report = control_loop.run(&options, &LoopControl::default()).unwrap();
    assert_eq!(report.torque_off_failures.len(), 2);
    assert_eq!(report.final_lifecycle(), Lifecycle::Inactive);
    let deactivations = plain_calls(&log)
        .into_iter()
        .filter(|c| *c == Call::Deactivate)
        .count();
    assert_eq!(deactivations, 3);

    // Never succeeds: the run ends with TorqueOff, the component still active and said so.
    let mut component = Scripted::whole(&log);
    component.deactivate = (usize::MAX, Outcome::Fail);
    let mut control_loop = ControlLoop::new(system(vec![component]), Probe::default(), Some(1000));
    let error = control_loop
        .run(&options, &LoopControl::default())
        .unwrap_err();
    let LoopError::TorqueOff { report } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(report.torque_off_failures.len(), TORQUE_OFF_ATTEMPTS);
    assert_eq!(report.final_lifecycle(), Lifecycle::Active);
    assert!(
        error
            .to_string()
            .ends_with("; `LiteBipedHardware` is STILL ACTIVE"),
        "{error}"
    );
}

#[test]
fn a_write_error_whose_torque_off_fails_keeps_the_component_active_until_it_is_off() {
    // The second write fails; `on_error` (the library's default) switches torque off, which
    // fails twice: the component is held active, switched off again by the loop, then finalized.
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.write_at = Some((2, Outcome::Fail));
    component.deactivate = (2, Outcome::Fail);
    component.on_error_default = true;
    let (control_loop, error) = run_until_error(vec![component], Probe::default());
    let LoopError::Cycle {
        report,
        fault: Fault::Hardware(fault),
        ..
    } = &error
    else {
        panic!("{error:?}")
    };
    let log = plain_calls(&log);
    let failed = log
        .iter()
        .rposition(|c| matches!(c, Call::Write { .. }))
        .expect("the failing write");
    assert_eq!(
        log.iter()
            .filter(|c| matches!(c, Call::Write { .. }))
            .count(),
        2
    );
    let tail: Vec<&Call> = log[failed + 1..].iter().collect();
    assert_eq!(
        tail,
        [
            &Call::Error(Lifecycle::Active),
            &Call::Deactivate, // on_error's torque-off: fails
            &Call::Deactivate, // the loop's first retry: fails
            &Call::Deactivate, // the second: off
        ]
    );
    assert_eq!(report.torque_off_failures.len(), 1, "{error}");
    assert_eq!(control_loop.lifecycle(), Lifecycle::Finalized);
    // The write's failure, then `on_error`'s, as its aftermath: not text in its message.
    let aftermath: Vec<(Recovery, &str)> = fault
        .aftermath()
        .map(|a| (a.recovery(), a.failure().message()))
        .collect();
    assert_eq!(
        aftermath,
        [(Recovery::OnErrorWhileActive, "deactivate failed")],
        "{fault:#}"
    );
    let text = error.to_string();
    assert!(
        text.contains(
            "on_error failed too: it may still be live, so it stays active until switching it \
             off succeeds, then it is finalized: LiteBipedHardware: deactivate failed"
        ),
        "{text}"
    );
    assert!(
        text.contains("torque off failed: LiteBipedHardware: deactivate failed"),
        "{text}"
    );
}

#[test]
fn a_component_that_never_switches_off_after_an_error_is_reported_still_active() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.read_at = Some((3, Outcome::Escalate));
    component.deactivate = (usize::MAX, Outcome::Fail);
    component.on_error_default = true;
    let (control_loop, error) = run_until_error(vec![component], Probe::default());
    let LoopError::Cycle { report, .. } = &error else {
        panic!("{error:?}")
    };
    // on_error's attempt, then the loop's bounded retries; never more.
    let deactivations = plain_calls(&log)
        .into_iter()
        .filter(|c| *c == Call::Deactivate)
        .count();
    assert_eq!(deactivations, 1 + TORQUE_OFF_ATTEMPTS);
    assert_eq!(report.torque_off_failures.len(), TORQUE_OFF_ATTEMPTS);
    assert_eq!(control_loop.lifecycle(), Lifecycle::Active);
    assert!(
        error
            .to_string()
            .ends_with("; `LiteBipedHardware` is STILL ACTIVE"),
        "{error}"
    );
}

#[test]
fn after_one_leg_fails_a_failed_torque_off_of_the_other_is_retried_and_reported() {
    // The left leg's third read fails; switching the right leg off then fails once. The right
    // leg is deactivated again (and is off at the end), and the failure is in the loop's error.
    let log = Log::default();
    let (mut left, mut right) = Scripted::legs(&log);
    left.read_at = Some((3, Outcome::Fail));
    right.deactivate = (1, Outcome::Fail);
    let (control_loop, error) = run_until_error(vec![left, right], Probe::default());
    let LoopError::Cycle { report, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(report.torque_off_failures.len(), 1, "{error}");
    assert_eq!(
        report.torque_off_failures[0].component(),
        "LiteBipedRightLeg"
    );
    assert!(
        error
            .to_string()
            .contains("torque off failed: LiteBipedRightLeg"),
        "{error}"
    );
    let log = calls(&log);
    let failed_read = log
        .iter()
        .rposition(|c| *c == by("LiteBipedLeftLeg", Call::Read))
        .expect("the failing read");
    let after_failure = &log[failed_read + 1..];
    only_switching_off(after_failure);
    let right_offs = after_failure
        .iter()
        .filter(|c| **c == by("LiteBipedRightLeg", Call::Deactivate))
        .count();
    assert_eq!(
        right_offs, 2,
        "tried, failed, tried again: {after_failure:?}"
    );
    assert!(
        control_loop
            .system()
            .states()
            .all(|(_, s)| s != Lifecycle::Active)
    );
}

#[test]
fn dropping_an_active_loop_switches_the_hardware_off() {
    let log = Log::default();
    let mut control_loop =
        ControlLoop::new(system(vec![Scripted::whole(&log)]), Probe::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(Clock::default()).unwrap();
    control_loop.cycle(Clock::default()).unwrap();
    calls(&log);
    drop(control_loop);
    assert_eq!(plain_calls(&log), [Call::Deactivate]);
}

#[test]
fn dropping_an_active_loop_whose_torque_off_fails_retries_it() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (2, Outcome::Fail);
    let mut control_loop = ControlLoop::new(system(vec![component]), Probe::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(Clock::default()).unwrap();
    control_loop.cycle(Clock::default()).unwrap();
    calls(&log);
    drop(control_loop);
    assert_eq!(
        plain_calls(&log),
        [Call::Deactivate, Call::Deactivate, Call::Deactivate],
        "failed, failed, off"
    );
}

#[test]
fn dropping_a_loop_handle_whose_torque_off_fails_retries_it_before_returning() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (2, Outcome::Fail);
    let control_loop = ControlLoop::new(system(vec![component]), Probe::default(), Some(1000));
    let handle = control_loop.spawn(LoopOptions::default()).unwrap();
    while handle.control().cycles() < 20 {
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(handle);
    let at_drop = plain_calls(&log);
    let tail = &at_drop[at_drop.len() - 3..];
    assert_eq!(
        tail,
        [Call::Deactivate, Call::Deactivate, Call::Deactivate],
        "{at_drop:?}"
    );
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(plain_calls(&log), [], "nothing reaches it after the drop");
}

#[test]
fn dropping_a_loop_handle_stops_the_loop_and_waits_for_torque_off() {
    let log = Log::default();
    let control_loop = ControlLoop::new(
        system(vec![Scripted::whole(&log)]),
        Probe::default(),
        Some(1000),
    );
    let handle = control_loop.spawn(LoopOptions::default()).unwrap();
    while handle.control().cycles() < 20 {
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(handle);
    let at_drop = plain_calls(&log);
    assert_eq!(at_drop.last(), Some(&Call::Deactivate), "{at_drop:?}");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        plain_calls(&log),
        [],
        "nothing is written after the handle is gone"
    );
}

#[test]
fn a_configure_failure_in_run_cleans_up_what_was_configured() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.configure = Outcome::Fail;
    let mut control_loop = ControlLoop::new(system(vec![left, right]), Probe::default(), None);
    calls(&log);
    let error = control_loop
        .run(&LoopOptions::default(), &LoopControl::default())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "configure failed: LiteBipedRightLeg: configure failed"
    );
    assert_eq!(
        calls(&log),
        [
            by("LiteBipedLeftLeg", Call::Configure),
            by("LiteBipedRightLeg", Call::Configure),
            by("LiteBipedLeftLeg", Call::Cleanup),
        ]
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Unconfigured);
}

#[test]
fn a_failed_clean_up_after_a_configure_failure_is_reported_not_dropped() {
    let log = Log::default();
    let (mut left, mut right) = Scripted::legs(&log);
    right.configure = Outcome::Fail;
    left.cleanup = Outcome::Fail;
    let mut control_loop = ControlLoop::new(system(vec![left, right]), Probe::default(), None);
    let error = control_loop
        .run(&LoopOptions::default(), &LoopControl::default())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "configure failed: LiteBipedRightLeg: configure failed; cleaning up again failed: \
         LiteBipedLeftLeg: cleanup failed"
    );
    let LoopError::Lifecycle { error, .. } = &error else {
        panic!("{error:?}")
    };
    let aftermath: Vec<(Recovery, &str, &str)> = error
        .aftermath()
        .map(|a| (a.recovery(), a.failure().component(), a.failure().message()))
        .collect();
    assert_eq!(
        aftermath,
        [(
            Recovery::CleaningUpAgain,
            "LiteBipedLeftLeg",
            "cleanup failed"
        )]
    );
    // The failed clean-up went through `on_error` (upstream's rule): the left leg recovered.
    assert_eq!(control_loop.lifecycle(), Lifecycle::Unconfigured);
}
