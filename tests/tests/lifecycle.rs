//! The hardware lifecycle, one component state each, row by row of the table in
//! `robot_core::hardware::lifecycle` (upstream ros2_control's `HardwareComponent`): which calls
//! run in which state, where `Ok`, `Err` (FAILURE) and an escalated `Err` (ERROR) lead, safe
//! seeding on activation, several components sharing one robot.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod support;

use robot_core::hardware::{
    Clock, Component, ErrorKind, HardwareError, Identity, Lifecycle, Recovery, System,
};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
use support::{Call, Log, Outcome, Scripted, by, calls, fresh, plain_calls, system};

fn states(system: &System<LiteBiped>) -> Vec<Lifecycle> {
    system.states().map(|(_, state)| state).collect()
}

/// Two legs, configured, log emptied.
fn configured_legs(log: &Log, left: Scripted, right: Scripted) -> System<LiteBiped> {
    let mut system = system(vec![left, right]);
    system.configure().unwrap();
    calls(log);
    system
}

#[test]
fn lifecycle_runs_in_order_and_refuses_misuse() {
    let log = Log::default();
    let mut system = system(vec![Scripted::whole(&log)]);
    assert_eq!(plain_calls(&log), [Call::Init]);
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
    let (mut state, mut command) = fresh();

    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Lifecycle);
    assert_eq!(
        error.to_string(),
        "system: cannot activate: `LiteBipedHardware` is unconfigured, not inactive"
    );
    let read = system.read(Clock::default(), &mut state).unwrap_err();
    assert_eq!(read.kind(), ErrorKind::Lifecycle);
    assert!(system.deactivate().is_err(), "nothing to deactivate");

    system.configure().unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Inactive);
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Active);
    assert!(
        system.cleanup().is_err(),
        "an active component is not cleaned up"
    );
    system.deactivate().unwrap();
    system.cleanup().unwrap();
    assert_eq!(system.lifecycle(), Lifecycle::Unconfigured);
    let log = plain_calls(&log);
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
    let log = Log::default();
    let mut system = system(vec![Scripted::whole(&log)]);
    system.configure().unwrap();
    let (mut state, mut command) = fresh();
    command.left_knee_pitch.stiffness = 500.0; // a stale command must not survive activation
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    let activate = plain_calls(&log)
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

// configure: unconfigured → inactive | FAILURE: unconfigured | ERROR: unconfigured, no on_error.

#[test]
fn configure_failure_leaves_the_component_unconfigured_without_cleanup() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.configure = Outcome::Fail;
    let mut system = system(vec![left, right]);
    calls(&log);
    let error = system.configure().unwrap_err();
    assert_eq!(error.to_string(), "LiteBipedRightLeg: configure failed");
    assert_eq!(
        calls(&log),
        [
            by("LiteBipedLeftLeg", Call::Configure),
            by("LiteBipedRightLeg", Call::Configure)
        ],
        "upstream does not clean up a component whose configure failed"
    );
    assert_eq!(
        states(&system),
        [Lifecycle::Inactive, Lifecycle::Unconfigured]
    );
    // A retry configures only what is still unconfigured.
    let error = system.configure().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert_eq!(calls(&log), [by("LiteBipedRightLeg", Call::Configure)]);
}

#[test]
fn configure_error_stays_unconfigured_and_does_not_call_on_error() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.configure = Outcome::Escalate;
    let mut system = system(vec![component]);
    calls(&log);
    assert!(system.configure().is_err());
    assert_eq!(plain_calls(&log), [Call::Configure]);
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
}

// cleanup: inactive → unconfigured | FAILURE and ERROR: on_error.

#[test]
fn cleanup_failure_goes_through_on_error() {
    for (on_error, after) in [
        (Outcome::Succeed, Lifecycle::Unconfigured),
        (Outcome::Fail, Lifecycle::Finalized),
    ] {
        let log = Log::default();
        let mut component = Scripted::whole(&log);
        component.cleanup = Outcome::Fail;
        component.on_error = on_error;
        let mut system = system(vec![component]);
        system.configure().unwrap();
        calls(&log);
        assert!(system.cleanup().is_err());
        assert_eq!(
            plain_calls(&log),
            [Call::Cleanup, Call::Error(Lifecycle::Inactive)]
        );
        assert_eq!(states(&system), [after]);
    }
}

// activate: inactive → active | FAILURE: inactive | ERROR: on_error.

