//! One full control-loop cycle of lite_biped on the mock backend: read, the squat controller's
//! update, write. Target: ≤ 1 µs of CPU per cycle. And the same cycle with the squat under the
//! controller manager beside nine idle controllers (a lite_biped bringup's count), switches
//! checked each cycle: what the manager adds to a cycle.
#![allow(clippy::expect_used)] // bench set-up: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_mock::MockSystem;
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::control_loop::{ControlLoop, Controller, ControllerError};
use robot_core::controller_manager::{Claims, Managed, controller_manager};
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

/// A controller that writes nothing, standing for one whose claims are elsewhere.
struct Idle;

impl Controller<LiteBiped> for Idle {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

fn managed_cycle(c: &mut Criterion) {
    let mut controllers = vec![Managed {
        name: "squat".into(),
        kind: "robots/Squat".into(),
        claims: Claims::all::<LiteBiped>(),
        reads: Vec::new(),
        active: true,
        controller: Box::new(Squat::default()),
    }];
    // Nine more, active, claiming nothing (as broadcasters do), so each is updated every cycle.
    for i in 0..9 {
        controllers.push(Managed {
            name: format!("idle_{i}"),
            kind: "bench/Idle".into(),
            claims: Claims::default(),
            reads: Vec::new(),
            active: true,
            controller: Box::new(Idle),
        });
    }
    let (manager, _handle) = controller_manager(controllers).expect("loaded");
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let system = System::new(components).expect("system");
    let mut control_loop = ControlLoop::new(system, manager, None);
    let period = control_loop.period();
    let mut clock = Clock {
        time: Duration::ZERO,
        period,
    };
    control_loop.configure().expect("configure");
    control_loop.activate(clock).expect("activate");
    c.bench_function("loop/cycle/lite_biped/mock+manager(squat+9)", |b| {
        b.iter(|| {
            clock.time += period;
            control_loop.cycle(black_box(clock)).expect("cycle");
        })
    });
}

criterion_group!(benches, cycle, managed_cycle);
criterion_main!(benches);
