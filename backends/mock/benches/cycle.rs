//! One control cycle's hardware work on the mock: `read` then `write` of a biped's 14 joints
//! (42 state and 70 command slots, as `lite_biped`'s) through `System<Biped>` with one active
//! [`MockSystem`]. Target: at most 0.25 µs. The robot is defined here, so the backend's bench
//! depends on no shipped robot.
//!
//! ```sh
//! cargo bench -p backend-mock --bench cycle -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! * `mock/read_write/biped14`: mirroring (the definition's parameters);
//! * `mock/read_write/biped14_dynamics`: with `calculate_dynamics` on.
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_mock::MockSystem;
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::Values;
use robot_core::hardware::{Clock, Component, System};
use robot_core::model::MockParams;
use robot_macros::robot;

robot! {
    /// Two legs of seven MIT joints, one bus each: `lite_biped`'s interfaces and slot counts.
    robot Biped { update_rate: 200 Hz }
    bus left_leg {}
    bus right_leg {}
    link pelvis {}
    limb leg: left | right {
        link l1 {} link l2 {} link l3 {} link l4 {} link l5 {} link l6 {} link l7 {}
        joint j1: revolute { parent: pelvis, child: l1, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 1 | 11, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j2: revolute { parent: l1, child: l2, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 2 | 12, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j3: revolute { parent: l2, child: l3, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 3 | 13, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j4: revolute { parent: l3, child: l4, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 4 | 14, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j5: revolute { parent: l4, child: l5, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 5 | 15, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j6: revolute { parent: l5, child: l6, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 6 | 16, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
        joint j7: revolute { parent: l6, child: l7, limits { lower: -1, upper: 1, velocity: 10, effort: 10 }, actuator { bus: left_leg | right_leg, can_id: 7 | 17, model: RS02 }, command: [position, velocity, effort, stiffness, damping], state: [position, velocity, effort] }
    }
}

const _: () = assert!(<BipedState as Values>::LEN == 42 && <BipedCommand as Values>::LEN == 70);

fn active(mock: MockSystem<Biped>) -> (System<Biped>, BipedState, BipedCommand, Clock) {
    let clock = Clock {
        time: Duration::ZERO,
        period: Duration::from_millis(5),
    };
    let mut system = System::new(vec![Box::new(mock) as Box<dyn Component<Biped>>])
        .expect("the mock takes the biped");
    let (mut state, mut command) = (BipedState::default(), BipedCommand::default());
    system.configure().expect("configure");
    system
        .activate(clock, &mut state, &mut command)
        .expect("activate");
    for (i, v) in command.as_mut_slice().iter_mut().enumerate() {
        *v = 0.01 * i as f64;
    }
    (system, state, command, clock)
}

fn bench_cycle(c: &mut Criterion) {
    let mut group = c.benchmark_group("mock/read_write");
    let dynamics = MockParams {
        calculate_dynamics: true,
        ..MockParams::DEFAULT
    };
    for (name, mock) in [
        ("biped14", MockSystem::<Biped>::new()),
        (
            "biped14_dynamics",
            MockSystem::<Biped>::with_params(dynamics),
        ),
    ] {
        let (mut system, mut state, command, clock) = active(mock);
        group.bench_function(name, |b| {
            b.iter(|| {
                system.read(clock, black_box(&mut state)).expect("read");
                system.write(clock, black_box(&command)).expect("write");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_cycle);
criterion_main!(benches);