#[test]
fn activate_failure_stays_inactive_and_switches_off_the_legs_already_active() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.activate = Outcome::Fail;
    let mut system = configured_legs(&log, left, right);
    let (mut state, mut command) = fresh();
    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    let log: Vec<_> = calls(&log)
        .into_iter()
        .filter(|(_, c)| *c != Call::Read)
        .map(|(name, c)| (name, std::mem::discriminant(&c)))
        .collect();
    let activate = std::mem::discriminant(&Call::Activate {
        knee_position_command: 0.0,
        knee_stiffness: 0.0,
    });
    assert_eq!(
        log,
        [
            ("LiteBipedLeftLeg".to_string(), activate),
            ("LiteBipedRightLeg".to_string(), activate),
            (
                "LiteBipedLeftLeg".to_string(),
                std::mem::discriminant(&Call::Deactivate)
            ),
        ],
        "the failing leg is not deactivated (upstream: FAILURE stays inactive), the other is"
    );
    assert_eq!(states(&system), [Lifecycle::Inactive, Lifecycle::Inactive]);
}

#[test]
fn an_activate_failure_that_may_have_left_it_enabled_is_held_active_and_switched_off() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.activate = Outcome::FailLive;
    let mut system = configured_legs(&log, left, right);
    let (mut state, mut command) = fresh();
    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert!(error.is_possibly_live());
    let switched_off: Vec<_> = calls(&log)
        .into_iter()
        .filter(|(_, c)| *c == Call::Deactivate)
        .collect();
    assert_eq!(
        switched_off,
        [
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
        ],
        "the failing leg is switched off with the other"
    );
    assert_eq!(states(&system), [Lifecycle::Inactive, Lifecycle::Inactive]);
}

#[test]
fn activate_error_goes_through_on_error() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.activate = Outcome::Escalate;
    let mut system = system(vec![component]);
    system.configure().unwrap();
    calls(&log);
    let (mut state, mut command) = fresh();
    let error = system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "LiteBipedHardware: activate failed",
        "nothing else was active, so there was nothing to switch off again"
    );
    assert_eq!(
        plain_calls(&log).last(),
        Some(&Call::Error(Lifecycle::Inactive))
    );
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
}

// deactivate: active → inactive | FAILURE: active (retried) | ERROR: on_error.

fn active(log: &Log, component: Scripted) -> System<LiteBiped> {
    let mut system = system(vec![component]);
    system.configure().unwrap();
    let (mut state, mut command) = fresh();
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    calls(log);
    system
}

#[test]
fn deactivate_failure_stays_active_is_reported_and_can_be_retried() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (1, Outcome::Fail);
    let mut system = active(&log, component);
    let failures = system.deactivate().unwrap_err();
    assert_eq!(failures.len(), 1);
    assert_eq!(
        failures[0].to_string(),
        "LiteBipedHardware: deactivate failed"
    );
    assert_eq!(
        system.lifecycle(),
        Lifecycle::Active,
        "it may still be live: upstream leaves it active"
    );
    let (mut state, command) = fresh();
    system.write(Clock::default(), &command).unwrap();
    assert!(
        matches!(
            plain_calls(&log)[..],
            [Call::Deactivate, Call::Write { .. }]
        ),
        "a component that is still active is still written, not silently dropped"
    );
    system.deactivate().unwrap();
    assert_eq!(plain_calls(&log), [Call::Deactivate]);
    assert_eq!(system.lifecycle(), Lifecycle::Inactive);
    system.read(Clock::default(), &mut state).unwrap();
}

#[test]
fn deactivate_error_goes_through_on_error() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (1, Outcome::Escalate);
    let mut system = active(&log, component);
    assert!(system.deactivate().is_err());
    assert_eq!(
        plain_calls(&log),
        [Call::Deactivate, Call::Error(Lifecycle::Active)]
    );
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
}

// shutdown: unconfigured, inactive, active → finalized | FAILURE/ERROR: on_error.

