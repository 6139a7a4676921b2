//! lite_biped on the test stand under gravity: a PD hold, legs falling without gains, the IMU at
//! rest and in free fall, lock-step time.

mod common;
// Force/torque and contact sensors under gravity, on the stand and on the floor.
#[allow(clippy::unwrap_used)] // test code: a panic is the failure report
#[path = "physics/foot_sensors.rs"]
mod foot_sensors;

use backend_mujoco::{ModelSource, MujocoOptions};
use common::*;
use robot_core::InterfaceKind;
use robot_core::hardware::Component;

/// A bent-leg pose: knees at 0.8 rad, hip and ankle pitch at −0.4 (foot level), the rest at 0.
fn crouch(name: &str) -> f64 {
    if name.ends_with("knee_pitch") {
        0.8
    } else if name.ends_with("hip_pitch") || name.ends_with("ankle_pitch") {
        -0.4
    } else {
        0.0
    }
}

/// The squat controller's leg gains.
const GAINS: (f64, f64) = (40.0, 1.0);

/// Largest position error of each joint over the last second of a 3 s hold of `crouch`.
fn hold_errors() -> Vec<(&'static str, f64)> {
    let (mut system, mut state, mut command) = active(options(ModelSource::Stand));
    hold(&mut command, crouch, GAINS);
    let mut worst: Vec<(&'static str, f64)> = Vec::new();
    run(
        &mut system,
        &mut state,
        &command,
        1..cycles(3.0) + 1,
        |k, s| {
            if k < cycles(2.0) {
                return;
            }
            let errors = joint_states(s, InterfaceKind::Position)
                .into_iter()
                .map(|(name, q)| (name, (q - crouch(name)).abs()));
            if worst.is_empty() {
                worst = errors.collect();
            } else {
                for (w, (_, e)) in worst.iter_mut().zip(errors) {
                    w.1 = w.1.max(e);
                }
            }
        },
    );
    worst
}

/// Held at 40 N·m/rad and 1 N·m·s/rad, every joint settles within 0.06 rad of its target: what is
/// left is the gravity droop τ_g/stiffness, largest at the knees (measured 0.047 rad; hips
/// 0.026, every other joint under 0.005).
#[test]
fn a_pd_hold_keeps_every_joint_near_its_target_under_gravity() {
    let errors = hold_errors();
    assert_eq!(errors.len(), 14, "every joint");
    for (name, error) in &errors {
        assert!(*error < 0.06, "{name} is {error} rad off its target");
    }
    let knee = errors
        .iter()
        .find(|(n, _)| *n == "left_knee_pitch")
        .map(|e| e.1);
    assert!(
        knee > Some(0.01),
        "gravity pulls the bent knee down: {knee:?}"
    );
}

/// With the gains dropped to zero the bent legs swing away under gravity.
#[test]
fn with_zero_gains_the_legs_fall() {
    let (mut system, mut state, mut command) = active(options(ModelSource::Stand));
    hold(&mut command, crouch, GAINS);
    run(&mut system, &mut state, &command, 1..cycles(1.0), |_, _| {});
    let held = joint_states(&state, InterfaceKind::Position);
    hold(&mut command, crouch, (0.0, 0.0));
    run(
        &mut system,
        &mut state,
        &command,
        cycles(1.0)..cycles(1.5),
        |_, _| {},
    );
    let fallen = joint_states(&state, InterfaceKind::Position);
    let moved: Vec<f64> = held
        .iter()
        .zip(&fallen)
        .map(|(a, b)| (a.1 - b.1).abs())
        .collect();
    let most = moved.iter().copied().fold(0.0, f64::max);
    assert!(
        most > 0.3,
        "the legs moved at most {most} rad in 0.5 s: {fallen:?}"
    );
    for (name, effort) in joint_states(&state, InterfaceKind::Effort) {
        assert_eq!(effort, 0.0, "{name} applies torque with zero gains");
    }
}

/// At rest on the stand the accelerometer reads gravity as specific force (+9.81 m/s² up), the
/// orientation is a unit quaternion with `w` in the fourth slot, and the gyro is still.
#[test]
fn the_imu_at_rest_reads_gravity_and_a_unit_quaternion() {
    let (mut system, mut state, mut command) = active(options(ModelSource::Stand));
    hold(&mut command, crouch, GAINS);
    run(&mut system, &mut state, &command, 1..cycles(2.0), |_, _| {});
    let imu = state.base_imu;
    let a = imu.linear_acceleration;
    let norm = (a.x * a.x + a.y * a.y + a.z * a.z).sqrt();
    assert!((norm - 9.81).abs() < 0.01, "|a| = {norm}: {a:?}");
    assert!(
        a.z > 9.8,
        "gravity reads upwards in the sensor frame: {a:?}"
    );
    let q = imu.orientation;
    let length = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).sqrt();
    assert!((length - 1.0).abs() < 1e-9, "|q| = {length}");
    assert!(
        q.w > 0.999,
        "an upright base is near the identity, w last: {q:?}"
    );
    let w = imu.angular_velocity;
    assert!(w.x.abs().max(w.y.abs()).max(w.z.abs()) < 0.01, "{w:?}");
}

/// In the bare emitted model (no floor, nothing holding the base), loaded as a user's file, the
/// whole robot falls and the accelerometer reads zero specific force.
#[test]
fn in_free_fall_the_accelerometer_reads_zero() {
    let (_dir, bare) = bare_model();
    let (mut system, mut state, command) = inactive(options(bare));
    run(
        &mut system,
        &mut state,
        &command,
        1..cycles(0.5) + 1,
        |_, _| {},
    );
    let a = state.base_imu.linear_acceleration;
    assert!(a.x.abs().max(a.y.abs()).max(a.z.abs()) < 1e-6, "{a:?}");
}

/// Lock-step: each cycle's read runs exactly `substeps` physics steps, and reading twice at one
/// clock steps nothing more.
#[test]
fn every_cycle_runs_period_over_timestep_physics_steps() {
    for substeps in [1, 5, 10] {
        let options = MujocoOptions {
            substeps,
            ..options(ModelSource::Stand)
        };
        let mut component = backend_mujoco::MujocoSystem::<robots::LiteBiped>::new(options);
        assert!((component.timestep() * f64::from(substeps) - 0.005).abs() < 1e-15);
        component.on_init().unwrap();
        component.on_configure().unwrap();
        let mut state = robots::LiteBipedState::default();
        for k in 0..=40 {
            component.read(clock(k), &mut state).unwrap();
            component.read(clock(k), &mut state).unwrap();
            let time = component.data().map(|d| d.time()).unwrap();
            assert!(
                (time - 0.005 * k as f64).abs() < 1e-9,
                "{substeps} substeps, cycle {k}: {time}"
            );
        }
        assert_eq!(component.simulated_time().as_millis(), 200);
    }
}
