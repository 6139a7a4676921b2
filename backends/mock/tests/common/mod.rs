//! What the integration tests share: a clock, and a System of one mock at each lifecycle step.
#![allow(dead_code)] // each test binary uses its own part
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

pub mod robots;

use std::time::Duration;

use backend_mock::MockSystem;
use robot_core::RobotTypes;
use robot_core::hardware::{Clock, Component, ErrorKind, HardwareError, System};

pub const PERIOD: f64 = 0.01;
pub const CLOCK: Clock = Clock {
    time: Duration::ZERO,
    period: Duration::from_millis(10),
};
pub const CLOSE: f64 = 1e-9;

pub fn system<R: RobotTypes>(mock: MockSystem<R>) -> Result<System<R>, HardwareError> {
    System::new(vec![Box::new(mock) as Box<dyn Component<R>>])
}

/// Configured, read once: inactive, the state holding what the mock reports.
pub fn inactive<R: RobotTypes>(mock: MockSystem<R>) -> (System<R>, R::State, R::Command) {
    let mut system = system(mock).unwrap();
    system.configure().unwrap();
    let mut state = R::State::default();
    system.read(CLOCK, &mut state).unwrap();
    (system, state, R::Command::default())
}

/// Configured and activated: the commands hold the System's safe seeds.
pub fn active<R: RobotTypes>(mock: MockSystem<R>) -> (System<R>, R::State, R::Command) {
    let (mut system, mut state, mut command) = inactive(mock);
    system.activate(CLOCK, &mut state, &mut command).unwrap();
    (system, state, command)
}

pub fn joint_index<R: RobotTypes>(name: &str) -> usize {
    R::DESCRIPTION
        .joints
        .iter()
        .position(|j| j.name == name)
        .unwrap()
}

pub fn unsupported<R: RobotTypes>(mock: MockSystem<R>) -> String {
    let error = system(mock).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Unsupported, "{error}");
    // What a user reads: the message and its cause.
    format!("{error:#}")
}
