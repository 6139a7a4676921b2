//! How long the inverse dynamics take on the shipped robots (`robot_core::dynamics`, recursive
//! Newton–Euler), and the gravity feed-forward a trajectory controller adds to each cycle.
//!
//! ```sh
//! cargo bench -p robots --bench dynamics
//! ```
//!
//! * `dynamics/gravity/<robot>`: [`Dynamics::gravity`], every joint's gravity torque;
//! * `dynamics/joint_forces/<robot>`: [`Dynamics::joint_forces`], with velocities and
//!   accelerations (Coriolis, centrifugal and inertial terms);
//! * `dynamics/feed/six_axis_arm`: [`GravityFeedforward::feed`] over the typed state and
//!   command, as a controller calls it each cycle.
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::Robot;
use robot_core::dynamics::Dynamics;
use robot_core::gravity::GravityFeedforward;
use robot_core::kinematics::initial_positions;
use robots::{LiteBiped, SixAxisArm, SixAxisArmCommand, SixAxisArmState};

fn bench_dynamics(c: &mut Criterion) {
    let mut group = c.benchmark_group("dynamics");
    let robots: [(&str, &Robot); 2] = [
        ("six_axis_arm", SixAxisArm::DESCRIPTION),
        ("lite_biped", LiteBiped::DESCRIPTION),
    ];
    for (name, robot) in robots {
        let mut dynamics = Dynamics::new(robot).expect("one tree");
        let joints = robot.joints.len();
        let q: Vec<f64> = (initial_positions(robot).iter().enumerate())
            .map(|(i, q)| q + 0.1 * i as f64)
            .collect();
        let qd = vec![0.5; joints];
        let qdd = vec![-1.0; joints];
        let mut tau = vec![0.0; joints];
        group.bench_function(format!("gravity/{name}"), |b| {
            b.iter(|| dynamics.gravity(black_box(&q), &mut tau).expect("sizes"))
        });
        group.bench_function(format!("joint_forces/{name}"), |b| {
            b.iter(|| (dynamics.joint_forces(black_box(&q), &qd, &qdd, &mut tau)).expect("sizes"))
        });
    }
    let mut feed = GravityFeedforward::of::<SixAxisArm>().expect("one tree");
    let state = SixAxisArmState::default();
    let mut command = SixAxisArmCommand::default();
    command.elbow.position = 0.8;
    group.bench_function("feed/six_axis_arm", |b| {
        b.iter(|| feed.feed::<SixAxisArm>(black_box(&state), &mut command))
    });
    group.finish();
}

criterion_group!(benches, bench_dynamics);
criterion_main!(benches);
