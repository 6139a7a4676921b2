//! A panic anywhere a run calls into user code (the controller's `on_activate`, a component's
//! `read`, `on_activate` or `on_deactivate`) is caught: the loop ends with a fault naming what
//! panicked, the hardware is switched off, and after the panic nothing but switching off reaches
//! a component. `safety.rs` has the panics in `update` and `write`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod support;

use robot_core::control_loop::{ControlLoop, Fault, LoopControl, LoopError, LoopOptions};
use robot_core::hardware::{ErrorKind, Lifecycle, Panic};
use support::{Call, Log, Outcome, Probe, Scripted, by, calls, run_until_error, system};

fn fault(error: &LoopError) -> &Fault {
    let LoopError::Cycle { fault, .. } = error else {
        panic!("{error:?}")
    };
    fault
}

/// Asserts that `fault` is `component`'s panic in `call`, the payload's `message` typed as its
/// cause.
fn assert_panicked(fault: &Fault, component: &str, call: &str, message: &str) {
    let Fault::Hardware(error) = fault else {
        panic!("{fault:?}")
    };
    assert_eq!(error.kind(), ErrorKind::Panicked);
    assert_eq!(error.component(), component);
    assert_eq!(error.message(), format!("panicked in `{call}`"));
    assert_eq!(error.panic().map(Panic::message), Some(message));
    assert_eq!(
        fault.to_string(),
        format!("{component}: panicked in `{call}`: {message}")
    );
}

/// The calls after the last `activate` of the right leg.
fn after_activation(log: &[(String, Call)]) -> &[(String, Call)] {
    let at = log
        .iter()
        .rposition(|(name, call)| {
            name == "LiteBipedRightLeg" && matches!(call, Call::Activate { .. })
        })
        .expect("the right leg's activation");
    &log[at + 1..]
}

#[test]
fn a_controller_that_panics_in_on_activate_switches_the_hardware_off() {
    let log = Log::default();
    let (left, right) = Scripted::legs(&log);
    let probe = Probe {
        panic_on_activate: true,
        ..Probe::default()
    };
    let (control_loop, error) = run_until_error(vec![left, right], probe);
    assert_eq!(
        *fault(&error),
        Fault::ControllerPanicked {
            call: "on_activate",
            panic: Panic::new("the estimator divided by zero"),
        }
    );
    assert_eq!(
        after_activation(&calls(&log)),
        [
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
        ]
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert_eq!(
        control_loop.controller().deactivations,
        0,
        "it never started"
    );
}

#[test]
fn a_component_that_panics_in_read_is_switched_off_through_on_error_and_so_is_the_other() {
    let log = Log::default();
    let (mut left, right) = Scripted::legs(&log);
    left.read_at = Some((3, Outcome::Panic));
    left.on_error_default = true;
    let (control_loop, error) = run_until_error(vec![left, right], Probe::default());
    assert_panicked(fault(&error), "LiteBipedLeftLeg", "read", "read exploded");
    let log = calls(&log);
    let panic_at = log
        .iter()
        .rposition(|c| *c == by("LiteBipedLeftLeg", Call::Read))
        .unwrap();
    assert_eq!(
        log[panic_at + 1..],
        [
            by("LiteBipedLeftLeg", Call::Error(Lifecycle::Active)),
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedLeftLeg", Call::Cleanup),
            by("LiteBipedRightLeg", Call::Deactivate),
        ],
        "the right leg is not read after the left one panicked"
    );
    assert_eq!(
        control_loop.system().states().collect::<Vec<_>>(),
        [
            ("LiteBipedLeftLeg", Lifecycle::Unconfigured),
            ("LiteBipedRightLeg", Lifecycle::Inactive),
        ]
    );
}

#[test]
fn a_component_that_panics_in_on_activate_leaves_nothing_enabled() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.activate = Outcome::Panic;
    let (control_loop, error) = run_until_error(vec![left, right], Probe::default());
    assert_panicked(
        fault(&error),
        "LiteBipedRightLeg",
        "on_activate",
        "activate exploded",
    );
    // It panicked half-way through switching on, so it may be live: held active and switched
    // off with the left leg, which did enable (upstream's on_error from inactive would not
    // switch it off: the default on_error only deactivates what it was told was active).
    assert_eq!(
        after_activation(&calls(&log)),
        [
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
        ]
    );
    assert!(!control_loop.system().any_active());
}

