//! A run on MuJoCo tells the truth about a fall: the squat controller, which has no balance
//! feedback, tips lite_biped over on the floor; the statistics say when and how, and with
//! `stop_on_fall` the run ends there with that as its error. A robot held by a PD hold, or
//! hanging on the test stand, does not fall. Through it all the component says where the
//! floating base is (`Component::base_pose`, what `/tf` publishes).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use common::*;
use robot_core::control_loop::{
    ControlLoop, Controller, ControllerError, LoopControl, LoopError, LoopOptions, LoopReport,
    Pacing, StopAfter,
};
use std::sync::{Arc, Mutex};

use robot_core::control_loop::CycleObserver;
use robot_core::hardware::{Clock, Component, System};
use robot_core::kinematics::Transform;
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
    let events: Vec<(&str, &str)> = report.events().collect();
    let [(component, fall)] = events[..] else {
        panic!("one event: {events:?}")
    };
    assert_eq!(component, "LiteBipedHardware");
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
    assert_eq!(report.events().count(), 1, "{:?}", report.components);
}

#[test]
fn a_robot_that_stands_or_hangs_on_the_stand_does_not_fall() {
    // Standing on the floor under a PD hold of `home`.
    let report = run(ModelSource::Scene, true, HoldHome, 3.0).unwrap();
    assert_eq!(report.events().count(), 0, "{:?}", report.components);
    // Squatting on the stand: the weld holds it.
    let report = run(ModelSource::Stand, true, Squat::default(), 4.0).unwrap();
    assert_eq!(report.events().count(), 0, "{:?}", report.components);
}

/// Where the floating base was, every cycle.
struct BaseTrace(Arc<Mutex<Vec<Transform>>>);

impl CycleObserver<LiteBiped> for BaseTrace {
    fn observe(&mut self, _: Clock, _: &LiteBipedState, _: &LiteBipedCommand) {}

    fn observe_system(&mut self, _clock: Clock, system: &System<LiteBiped>) {
        let pose = system.base_pose().expect("MuJoCo knows its free joint");
        self.0.lock().unwrap().push(pose);
    }
}

#[test]
fn the_component_says_where_the_floating_base_is_as_it_falls() {
    let trace = Arc::new(Mutex::new(Vec::new()));
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(options(ModelSource::Scene)));
    let mut control_loop = ControlLoop::new(
        System::new(vec![component]).unwrap(),
        Squat::default(),
        None,
    )
    .with_observer(BaseTrace(Arc::clone(&trace)));
    let options = LoopOptions {
        activate: true,
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs_f64(2.5)),
        },
        pacing: Pacing::SimulatedFast,
        ..LoopOptions::default()
    };
    control_loop.run(&options, &LoopControl::default()).unwrap();
    let trace = trace.lock().unwrap();
    let (first, last) = (trace.first().unwrap(), trace.last().unwrap());
    // Upright at its home height (the fall test's "home 0.775 m") at the start...
    assert!((first.translation[2] - 0.775).abs() < 0.01, "{first:?}");
    assert!((first.rotation[2][2] - 1.0).abs() < 1e-3, "{first:?}");
    // ...tipped over once the squat has fallen: its z axis far from the world's.
    assert!(last.rotation[2][2] < 0.5, "{last:?}");
    assert!(last.translation[2] < 0.5, "{last:?}");
}
