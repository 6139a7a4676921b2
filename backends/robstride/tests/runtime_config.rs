//! What the runtime configuration changes in a bus component: a disabled joint is never sent a
//! frame (configure, activate, cycles, deactivate), and the configuration's zero offset replaces
//! the definition's between joint and motor space.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_robstride::component::RobstrideBus;
use common::pair::{Pair, PairCommand, PairState};
use common::{CLOCK, rig, rs02};
use robot_core::config;
use robot_core::hardware::Component;
use robot_macros::robot;
use robstride_protocol::{Command, Request, RobstrideModel};
use robstride_sim::SimBus;

/// Both motors at motor angle 1.2 rad on a simulated bus, and the component configured by
/// `yaml`.
fn component(yaml: &str) -> (SimBus, RobstrideBus<Pair>) {
    let config = config::parse(yaml, "test.yaml", Pair::DESCRIPTION).unwrap();
    let (sim, _, bus) = rig::<Pair>("arm", Some(&config), [rs02(1, 1.2), rs02(2, 1.2)]);
    (sim, bus)
}

fn motor_of(frame: &robstride_protocol::Frame) -> u8 {
    (frame.extended_id().unwrap() & 0xFF) as u8
}

#[test]
fn a_disabled_joint_is_never_sent_a_frame() {
    let (sim, mut bus) = component(
        "robot: pair\nbackend: real\nbuses: { arm: can0 }\njoints:\n  elbow: { enabled: false }\n",
    );
    let (mut state, mut command) = (PairState::default(), PairCommand::default());
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    bus.on_activate(&state, &mut command).unwrap();
    for _ in 0..10 {
        command.shoulder.position = 0.7;
        command.elbow.position = 0.3;
        bus.write(CLOCK, &command).unwrap();
        sim.advance(CLOCK.period);
        bus.read(CLOCK, &mut state).unwrap();
    }
    bus.on_deactivate().unwrap();
    let sent = sim.take_sent();
    assert!(sent.len() >= 12, "the shoulder was driven: {sent:?}");
    assert!(sent.iter().all(|f| motor_of(f) == 1), "{sent:?}");
    assert!(
        state.elbow.position.is_finite(),
        "a disabled joint reads a number"
    );
}

#[test]
fn the_configured_zero_offset_replaces_the_definitions() {
    // The definition says 0.5 rad for the shoulder; the configuration says 0.2.
    let (sim, mut bus) = component(
        "robot: pair\nbackend: real\nbuses: { arm: can0 }\njoints:\n  shoulder: { zero_offset: 0.2 }\n",
    );
    let (mut state, mut command) = (PairState::default(), PairCommand::default());
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    bus.read(CLOCK, &mut state).unwrap();
    // The joint reads the motor angle less the offset: 1.2 − 0.2 (the elbow, no offset: 1.2).
    assert!((state.shoulder.position - 1.0).abs() < 1e-3, "{state:?}");
    assert!((state.elbow.position - 1.2).abs() < 1e-3, "{state:?}");
    bus.on_activate(&state, &mut command).unwrap();
    sim.take_sent();
    command.shoulder.position = 0.0;
    command.elbow.position = 0.0;
    bus.write(CLOCK, &command).unwrap();
    let sent = sim.take_sent();
    let to_shoulder = sent.iter().find(|f| motor_of(f) == 1).unwrap();
    let Command::Mit(mit) = Request::decode(to_shoulder, RobstrideModel::RS02)
        .unwrap()
        .command
    else {
        panic!("{to_shoulder:?}")
    };
    // Joint 0 is motor angle 0.2.
    assert!((mit.mit().position - 0.2).abs() < 1e-3, "{mit:?}");
}

mod linear {
    use super::*;
    use common::last_mit;

    robot! {
        robot Slide { update_rate: 200 Hz }
        bus rail {}
        link base {}
        link carriage {}
        /// A belt carriage: 100 mm of travel per motor revolution.
        joint slide: prismatic {
            parent: base,
            child: carriage,
            axis: [1, 0, 0],
            limits { lower: -0.15, upper: 0.15, velocity: 0.5, effort: 50 },
            actuator { bus: rail, can_id: 3, model: RS02, lead: 100 mm },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }

    #[test]
    fn a_prismatic_joint_is_driven_through_its_lead() {
        let turn = std::f64::consts::TAU;
        // The carriage at 50 mm: the motor half a turn from its zero.
        let (sim, _, mut bus) = rig::<Slide>("rail", None, [rs02(3, turn / 2.0)]);
        let (mut state, mut command) = (SlideState::default(), SlideCommand::default());
        bus.on_init().unwrap();
        bus.on_configure().unwrap();
        bus.read(CLOCK, &mut state).unwrap();
        assert!((state.slide.position - 0.05).abs() < 1e-4, "{state:?}");
        bus.on_activate(&state, &mut command).unwrap();
        // 20 N of feed-forward force is 20 · 0.1/2π N·m at the motor; 0.1 m/s is 2π rad/s.
        command.slide.position = -0.1;
        command.slide.velocity = 0.1;
        command.slide.effort = 20.0;
        command.slide.stiffness = 2000.0;
        command.slide.damping = 50.0;
        bus.write(CLOCK, &command).unwrap();
        let mit = last_mit(&sim);
        let r = 0.1 / turn;
        let near = |sent: f64, want: f64| (sent - want).abs() < 0.01 * want.abs().max(0.1);
        assert!(near(mit.position, -0.1 / r), "{mit:?}");
        assert!(near(mit.velocity, 0.1 / r), "{mit:?}");
        assert!(near(mit.effort, 20.0 * r), "{mit:?}");
        assert!(near(mit.stiffness, 2000.0 * r * r), "{mit:?}");
        assert!(near(mit.damping, 50.0 * r * r), "{mit:?}");
    }
}