#[test]
fn a_component_that_panics_in_on_deactivate_is_switched_off_by_on_error() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (1, Outcome::Panic);
    component.on_error_default = true;
    let probe = Probe {
        refuse_at: Some(2),
        ..Probe::default()
    };
    let (control_loop, error) = run_until_error(vec![component], probe);
    let LoopError::Cycle { report, .. } = &error else {
        panic!("{error:?}")
    };
    let log = calls(&log);
    let refused_read = log
        .iter()
        .rposition(|c| c.1 == Call::Read)
        .expect("cycle 2's read");
    assert_eq!(
        log[refused_read + 1..],
        [
            by("LiteBipedHardware", Call::Deactivate), // panics
            by("LiteBipedHardware", Call::Error(Lifecycle::Active)),
            by("LiteBipedHardware", Call::Deactivate), // on_error's torque-off: off
            by("LiteBipedHardware", Call::Cleanup),
        ]
    );
    // The panic is a failed torque-off, reported as one.
    assert_eq!(report.torque_off_failures.len(), 1);
    assert!(
        format!("{:#}", report.torque_off_failures[0])
            .contains("panicked in `on_deactivate`: deactivate exploded"),
        "{:?}",
        report.torque_off_failures
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Unconfigured);
}

#[test]
fn a_controller_that_panics_in_on_deactivate_is_reported_after_torque_off() {
    let log = Log::default();
    let probe = Probe {
        panic_on_deactivate: true,
        ..Probe::default()
    };
    let mut control_loop = ControlLoop::new(system(vec![Scripted::whole(&log)]), probe, Some(1000));
    let options = LoopOptions {
        stop_after: robot_core::control_loop::StopAfter {
            cycles: Some(3),
            duration: None,
        },
        ..LoopOptions::default()
    };
    // The run ends as asked: the hardware was off before the controller was told.
    let report = control_loop.run(&options, &LoopControl::default()).unwrap();
    assert_eq!(report.final_lifecycle(), Lifecycle::Inactive);
    assert_eq!(
        report.controller_deactivate,
        Some(Fault::ControllerPanicked {
            call: "on_deactivate",
            panic: Panic::new("the log file is gone"),
        })
    );
    assert_eq!(calls(&log).last().map(|c| &c.1), Some(&Call::Deactivate));
}

/// A component whose `identity` panics (so its `name` and `claims` do): the system refuses it
/// with an error saying so, typed, instead of unwinding out of `System::new`.
#[test]
fn a_component_whose_identity_panics_is_refused_not_propagated() {
    use robot_core::hardware::{Clock, Component, HardwareError, Identity, System};
    use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

    struct Nameless;
    impl Component<LiteBiped> for Nameless {
        fn identity(&self) -> &Identity {
            panic!("no identity yet")
        }
        fn on_init(&mut self) -> Result<(), HardwareError> {
            Ok(())
        }
        fn on_configure(&mut self) -> Result<(), HardwareError> {
            Ok(())
        }
        fn on_activate(
            &mut self,
            _: &LiteBipedState,
            _: &mut LiteBipedCommand,
        ) -> Result<(), HardwareError> {
            Ok(())
        }
        fn on_deactivate(&mut self) -> Result<(), HardwareError> {
            Ok(())
        }
        fn read(&mut self, _: Clock, _: &mut LiteBipedState) -> Result<(), HardwareError> {
            Ok(())
        }
        fn write(&mut self, _: Clock, _: &LiteBipedCommand) -> Result<(), HardwareError> {
            Ok(())
        }
    }

    let error = System::<LiteBiped>::new(vec![Box::new(Nameless)]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Panicked);
    assert_eq!(error.component(), "(a component whose `name` panics)");
    assert_eq!(error.message(), "panicked in `claims`");
    assert_eq!(error.panic().map(Panic::message), Some("no identity yet"));
}
