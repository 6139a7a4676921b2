//! six_axis_arm on the real path with no hardware: its joints declare `position` commands only,
//! so the component servoes them with the default gains (`robot_core::hardware::ServoGains`, as
//! the MuJoCo backend does); the gripper is prismatic, driven through its rack (`lead: 50 mm`);
//! its second finger is a mimic joint, which the bus's component fills; the wrist roll is
//! continuous. The wave runs on it as on the mock.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::SixAxisArm;
use robots::controllers::Wave;
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;

const PERIOD: Duration = Duration::from_millis(4);

fn clock(cycle: u32) -> Clock {
    Clock {
        time: PERIOD * cycle,
        period: PERIOD,
    }
}

#[test]
fn the_position_only_arm_follows_the_wave_gripper_and_mimic_finger_included() {
    let robot = SixAxisArm::DESCRIPTION;
    let sim = SimBus::new("arm");
    attach_actuators(robot, "arm", None, &sim);
    let host = sim.clone();
    let bus = RobstrideBus::<SixAxisArm>::new("arm", None, BusOptions::default(), move || {
        Ok(Box::new(host.host()) as Box<dyn Transport>)
    });
    let components: Vec<Box<dyn Component<SixAxisArm>>> = vec![Box::new(bus)];
    let system = System::new(components).unwrap();
    let mut control_loop = ControlLoop::new(system, Wave::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    // 4 s at 250 Hz: the 1 s fade-in, then half the 6 s wave.
    let mut worst: f64 = 0.0;
    for cycle in 1..1000 {
        sim.advance(PERIOD);
        control_loop.cycle(clock(cycle)).unwrap();
        let (state, command) = (control_loop.state(), control_loop.command());
        if cycle > 250 {
            for (q, target) in [
                (state.shoulder_yaw.position, command.shoulder_yaw.position),
                (state.elbow.position, command.elbow.position),
                (state.wrist_roll.position, command.wrist_roll.position),
            ] {
                worst = worst.max((q - target).abs());
            }
        }
    }
    // A position-only servo damps towards rest, so it lags by its damping time times the
    // speed: 0.05 s × the shoulder's 0.93 rad/s peak is 0.047 rad, and a cycle's delay more.
    assert!(worst < 0.08, "the servo tracks: worst error {worst} rad");
    let (state, command) = (*control_loop.state(), *control_loop.command());
    assert!(
        command.gripper.position > 0.005,
        "the gripper is asked to open"
    );
    assert!(
        (state.gripper.position - command.gripper.position).abs() < 1e-3,
        "the rack follows to 1 mm: {} m for {} m",
        state.gripper.position,
        command.gripper.position
    );
    assert!(
        (state.gripper_mimic.position + state.gripper.position).abs() < 1e-12,
        "the mimic finger mirrors the gripper: {} m",
        state.gripper_mimic.position
    );
    assert!(
        (state.gripper_mimic.velocity + state.gripper.velocity).abs() < 1e-12,
        "and its velocity"
    );
    let report = control_loop.deactivate();
    report.unwrap();
    let counters = control_loop.system().report();
    assert!(
        counters
            .iter()
            .flat_map(|c| &c.counters)
            .any(|c| c.name == "commands clamped" && c.value == 0),
        "{counters:?}"
    );
}
