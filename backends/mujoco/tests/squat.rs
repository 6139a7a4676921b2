//! The core's squat controller, unchanged, on lite_biped in MuJoCo (on the test stand): it
//! tracks its trajectory.

mod common;

use backend_mujoco::{ModelSource, MujocoSystem};
use common::*;
use robot_core::InterfaceKind;
use robot_core::control_loop::{ControlLoop, Controller};
use robot_core::hardware::{Component, System, seed_safe_commands};
use robots::controllers::Squat;
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// Over two squats after the ramp, every pitch joint stays within 0.08 rad of the position the
/// controller commanded one cycle earlier, and every joint held at zero within 0.01 rad.
/// Measured: largest 0.051 rad (a knee at the bottom: gravity droop at 40 N·m/rad plus the
/// one-cycle lag), RMS 0.021 rad over the pitch joints, held joints at most 0.003 rad.
#[test]
fn the_squat_tracks_its_trajectory() {
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(options(ModelSource::Stand)));
    let system = System::new(vec![component]).unwrap();
    let squat = Squat::default();
    let (ramp, period) = (squat.ramp, squat.period);
    let mut control_loop = ControlLoop::new(system, squat, None);
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    let mut previous = commanded_positions(control_loop.command());
    let (mut worst, mut worst_held, mut squares, mut samples) = (0.0f64, 0.0f64, 0.0, 0usize);
    for k in 1..=cycles(ramp + 2.0 * period) {
        control_loop.cycle(clock(k)).unwrap();
        let measured = joint_states(control_loop.state(), InterfaceKind::Position);
        if clock(k).time.as_secs_f64() > ramp {
            for ((name, q), (_, target)) in measured.iter().zip(&previous) {
                let error = (q - target).abs();
                if name.ends_with("_pitch") {
                    worst = worst.max(error);
                    squares += error * error;
                    samples += 1;
                } else {
                    worst_held = worst_held.max(error);
                }
            }
        }
        previous = commanded_positions(control_loop.command());
    }
    let rms = (squares / samples as f64).sqrt();
    println!(
        "squat tracking: max {worst:.4} rad, rms {rms:.4} rad (pitch joints); held joints max {worst_held:.4} rad"
    );
    assert!(worst < 0.08, "pitch joints off by up to {worst} rad");
    assert!(rms < 0.04, "pitch RMS {rms} rad");
    assert!(
        worst_held < 0.01,
        "held joints off by up to {worst_held} rad"
    );
    assert!(
        worst > 0.001,
        "a simulation under gravity is never exact: {worst}"
    );
}

/// The bench's hook: mid-squat, a snapshot restored and the same cycles run again (the squat
/// rewound with the clock) end bit for bit where they did the first time; a snapshot does not
/// fit a component of another model.
#[test]
fn a_restored_snapshot_runs_the_same_cycles_again() {
    let mut mujoco = MujocoSystem::<LiteBiped>::new(options(ModelSource::Stand));
    assert!(
        mujoco.snapshot().is_none(),
        "nothing to save before on_configure"
    );
    mujoco.on_init().unwrap();
    mujoco.on_configure().unwrap();
    let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
    mujoco.read(clock(0), &mut state).unwrap();
    seed_safe_commands::<LiteBiped>(&state, &mut command);
    mujoco.on_activate(&state, &mut command).unwrap();
    let mut squat = Squat::default();
    squat.on_activate(clock(0), &state, &mut command).unwrap();
    let mut run = |mujoco: &mut MujocoSystem<LiteBiped>, from: u64, to: u64| {
        for k in from..to {
            mujoco.read(clock(k), &mut state).unwrap();
            squat.update(clock(k), &state, &mut command).unwrap();
            mujoco.write(clock(k), &command).unwrap();
        }
        mujoco.data().unwrap().qpos().to_vec()
    };
    let mid = cycles(1.5);
    run(&mut mujoco, 1, mid);
    let snapshot = mujoco.snapshot().unwrap();
    assert_eq!(snapshot.steps(), (mid - 1) * 5);
    let first = run(&mut mujoco, mid, mid + 100);
    mujoco.restore(&snapshot).unwrap();
    assert_eq!(mujoco.snapshot().unwrap(), snapshot);
    let again = run(&mut mujoco, mid, mid + 100);
    assert_eq!(again, first);
    assert_ne!(
        again,
        snapshot.mujoco_state()[1..1 + again.len()].to_vec(),
        "it moved"
    );

    let mut floor = MujocoSystem::<LiteBiped>::new(options(ModelSource::Scene));
    floor.on_init().unwrap();
    assert!(floor.restore(&snapshot).is_err(), "not configured");
    floor.on_configure().unwrap();
    let error = floor.restore(&snapshot).unwrap_err();
    assert!(error.to_string().contains("another model"), "{error}");
}
