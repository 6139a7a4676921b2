//! The controllers on the mock backend, for 200 cycles: the joints follow them and stay in range.

use robot_core::Backend;
use robot_core::control_loop::{LoopOptions, StopAfter};
use robot_runner::{Hardware, RunRequest, run};

use my_robot::{Crouch, LookAround, Strider};

#[test]
fn look_around_runs_on_the_mock_within_the_limits() -> Result<(), robot_runner::RunError> {
    let request = RunRequest {
        options: LoopOptions {
            activate: true,
            stop_after: StopAfter {
                cycles: Some(200),
                duration: None,
            },
            ..LoopOptions::default()
        },
        ..RunRequest::on(Backend::Mock)
    };
    let outcome = run(
        LookAround::default(),
        Hardware::Backend,
        &request,
        &mut std::io::sink(),
    )?;
    assert_eq!(outcome.report.timing.cycles, 200);
    let state = outcome.state.expect("the loop came back");
    // One second in, the pan is on its way out of the middle.
    assert!(state.pan.position.abs() > 0.01, "{state:?}");
    for (joint, value) in state.joints::<my_robot::robot::pan_tilt::PositionVelocityEffortState>() {
        let limits = joint.limits.expect("limits");
        assert!(limits.lower <= Some(value.position) && Some(value.position) <= limits.upper);
    }
    Ok(())
}

#[test]
fn the_strider_crouches_on_the_mock_both_legs_alike() -> Result<(), robot_runner::RunError> {
    let request = RunRequest {
        options: LoopOptions {
            activate: true,
            stop_after: StopAfter {
                cycles: Some(400), // 2 s: the bottom of a 4 s crouch
                duration: None,
            },
            ..LoopOptions::default()
        },
        ..RunRequest::on(Backend::Mock)
    };
    let outcome = run::<Strider, _>(
        Crouch::default(),
        Hardware::Backend,
        &request,
        &mut std::io::sink(),
    )?;
    let state = outcome.state.expect("the loop came back");
    for leg in state.leg() {
        assert!(leg.knee_pitch.position > 0.7, "{state:?}");
        assert!((leg.hip_pitch.position + leg.knee_pitch.position / 2.0).abs() < 1e-9);
    }
    // The mock drives no sensor (without `mock_sensor_commands`): the IMU and the feet read NaN,
    // never a level robot at rest or a foot on the ground.
    assert!(state.base_imu.orientation.w.is_nan());
    assert!(state.left_ankle_ft.force.z.is_nan() && state.right_sole.contact.is_nan());
    Ok(())
}
