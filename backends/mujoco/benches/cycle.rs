//! lite_biped on MuJoCo (test stand, 200 Hz, five 1 ms physics steps a cycle), side by side:
//! * one loop cycle: read (the five steps, the MIT law before each) + the squat's update + write;
//! * the same five bare `mj_step` calls on the same compiled model: what the physics alone costs;
//! * a 10 s squat on simulated time as fast as it runs, for the real-time factor.
//!
//! Target: cycle / bare ≤ 1.05.
#![allow(clippy::expect_used)] // bench set-up: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_mujoco::{DEFAULT_SUBSTEPS, ModelSource, MujocoOptions, MujocoSystem};
use criterion::{Criterion, criterion_group, criterion_main};
use mujoco_rs::prelude::MjData;
use robot_core::control_loop::{ControlLoop, LoopControl, LoopOptions, Pacing, StopAfter};
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

fn options() -> MujocoOptions {
    MujocoOptions {
        model: ModelSource::Stand,
        ..MujocoOptions::default()
    }
}

fn squat_loop() -> ControlLoop<LiteBiped, Squat> {
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(options()));
    let system = System::new(vec![component]).expect("system");
    ControlLoop::new(system, Squat::default(), None)
}

fn cycle_versus_bare_steps(c: &mut Criterion) {
    let mut control_loop = squat_loop();
    let period = control_loop.period();
    let mut clock = Clock {
        time: Duration::ZERO,
        period,
    };
    control_loop.configure().expect("configure");
    control_loop.activate(clock).expect("activate");
    // Into the squat, so both sides step a robot in motion.
    for _ in 0..400 {
        clock.time += period;
        control_loop.cycle(clock).expect("cycle");
    }
    // The very model the component compiled (welded base, 1 ms timestep, the joints' friction
    // and the weld as constraints on both sides), left to settle under zero torque: no joint at
    // a limit, as in the squat.
    let mut mujoco = MujocoSystem::<LiteBiped>::new(options());
    mujoco.on_configure().expect("configure");
    let model = mujoco.data().expect("configured").model().clone();
    let mut bare = MjData::new(Box::new(model));
    for _ in 0..2000 {
        bare.step();
    }

    let mut group = c.benchmark_group("mujoco/lite_biped");
    group.bench_function(
        "loop cycle: read (5 steps + MIT law) + squat + write",
        |b| {
            b.iter(|| {
                clock.time += period;
                control_loop.cycle(black_box(clock)).expect("cycle");
            })
        },
    );
    group.bench_function("bare mj_step x5", |b| {
        b.iter(|| {
            for _ in 0..DEFAULT_SUBSTEPS {
                bare.step();
            }
            black_box(bare.qpos()[0]);
        })
    });
    group.finish();
}

fn squat_real_time_factor(c: &mut Criterion) {
    let options = LoopOptions {
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs(10)),
        },
        pacing: Pacing::SimulatedFast,
        ..LoopOptions::default()
    };
    let mut group = c.benchmark_group("mujoco/lite_biped");
    group.sample_size(10);
    let mut factors = Vec::new();
    group.bench_function("squat 10 s simulated, as fast as it steps", |b| {
        b.iter(|| {
            let mut control_loop = squat_loop();
            let report = control_loop
                .run(&options, &LoopControl::default())
                .expect("run");
            factors.extend(report.timing.real_time_factor());
        })
    });
    group.finish();
    factors.sort_by(f64::total_cmp);
    if let Some(median) = factors.get(factors.len() / 2) {
        println!(
            "squat 10 s: real-time factor {median:.1} (median of {} runs)",
            factors.len()
        );
    }
}

criterion_group!(benches, cycle_versus_bare_steps, squat_real_time_factor);
criterion_main!(benches);