#[test]
fn shutdown_from_every_state() {
    // From unconfigured and inactive: on_shutdown, then finalized and never called again.
    for configure in [false, true] {
        let log = Log::default();
        let mut system = system(vec![Scripted::whole(&log)]);
        if configure {
            system.configure().unwrap();
        }
        calls(&log);
        system.shutdown().unwrap();
        let previous = if configure {
            Lifecycle::Inactive
        } else {
            Lifecycle::Unconfigured
        };
        assert_eq!(plain_calls(&log), [Call::Shutdown(previous)]);
        assert_eq!(states(&system), [Lifecycle::Finalized]);
        assert!(system.configure().is_err(), "finalized is final");
        assert!(system.read(Clock::default(), &mut fresh().0).is_err());
        assert_eq!(plain_calls(&log), []);
    }
    // From active: deactivated first, as upstream's resource manager does.
    let log = Log::default();
    let mut system = active(&log, Scripted::whole(&log));
    system.shutdown().unwrap();
    assert_eq!(
        plain_calls(&log),
        [Call::Deactivate, Call::Shutdown(Lifecycle::Inactive)]
    );
    // A failed deactivation skips on_shutdown and leaves it active.
    let mut component = Scripted::whole(&log);
    component.deactivate = (1, Outcome::Fail);
    let mut system = active(&log, component);
    assert!(system.shutdown().is_err());
    assert_eq!(plain_calls(&log), [Call::Deactivate]);
    assert_eq!(states(&system), [Lifecycle::Active]);
}

#[test]
fn shutdown_failure_goes_through_on_error_except_from_unconfigured() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.shutdown = Outcome::Fail;
    let mut system = system(vec![component]);
    calls(&log);
    assert!(system.shutdown().is_err());
    assert_eq!(
        plain_calls(&log),
        [Call::Shutdown(Lifecycle::Unconfigured)],
        "upstream's error() does nothing from unconfigured"
    );
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
    system.configure().unwrap();
    calls(&log);
    assert!(system.shutdown().is_err());
    assert_eq!(
        plain_calls(&log),
        [
            Call::Shutdown(Lifecycle::Inactive),
            Call::Error(Lifecycle::Inactive)
        ]
    );
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
}

// read: inactive and active | write: active | an error of either: on_error, whose result decides.

#[test]
fn a_read_or_write_error_sends_only_that_component_through_on_error() {
    for (on_error, after) in [
        (Outcome::Succeed, Lifecycle::Unconfigured),
        (Outcome::Fail, Lifecycle::Finalized),
    ] {
        let log = Log::default();
        let (left, mut right) = Scripted::legs(&log);
        right.read_at = Some((2, Outcome::Fail));
        right.on_error = on_error;
        let mut system = configured_legs(&log, left, right);
        let (mut state, _) = fresh();
        system.read(Clock::default(), &mut state).unwrap();
        let error = system.read(Clock::default(), &mut state).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DeviceFault);
        if after == Lifecycle::Finalized {
            let recoveries: Vec<Recovery> = error.aftermath().map(|a| a.recovery()).collect();
            assert_eq!(recoveries, [Recovery::OnError], "{error:#}");
            assert!(format!("{error:#}").contains("finalized"), "{error:#}");
        }
        assert_eq!(
            calls(&log)[2..],
            [
                by("LiteBipedLeftLeg", Call::Read),
                by("LiteBipedRightLeg", Call::Read),
                by("LiteBipedRightLeg", Call::Error(Lifecycle::Inactive)),
            ]
        );
        assert_eq!(
            states(&system),
            [Lifecycle::Inactive, after],
            "the system reports each component; the loop decides about the other"
        );
        system.read(Clock::default(), &mut state).unwrap();
        assert_eq!(
            calls(&log),
            [by("LiteBipedLeftLeg", Call::Read)],
            "a component that left inactive is not read"
        );
    }

    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.write_at = Some((1, Outcome::Fail));
    let mut system = active(&log, component);
    assert!(system.write(Clock::default(), &fresh().1).is_err());
    assert!(matches!(
        plain_calls(&log)[..],
        [Call::Write { .. }, Call::Error(Lifecycle::Active)]
    ));
}

#[test]
fn an_inactive_component_is_read_but_not_written() {
    let log = Log::default();
    let mut system = system(vec![Scripted::whole(&log)]);
    system.configure().unwrap();
    calls(&log);
    let (mut state, command) = fresh();
    system.read(Clock::default(), &mut state).unwrap();
    system.write(Clock::default(), &command).unwrap();
    assert_eq!(plain_calls(&log), [Call::Read]);
}

#[test]
fn a_panicking_component_is_an_escalated_error() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.write_at = Some((1, Outcome::Panic));
    let mut system = active(&log, component);
    let error = system.write(Clock::default(), &fresh().1).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Panicked);
    assert_eq!(
        format!("{error:#}"),
        "LiteBipedHardware: panicked in `write`: write exploded"
    );
    assert_eq!(
        plain_calls(&log).last(),
        Some(&Call::Error(Lifecycle::Active))
    );
}

