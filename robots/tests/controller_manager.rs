//! The controller manager on the mock backend: several controllers at once, each reaching only
//! what it claims, switched between two cycles from another thread, strict and best effort,
//! holding what a controller lets go, seeding what one takes over, and allocating nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod manager;

use std::time::Duration;

use alloc_counter::allocations_in;
use robot_core::InterfaceKind;
use robot_core::control_loop::{Controller, ControllerError};
use robot_core::controller_manager::{
    Claims, LoadError, Managed, Strictness, SwitchAnswer, controller_manager,
};
use robot_core::hardware::Clock;
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

use manager::{RIGHT, active, cycles, knee, running, switch};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn controllers_on_different_legs_run_together_each_reaching_only_what_it_claims() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("left_knee", true, 0.5, true),
        knee("right_knee", false, 0.3, true),
    ]);
    cycles(&mut control_loop, &mut clock, 100);
    let command = control_loop.command();
    assert!((command.left_knee_pitch.position - 0.5).abs() < 1e-9);
    assert!((command.right_knee_pitch.position - 0.3).abs() < 1e-9);
    assert_eq!(command.left_knee_pitch.stiffness, 40.0);
    // Both wrote the effort, which neither claimed: it stays as activation seeded it.
    assert_eq!(command.left_knee_pitch.effort, 0.0);
    assert_eq!(command.right_knee_pitch.effort, 0.0);
    assert_eq!(active(&handle), ["left_knee", "right_knee"]);
    let claims = &handle.controllers()[0].info.claims;
    assert!(
        claims.contains(&"left_knee_pitch/position".to_string()),
        "{claims:?}"
    );
    assert!(
        !claims.iter().any(|c| c.starts_with("right_")),
        "{claims:?}"
    );
}

#[test]
fn two_controllers_that_would_start_active_on_one_interface_are_refused_when_loaded() {
    let error = controller_manager(vec![
        knee("first", true, 0.5, true),
        knee("second", true, 0.2, true),
    ])
    .unwrap_err();
    assert_eq!(
        error,
        LoadError::Collision {
            first: "first".into(),
            second: "second".into(),
            interface: "left_hip_pitch/position".into(),
        }
    );
    assert!(
        error.to_string().contains("cannot be active together"),
        "{error}"
    );
    // One of them inactive: loaded.
    assert!(
        controller_manager(vec![
            knee("first", true, 0.5, true),
            knee("second", true, 0.2, false)
        ])
        .is_ok()
    );
}

#[test]
fn a_switch_between_two_controllers_of_one_leg_happens_between_two_cycles_without_a_jump() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("up", true, 0.8, true),
        knee("down", true, -0.5, false),
    ]);
    cycles(&mut control_loop, &mut clock, 30); // 0.3 rad up, on its way to 0.8
    let before = control_loop.state().left_knee_pitch.position;
    assert!(before > 0.2, "{before}");
    let (answer, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["down"],
        &["up"],
        Strictness::Strict,
    );
    assert_eq!(
        answer,
        SwitchAnswer {
            ok: true,
            message: String::new()
        }
    );
    assert_eq!(active(&handle), ["down"]);
    // `down` took over from where the knee was (the mock follows its command in a cycle), and
    // moves on from there by one step a cycle: no jump towards -0.5.
    let after = control_loop.command().left_knee_pitch.position;
    let moved = (after - control_loop.state().left_knee_pitch.position).abs();
    assert!(moved <= 0.01 + 1e-9, "moved {moved} in a cycle");
    cycles(&mut control_loop, &mut clock, 200);
    assert!((control_loop.command().left_knee_pitch.position + 0.5).abs() < 1e-9);
}

