//! One full control-loop cycle of lite_biped on the mock backend: read, the squat controller's
//! update, write. Target: ≤ 1 µs of CPU per cycle.
#![allow(clippy::expect_used)] // bench set-up: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_mock::MockSystem;
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::control_loop::{ControlLoop, Controller};
use robot_core::hardware::{Clock, Component, System};
use robots::controllers::Squat;
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

fn active_loop() -> (ControlLoop<LiteBiped, Squat>, Clock) {
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let system = System::new(components).expect("system");
    let mut control_loop = ControlLoop::new(system, Squat::default(), None);
    let clock = Clock {
        time: Duration::ZERO,
        period: control_loop.period(),
    };
    control_loop.configure().expect("configure");
    control_loop.activate(clock).expect("activate");
    (control_loop, clock)
}

fn cycle(c: &mut Criterion) {
    let (mut control_loop, mut clock) = active_loop();
    let period = clock.period;
    c.bench_function("loop/cycle/lite_biped/mock+squat", |b| {
        b.iter(|| {
            clock.time += period;
            control_loop.cycle(black_box(clock)).expect("cycle");
        })
    });
    let mut squat = Squat::default();
    let state = LiteBipedState::default();
    let mut command = LiteBipedCommand::default();
    squat
        .on_activate(Clock::default(), &state, &mut command)
        .expect("the squat starts from any pose");
    let mut t = Clock {
        time: Duration::ZERO,
        period,
    };
    c.bench_function("controller/squat/update", |b| {
        b.iter(|| {
            t.time += period;
            squat
                .update(black_box(t), black_box(&state), &mut command)
                .expect("the squat never refuses");
        })
    });
}

criterion_group!(benches, cycle);
criterion_main!(benches);