/// A component that keeps the trait's own `on_error` and `on_shutdown`.
struct Defaults(Scripted);

impl Component<LiteBiped> for Defaults {
    fn identity(&self) -> &Identity {
        self.0.identity()
    }
    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.0.on_init()
    }
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.0.on_configure()
    }
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.0.on_cleanup()
    }
    fn on_activate(
        &mut self,
        state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), HardwareError> {
        self.0.on_activate(state, command)
    }
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.0.on_deactivate()
    }
    fn read(&mut self, clock: Clock, state: &mut LiteBipedState) -> Result<(), HardwareError> {
        self.0.read(clock, state)
    }
    fn write(&mut self, clock: Clock, command: &LiteBipedCommand) -> Result<(), HardwareError> {
        self.0.write(clock, command)
    }
}

#[test]
fn the_default_on_error_switches_torque_off_and_cleans_up() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.write_at = Some((1, Outcome::Fail));
    let mut system = System::<LiteBiped>::new(vec![Box::new(Defaults(component))]).unwrap();
    system.configure().unwrap();
    let (mut state, mut command) = fresh();
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    calls(&log);
    assert!(system.write(Clock::default(), &command).is_err());
    assert!(matches!(
        plain_calls(&log)[..],
        [Call::Write { .. }, Call::Deactivate, Call::Cleanup]
    ));
    assert_eq!(states(&system), [Lifecycle::Unconfigured]);
}

#[test]
fn dropping_a_system_switches_off_what_is_still_active() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.deactivate = (2, Outcome::Fail);
    let mut system = configured_legs(&log, left, right);
    let (mut state, mut command) = fresh();
    system
        .activate(Clock::default(), &mut state, &mut command)
        .unwrap();
    calls(&log);
    drop(system);
    assert_eq!(
        calls(&log),
        [
            by("LiteBipedLeftLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
            by("LiteBipedRightLeg", Call::Deactivate),
        ],
        "every active component, retried until it succeeds (third attempt)"
    );
}

#[test]
fn two_components_may_not_drive_the_same_joint() {
    let log = Log::default();
    let a = Scripted::new("LiteBipedLeftLeg", vec![support::knee()], &log);
    let b = Scripted::whole(&log);
    let error = System::<LiteBiped>::new(vec![Box::new(a), Box::new(b)]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "LiteBipedHardware: joint `left_knee_pitch` is already driven by `LiteBipedLeftLeg`"
    );
    let c = Scripted::new("Stray", vec![99], &log);
    assert!(System::<LiteBiped>::new(vec![Box::new(c)]).is_err());
}

// init: a component that refuses the robot leaves no system.

#[test]
fn an_init_failure_builds_no_system() {
    let log = Log::default();
    let (left, mut right) = Scripted::legs(&log);
    right.init = Outcome::Fail;
    let components: Vec<Box<dyn Component<LiteBiped>>> = vec![Box::new(left), Box::new(right)];
    let error = System::new(components).unwrap_err();
    assert_eq!(error.to_string(), "LiteBipedRightLeg: init failed");
    assert_eq!(
        calls(&log),
        [
            by("LiteBipedLeftLeg", Call::Init),
            by("LiteBipedRightLeg", Call::Init)
        ]
    );
}

// on_error from active: held active until torque is off, then finalized.

#[test]
fn a_failed_on_error_from_active_holds_it_active_until_it_is_switched_off_then_finalizes_it() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.write_at = Some((1, Outcome::Fail));
    component.on_error = Outcome::Fail;
    let mut system = active(&log, component);
    let (_, command) = fresh();
    let error = system.write(Clock::default(), &command).unwrap_err();
    assert_eq!(error.message(), "write failed", "{error:#}");
    let aftermath: Vec<(Recovery, &str)> = error
        .aftermath()
        .map(|a| (a.recovery(), a.failure().message()))
        .collect();
    assert_eq!(
        aftermath,
        [(Recovery::OnErrorWhileActive, "on_error failed")],
        "{error:#}"
    );
    assert_eq!(states(&system), [Lifecycle::Active]);
    system.deactivate().unwrap();
    assert_eq!(states(&system), [Lifecycle::Finalized]);
    assert_eq!(
        plain_calls(&log)[1..],
        [Call::Error(Lifecycle::Active), Call::Deactivate]
    );
}