#[test]
fn a_colliding_activation_is_refused_when_strict_and_skipped_at_best_effort() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("left", true, 0.4, true),
        knee("left_again", true, -0.4, false),
        knee("right", false, 0.2, false),
    ]);
    cycles(&mut control_loop, &mut clock, 5);
    let (strict, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["right", "left_again"],
        &[],
        Strictness::Strict,
    );
    assert!(!strict.ok);
    assert!(
        strict.message.contains("'left_again'")
            && strict
                .message
                .contains("currently claimed by another controller ('left')"),
        "{}",
        strict.message
    );
    assert_eq!(
        active(&handle),
        ["left"],
        "a strict switch refused changes nothing"
    );

    let (best, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["right", "left_again", "no_such_controller"],
        &[],
        Strictness::BestEffort,
    );
    assert!(best.ok, "{}", best.message);
    assert!(best.message.contains("left_again"), "{}", best.message);
    assert!(
        best.message.contains("no_such_controller"),
        "{}",
        best.message
    );
    assert_eq!(active(&handle), ["left", "right"]);
    cycles(&mut control_loop, &mut clock, 100);
    assert!((control_loop.command().left_knee_pitch.position - 0.4).abs() < 1e-9);
    assert!((control_loop.command().right_knee_pitch.position - 0.2).abs() < 1e-9);
}

#[test]
fn a_controller_deactivated_mid_motion_leaves_its_joints_holding() {
    let (mut control_loop, handle, mut clock) = running(vec![knee("left", true, 1.0, true)]);
    cycles(&mut control_loop, &mut clock, 20); // moving, 0.01 rad a cycle
    let (answer, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &[],
        &["left"],
        Strictness::Strict,
    );
    assert!(answer.ok, "{}", answer.message);
    assert!(active(&handle).is_empty());
    let held = control_loop.command().left_knee_pitch;
    cycles(&mut control_loop, &mut clock, 50);
    let now = control_loop.command().left_knee_pitch;
    assert_eq!(now.position, held.position, "the command holds still");
    assert!(
        (control_loop.state().left_knee_pitch.position - held.position).abs() < 1e-9,
        "and the knee stays where it was when its controller let go"
    );
    assert_eq!(now.stiffness, 40.0, "with the servo it had");
    assert_eq!(now.velocity, 0.0);
}

#[test]
fn strict_refusals_name_the_controller_and_change_nothing() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("left", true, 0.4, true),
        knee("right", false, 0.2, false),
    ]);
    let cases: [(&[&str], &[&str], &str); 3] = [
        (
            &["left"],
            &[],
            "Could not activate controller 'left' since it is already active",
        ),
        (
            &[],
            &["right"],
            "Could not deactivate controller 'right' since it is not active",
        ),
        (
            &["nope"],
            &[],
            "Could not activate controller with name 'nope' because no controller with this name exists",
        ),
    ];
    for (activate, deactivate, said) in cases {
        let (answer, _) = switch(
            &mut control_loop,
            &mut clock,
            &handle,
            activate,
            deactivate,
            Strictness::Strict,
        );
        assert!(!answer.ok);
        assert!(answer.message.contains(said), "{}", answer.message);
        assert_eq!(active(&handle), ["left"]);
    }
}

#[test]
fn a_switch_while_the_hardware_is_inactive_is_refused_at_once() {
    let (mut control_loop, handle, _) = running(vec![knee("left", true, 0.4, true)]);
    control_loop.deactivate().unwrap();
    let answer = handle.switch(
        &[],
        &["left".to_string()],
        Strictness::Strict,
        Duration::from_secs(5),
    );
    assert!(!answer.ok);
    assert!(
        answer.message.contains("hardware is not active"),
        "{}",
        answer.message
    );
}

