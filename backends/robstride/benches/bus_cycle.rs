//! One write + read cycle of a 7-motor bus (lite_biped's left leg) on the in-process bus: seven
//! operation-control frames encoded through the guard and the transmission (the ankle's four-bar
//! included), sent, answered by seven simulated actuators (their protocol decoding and motor
//! model run inside `send`), and the seven feedback frames decoded into the state. Target: at
//! most 5 µs.
//!
//! ```sh
//! cargo bench -p backend-robstride --bench bus_cycle -- --warm-up-time 1 --measurement-time 3
//! ```
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::hardware::{Clock, Component};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;

fn bench(c: &mut Criterion) {
    let robot = LiteBiped::DESCRIPTION;
    let sim = SimBus::new("left_leg");
    attach_actuators(robot, "left_leg", None, &sim);
    let host = sim.clone();
    let mut bus =
        RobstrideBus::<LiteBiped>::new("left_leg", None, BusOptions::default(), move || {
            Ok(Box::new(host.host()) as Box<dyn Transport>)
        });
    let clock = Clock {
        time: Duration::ZERO,
        period: Duration::from_millis(5),
    };
    let mut state = LiteBipedState::default();
    let mut command = LiteBipedCommand::default();
    bus.on_init().expect("init");
    bus.on_configure().expect("configure");
    bus.read(clock, &mut state).expect("read");
    bus.on_activate(&state, &mut command).expect("activate");
    for (_, joint) in command.joints_mut::<robots::lite_biped::lite_biped::PositionVelocityEffortStiffnessDampingCommand>() {
        (joint.position, joint.velocity, joint.effort, joint.stiffness, joint.damping) =
            (0.1, 0.0, 0.0, 20.0, 0.5);
    }
    c.bench_function("robstride/write_read/7_motors_sim", |b| {
        b.iter(|| {
            bus.write(clock, black_box(&command)).expect("write");
            bus.read(clock, black_box(&mut state)).expect("read");
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
