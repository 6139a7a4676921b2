//! How long the emitters, the validator and the four-bar range check take on the shipped robots.
//!
//! ```sh
//! cargo bench -p robots --bench emit                                             # full run
//! cargo bench -p robots --bench emit -- --warm-up-time 1 --measurement-time 3    # quicker
//! ```
//!
//! * `emit/all/<robot>`: every artefact of a robot, [`robot_core::emit::all`];
//! * `emit/<artefact>`: one artefact of `lite_biped` (`urdf_xacro`, `urdf/<backend>`,
//!   `controllers_yaml`, `mjcf`, `scene`, `stand_scene`, `robot_json`);
//! * `validate/lite_biped`: [`robot_core::validate::validate`], every rule;
//! * `fourbar/check_range`: the left ankle four-bar checked over its joint range.
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::emit::{self, EmitError};
use robot_core::{Backend, Robot};
use robots::{LiteBiped, SixAxisArm};

/// One per-file emitter of [`robot_core::emit`].
type Emitter = fn(&Robot) -> Result<String, EmitError>;

fn bench_emit(c: &mut Criterion) {
    let biped = LiteBiped::DESCRIPTION;
    let mut group = c.benchmark_group("emit");
    group.bench_function("all/lite_biped", |b| b.iter(|| emit::all(black_box(biped))));
    group.bench_function("all/six_axis_arm", |b| {
        b.iter(|| emit::all(black_box(SixAxisArm::DESCRIPTION)))
    });
    let artefacts: [(&str, Emitter); 9] = [
        ("urdf_xacro", emit::urdf_xacro),
        ("urdf/real", |r| emit::urdf(r, Backend::Real)),
        ("urdf/mujoco", |r| emit::urdf(r, Backend::Mujoco)),
        ("urdf/mock", |r| emit::urdf(r, Backend::Mock)),
        ("controllers_yaml", emit::controllers_yaml),
        ("mjcf", emit::mjcf),
        ("scene", emit::scene),
        ("stand_scene", |r| {
            emit::stand_scene(r).map(Option::unwrap_or_default)
        }),
        ("robot_json", emit::robot_json),
    ];
    for (name, emitter) in artefacts {
        group.bench_function(name, |b| b.iter(|| emitter(black_box(biped))));
    }
    group.finish();
}

fn bench_validate(c: &mut Criterion) {
    c.bench_function("validate/lite_biped", |b| {
        b.iter(|| robot_core::validate::validate(black_box(LiteBiped::DESCRIPTION)))
    });
}

fn bench_fourbar(c: &mut Criterion) {
    let ankle = LiteBiped::DESCRIPTION
        .joint("left_ankle_pitch")
        .expect("lite_biped has a left ankle pitch");
    let four_bar = ankle
        .actuator
        .as_ref()
        .and_then(|a| a.four_bar)
        .expect("the ankle pitch is driven through a four-bar");
    let limits = ankle.limits.expect("the ankle pitch has limits");
    let (lower, upper) = (
        limits.lower.expect("a revolute joint has a lower limit"),
        limits.upper.expect("a revolute joint has an upper limit"),
    );
    c.bench_function("fourbar/check_range", |b| {
        b.iter(|| black_box(&four_bar).check_range(black_box(lower), black_box(upper)))
    });
}

criterion_group!(benches, bench_emit, bench_validate, bench_fourbar);
criterion_main!(benches);
