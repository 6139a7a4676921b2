//! A command beyond the joint's limits or the model's ranges is clamped before it is encoded,
//! and every clamp is counted in the component's counters, which the loop's report and
//! `robot run`'s statistics show.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_robstride::component::RobstrideBus;
use common::{CLOCK, last_mit, rig, rs02};
use robot_core::hardware::{Component, Counter};
use robot_macros::robot;

robot! {
    robot Tilt { update_rate: 200 Hz }
    bus base {}
    link base {}
    link head {}
    joint tilt: revolute {
        parent: base,
        child: head,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: base, can_id: 9, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
}

fn clamped(bus: &RobstrideBus<Tilt>) -> u64 {
    let counters = bus.counters();
    let counter = counters.iter().find(|c| c.name == "commands clamped");
    counter.map(|c: &Counter| c.value).expect("a clamp counter")
}

#[test]
fn every_field_out_of_range_is_clamped_and_counted() {
    let (sim, _, mut bus) = rig::<Tilt>("base", None, [rs02(9, 0.0)]);
    let (mut state, mut command) = (TiltState::default(), TiltCommand::default());
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    bus.on_activate(&state, &mut command).unwrap();
    assert_eq!(clamped(&bus), 0);

    // Within range: nothing is clamped.
    command.tilt.position = 0.5;
    command.tilt.velocity = 1.0;
    command.tilt.effort = 2.0;
    command.tilt.stiffness = 40.0;
    command.tilt.damping = 1.0;
    bus.write(CLOCK, &command).unwrap();
    bus.read(CLOCK, &mut state).unwrap();
    assert_eq!(clamped(&bus), 0);

    // Position, velocity and torque past the joint's limits; Kp and Kd past RS02's 500 and 5.
    command.tilt.position = 3.0;
    command.tilt.velocity = 50.0;
    command.tilt.effort = -40.0;
    command.tilt.stiffness = 1000.0;
    command.tilt.damping = 10.0;
    bus.write(CLOCK, &command).unwrap();
    let mit = last_mit(&sim);
    let near = |sent: f64, want: f64| (sent - want).abs() < 0.01 * want.abs().max(1.0);
    assert!(near(mit.position, 1.0), "{}", mit.position);
    assert!(near(mit.velocity, 5.0), "{}", mit.velocity);
    assert!(near(mit.effort, -10.0), "{}", mit.effort);
    assert!(near(mit.stiffness, 500.0), "{}", mit.stiffness);
    assert!(near(mit.damping, 5.0), "{}", mit.damping);
    assert_eq!(clamped(&bus), 5);

    // Counted per field per cycle: the same command again is five more.
    bus.read(CLOCK, &mut state).unwrap();
    bus.write(CLOCK, &command).unwrap();
    assert_eq!(clamped(&bus), 10);
    let missed = bus.counters();
    assert!(
        missed
            .iter()
            .any(|c| c.name == "replies missed" && c.value == 0),
        "{missed:?}"
    );
}