#[test]
fn cycles_with_switches_arriving_allocate_nothing() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("up", true, 0.8, true),
        knee("down", true, -0.5, false),
        knee("right", false, 0.2, true),
    ]);
    cycles(&mut control_loop, &mut clock, 10);
    let asker = handle.clone();
    let thread = std::thread::spawn(move || {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut answers = Vec::new();
        for _ in 0..10 {
            for (on, off) in [(["down"], ["up"]), (["up"], ["down"])] {
                let answer = asker.switch(
                    &names(&on),
                    &names(&off),
                    Strictness::Strict,
                    Duration::from_secs(5),
                );
                answers.push(answer.ok);
            }
        }
        answers
    });
    let mut allocated = 0;
    let mut cycled = 0;
    while !thread.is_finished() {
        clock.time += clock.period;
        allocated += allocations_in(|| control_loop.cycle(clock).unwrap());
        cycled += 1;
        std::thread::sleep(Duration::from_micros(100));
    }
    let answers = thread.join().unwrap();
    assert_eq!(answers, [true; 20], "every switch was carried out");
    assert_eq!(
        allocated, 0,
        "{cycled} cycles with 20 switches allocated {allocated} times"
    );
    assert_eq!(active(&handle), ["up", "right"]);
}

/// Refuses to start, or panics starting: an incoming controller that cannot take over.
struct Refuses {
    panics: bool,
}

impl Controller<LiteBiped> for Refuses {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        if self.panics {
            panic!("cannot take over");
        }
        Err(ControllerError::new("not calibrated"))
    }

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

fn refusing(name: &str, panics: bool) -> Managed<LiteBiped> {
    Managed {
        name: name.to_string(),
        kind: "test/Refuses".to_string(),
        // The right leg's feed-forward efforts: beside `right`, which claims no effort.
        claims: Claims::of_interface::<LiteBiped>(&RIGHT, InterfaceKind::Effort).unwrap(),
        reads: Vec::new(),
        active: false,
        controller: Box::new(Refuses { panics }),
    }
}

#[test]
fn an_incoming_controller_that_refuses_leaves_the_switch_undone_when_strict_and_skipped_at_best_effort()
 {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("left", true, 0.4, true),
        knee("right", false, 0.2, false),
        refusing("stubborn", false),
    ]);
    cycles(&mut control_loop, &mut clock, 5);
    // Strict: the right knee comes on, the stubborn one refuses, so the right knee goes off again.
    let (strict, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["right", "stubborn"],
        &[],
        Strictness::Strict,
    );
    assert!(!strict.ok, "{}", strict.message);
    assert!(
        strict
            .message
            .contains("'stubborn' refused to activate, it stays inactive: not calibrated"),
        "{}",
        strict.message
    );
    assert_eq!(active(&handle), ["left"], "`right` went off again");
    // Best effort: the right knee comes on, the stubborn one is left out and said so.
    let (best, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["stubborn"],
        &[],
        Strictness::BestEffort,
    );
    assert!(
        best.ok && best.message.contains("'stubborn' refused"),
        "{}",
        best.message
    );
    assert_eq!(active(&handle), ["left"]);
    // The hardware stayed on throughout, the left knee going on as before.
    cycles(&mut control_loop, &mut clock, 50);
    assert!(control_loop.system().any_active());
    assert!((control_loop.command().left_knee_pitch.position - 0.4).abs() < 1e-9);
}

#[test]
fn an_incoming_controller_that_panics_mid_run_ends_the_run_with_the_hardware_off() {
    let (mut control_loop, handle, mut clock) = running(vec![
        knee("left", true, 0.4, true),
        refusing("explodes", true),
    ]);
    cycles(&mut control_loop, &mut clock, 5);
    let asker = handle.clone();
    let thread = std::thread::spawn(move || {
        asker.switch(
            &["explodes".to_string()],
            &[],
            Strictness::Strict,
            Duration::from_millis(500),
        )
    });
    let mut fault = None;
    while fault.is_none() && !thread.is_finished() {
        clock.time += clock.period;
        fault = control_loop.cycle(clock).err();
        std::thread::sleep(Duration::from_micros(200));
    }
    let fault = fault.expect("the cycle that took the switch failed");
    assert!(fault.to_string().contains("cannot take over"), "{fault}");
    assert!(!control_loop.system().any_active(), "the hardware is off");
    let answer = thread.join().unwrap();
    assert!(!answer.ok, "{}", answer.message);
}
