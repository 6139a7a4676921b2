//! One control cycle's hardware work on the mock: `read` then `write` of `lite_biped`'s 14 joints
//! (42 state and 70 command slots) through `System<LiteBiped>` with one active [`MockSystem`].
//! Target: at most 0.25 µs.
//!
//! ```sh
//! cargo bench -p backend-mock --bench cycle -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! * `mock/read_write/lite_biped`: mirroring (the definition's parameters);
//! * `mock/read_write/lite_biped_dynamics`: with `calculate_dynamics` on.
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;
use std::time::Duration;

use backend_mock::MockSystem;
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::Values;
use robot_core::hardware::{Clock, Component, System};
use robot_core::model::MockParams;
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

fn active(
    mock: MockSystem<LiteBiped>,
) -> (System<LiteBiped>, LiteBipedState, LiteBipedCommand, Clock) {
    let clock = Clock {
        time: Duration::ZERO,
        period: Duration::from_millis(5),
    };
    let mut system = System::new(vec![Box::new(mock) as Box<dyn Component<LiteBiped>>])
        .expect("the mock takes lite_biped");
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
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
        ("lite_biped", MockSystem::<LiteBiped>::new()),
        (
            "lite_biped_dynamics",
            MockSystem::<LiteBiped>::with_params(dynamics),
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
