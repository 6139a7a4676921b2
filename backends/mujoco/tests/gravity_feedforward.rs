//! Gravity fed forward (`robot_runtime::gravity`) on MuJoCo: six_axis_arm's elbow and shoulder
//! follow a slow move and hold under the stand-in servo the backends give a position-commanded
//! joint, once with the servo alone and once with the gravity torque through `effort`. Without
//! it the links sag by τ_gravity / stiffness; with it the lag held shrinks by far more than an
//! order of magnitude, and while moving by nearly one (what is left is the joints' damping and
//! friction and the links' inertia, which are not gravity's).
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::f64::consts::PI;
use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_core::gravity::GravityFeedforward;
use robot_core::hardware::{Clock, Component, System};
use robots::{SixAxisArm, SixAxisArmCommand, SixAxisArmState};

/// six_axis_arm's loop period (250 Hz).
const PERIOD: Duration = Duration::from_millis(4);

fn clock(k: u64) -> Clock {
    Clock {
        time: PERIOD * u32::try_from(k).unwrap(),
        period: PERIOD,
    }
}

/// Where the move wants (shoulder pitch, elbow) at `t` s, and how fast: the shoulder leaning
/// 0.6 rad forward and the elbow folding from 0 to 1.2 rad on a cosine over 2 s, then held.
fn desired(t: f64) -> ((f64, f64), (f64, f64)) {
    let ramp = |end: f64| {
        if t >= 2.0 {
            (end, 0.0)
        } else {
            let s = 0.5 - 0.5 * (PI * t / 2.0).cos();
            (end * s, end * 0.5 * (PI / 2.0) * (PI * t / 2.0).sin())
        }
    };
    (ramp(0.6), ramp(1.2))
}

/// The largest error of (shoulder pitch, elbow) over a 3 s run: while moving (0–2 s) and
/// held (the last half second).
#[derive(Debug, Default, Clone, Copy)]
struct Lag {
    moving: (f64, f64),
    held: (f64, f64),
}

fn follow(feed_gravity: bool) -> Lag {
    let component: Box<dyn Component<SixAxisArm>> =
        Box::new(MujocoSystem::<SixAxisArm>::new(MujocoOptions {
            model: ModelSource::Scene,
            ..MujocoOptions::default()
        }));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    let mut state = SixAxisArmState::default();
    let mut command = SixAxisArmCommand::default();
    system.read(clock(0), &mut state).unwrap();
    system.activate(clock(0), &mut state, &mut command).unwrap();
    let mut gravity = GravityFeedforward::of::<SixAxisArm>().unwrap();
    let mut lag = Lag::default();
    let cycles = (3.0 / PERIOD.as_secs_f64()) as u64;
    for k in 1..=cycles {
        let t = k as f64 * PERIOD.as_secs_f64();
        system.read(clock(k), &mut state).unwrap();
        let errors = (
            (state.shoulder_pitch.position - desired(t - PERIOD.as_secs_f64()).0.0).abs(),
            (state.elbow.position - desired(t - PERIOD.as_secs_f64()).1.0).abs(),
        );
        let worst = if t <= 2.0 {
            &mut lag.moving
        } else if t >= 2.5 {
            &mut lag.held
        } else {
            &mut Lag::default().held
        };
        worst.0 = worst.0.max(errors.0);
        worst.1 = worst.1.max(errors.1);
        let ((shoulder, shoulder_speed), (elbow, elbow_speed)) = desired(t);
        command.shoulder_pitch.position = shoulder;
        command.shoulder_pitch.velocity = shoulder_speed;
        command.elbow.position = elbow;
        command.elbow.velocity = elbow_speed;
        for joint in [
            &mut command.shoulder_yaw,
            &mut command.wrist_pitch,
            &mut command.wrist_yaw,
            &mut command.wrist_roll,
        ] {
            joint.position = 0.0;
            joint.velocity = 0.0;
        }
        command.gripper.position = 0.0;
        if feed_gravity {
            gravity.feed::<SixAxisArm>(&state, &mut command);
        }
        system.write(clock(k), &command).unwrap();
    }
    system.deactivate().unwrap();
    lag
}

#[test]
fn gravity_fed_forward_takes_the_sag_out_of_the_arms_servo() {
    let servo_alone = follow(false);
    let fed = follow(true);
    println!("servo alone: {servo_alone:?}\ngravity fed forward: {fed:?}");
    // The sag is real: the elbow's servo (10 × 17 N·m per rad) under the forearm and wrist.
    assert!(servo_alone.held.1 > 0.01, "{servo_alone:?}");
    // Held, gravity is all there is to explain (measured: 0.0245 → 0.00003 rad at the elbow).
    for (alone, with, what) in [
        (servo_alone.held.0, fed.held.0, "the shoulder held"),
        (servo_alone.held.1, fed.held.1, "the elbow held"),
    ] {
        assert!(
            with * 10.0 <= alone,
            "{what}: {with:.5} rad fed, {alone:.5} rad alone: not a tenth"
        );
    }
    // Moving, what is left is what gravity does not explain: the joints' damping and friction
    // and the links' inertia, about 0.3 N·m at the elbow mid-move, 0.002 rad of its servo
    // (measured: 0.0265 → 0.0030 rad at the elbow, 0.0150 → 0.0017 at the shoulder).
    for (alone, with, what) in [
        (
            servo_alone.moving.0,
            fed.moving.0,
            "the shoulder while moving",
        ),
        (servo_alone.moving.1, fed.moving.1, "the elbow while moving"),
    ] {
        assert!(
            with * 5.0 <= alone && with < 0.004,
            "{what}: {with:.5} rad fed, {alone:.5} rad alone"
        );
    }
}
