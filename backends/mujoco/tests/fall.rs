//! A run on MuJoCo tells the truth about a fall: the squat controller, which has no balance
//! feedback, tips lite_biped over on the floor; the statistics say when and how, and with
//! `stop_on_fall` the run ends there with that as its error. A robot held by a PD hold, or
//! hanging on the test stand, does not fall.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use common::*;
use robot_core::control_loop::{
    ControlLoop, Controller, ControllerError, LoopControl, LoopError, LoopOptions, LoopReport,
    Pacing, StopAfter,
};
use robot_core::hardware::{Clock, Component, System};
use robots::controllers::Squat;
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// Runs `controller` on lite_biped in `model` for `seconds` of simulated time, as fast as it
/// steps.
fn run(
    model: ModelSource,
    stop_on_fall: bool,
    controller: impl Controller<LiteBiped>,
    seconds: f64,
) -> Result<LoopReport, LoopError> {
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(MujocoOptions {
            stop_on_fall,
            ..options(model)
        }));
    let mut control_loop =
        ControlLoop::new(System::new(vec![component]).unwrap(), controller, None);
    let options = LoopOptions {
        activate: true,
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs_f64(seconds)),
        },
        pacing: Pacing::SimulatedFast,
        ..LoopOptions::default()
    };
    control_loop.run(&options, &LoopControl::default())
}

/// Holds every joint at `home` (all zero) at the squat's gains.
struct HoldHome;

impl Controller<LiteBiped> for HoldHome {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        hold(command, |_| 0.0, (40.0, 1.0));
        Ok(())
    }
}

#[test]
fn the_squat_on_the_floor_falls_and_the_statistics_say_when() {
    let report = run(ModelSource::Scene, false, Squat::default(), 4.0).unwrap();
    let [(component, events)] = &report.events[..] else {
        panic!("one component's events: {:?}", report.events)
    };
    assert_eq!(component, "LiteBipedHardware");
    let [fall] = &events[..] else {
        panic!("{events:?}")
    };
    // It tips forward a second into its first squat (the pelvis below 0.5 m at 1.97 s).
    assert!(fall.starts_with("the robot fell at 1."), "{fall}");
    assert!(fall.contains("(home 0.775 m"), "{fall}");
    // The run went on to its end: 4 s of simulated time (the cycle at 0 s and one a period).
    assert_eq!(report.timing.cycles, cycles(4.0) + 1);
}

#[test]
fn with_stop_on_fall_the_run_ends_at_the_fall_with_it_as_its_error() {
    let error = run(ModelSource::Scene, true, Squat::default(), 4.0).unwrap_err();
    let LoopError::Cycle { cycle, report, .. } = &error else {
        panic!("{error:?}")
    };
    assert!(
        error.to_string().contains("the robot fell at 1."),
        "{error}"
    );
    assert!(*cycle < cycles(2.5), "stopped at the fall, cycle {cycle}");
    assert_eq!(report.events.len(), 1, "{:?}", report.events);
}

#[test]
fn a_robot_that_stands_or_hangs_on_the_stand_does_not_fall() {
    // Standing on the floor under a PD hold of `home`.
    let report = run(ModelSource::Scene, true, HoldHome, 3.0).unwrap();
    assert!(report.events.is_empty(), "{:?}", report.events);
    // Squatting on the stand: the weld holds it.
    let report = run(ModelSource::Stand, true, Squat::default(), 4.0).unwrap();
    assert!(report.events.is_empty(), "{:?}", report.events);
}
