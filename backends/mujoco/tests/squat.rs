//! The core's squat controller, unchanged, on lite_biped in MuJoCo (on the test stand): it
//! tracks its trajectory.

mod common;

use backend_mujoco::{ModelSource, MujocoSystem};
use common::*;
use robot_core::InterfaceKind;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

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
