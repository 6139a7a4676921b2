//! What the controller-manager tests share: lite_biped's legs, a knee controller, an active
//! loop on the mock under a manager, and a switch asked from another thread while it cycles.
#![allow(dead_code)] // each test binary uses its own part
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_mock::MockSystem;
use robot_core::InterfaceKind;
use robot_core::control_loop::{ControlLoop, Controller, ControllerError};
use robot_core::controller_manager::{
    Claims, ControllerManager, Managed, ManagerHandle, Strictness, SwitchAnswer, controller_manager,
};
use robot_core::hardware::{Clock, Component, System};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

pub const LEFT: [&str; 7] = [
    "left_hip_pitch",
    "left_hip_roll",
    "left_hip_yaw",
    "left_knee_pitch",
    "left_ankle_yaw",
    "left_ankle_pitch",
    "left_ankle_roll",
];
pub const RIGHT: [&str; 7] = [
    "right_hip_pitch",
    "right_hip_roll",
    "right_hip_yaw",
    "right_knee_pitch",
    "right_ankle_yaw",
    "right_ankle_pitch",
    "right_ankle_roll",
];

/// Drives one knee towards `target` by `step` a cycle, as a servo (stiffness 40), and also
/// writes 9.0 into both knees' feed-forward effort, which it may not have claimed.
#[derive(Debug, Clone, Copy)]
pub struct Knee {
    left: bool,
    target: f64,
    step: f64,
    /// The position it started from, in `on_activate`.
    started_at: Option<f64>,
    deactivated: bool,
}

impl Knee {
    pub fn new(left: bool, target: f64) -> Knee {
        Knee {
            left,
            target,
            step: 0.01,
            started_at: None,
            deactivated: false,
        }
    }
}

impl Controller<LiteBiped> for Knee {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        let knee = match self.left {
            true => &mut command.left_knee_pitch,
            false => &mut command.right_knee_pitch,
        };
        self.started_at = Some(knee.position);
        knee.stiffness = 40.0;
        knee.damping = 1.0;
        Ok(())
    }

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        let knee = match self.left {
            true => &mut command.left_knee_pitch,
            false => &mut command.right_knee_pitch,
        };
        let error = self.target - knee.position;
        knee.position += error.clamp(-self.step, self.step);
        command.left_knee_pitch.effort = 9.0;
        command.right_knee_pitch.effort = 9.0;
        Ok(())
    }

    fn on_deactivate(&mut self, _clock: Clock, _state: &LiteBipedState) {
        self.deactivated = true;
    }
}

/// A knee controller named `name` claiming the leg's position, stiffness and damping.
pub fn knee(name: &str, left: bool, target: f64, active: bool) -> Managed<LiteBiped> {
    let leg = if left { LEFT } else { RIGHT };
    let interfaces = [
        InterfaceKind::Position,
        InterfaceKind::Stiffness,
        InterfaceKind::Damping,
    ];
    let slots = interfaces.iter().flat_map(|kind| {
        Claims::of_interface::<LiteBiped>(&leg, *kind)
            .unwrap()
            .slots()
            .to_vec()
    });
    let len = <LiteBiped as robot_core::typed::RobotTypes>::COMMAND_LAYOUT.len();
    Managed {
        name: name.to_string(),
        kind: "test/Knee".to_string(),
        claims: Claims::of_slots(slots, len).unwrap(),
        reads: Vec::new(),
        active,
        controller: Box::new(Knee::new(left, target)),
    }
}

pub type Loop = ControlLoop<LiteBiped, ControllerManager<LiteBiped>>;

/// An active loop on the mock of the controllers given, and their handle.
pub fn running(controllers: Vec<Managed<LiteBiped>>) -> (Loop, ManagerHandle, Clock) {
    let (manager, handle) = controller_manager(controllers).unwrap();
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), manager, None);
    let clock = Clock {
        time: Duration::ZERO,
        period: control_loop.period(),
    };
    control_loop.configure().unwrap();
    control_loop.activate(clock).unwrap();
    (control_loop, handle, clock)
}

/// Asks for a switch on another thread while this one runs cycles, as the service thread and
/// the control thread do; returns the answer and the cycles run until it came.
pub fn switch(
    control_loop: &mut Loop,
    clock: &mut Clock,
    handle: &ManagerHandle,
    activate: &[&str],
    deactivate: &[&str],
    strictness: Strictness,
) -> (SwitchAnswer, u32) {
    let owned = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let (activate, deactivate) = (owned(activate), owned(deactivate));
    let asker = handle.clone();
    let thread = std::thread::spawn(move || {
        asker.switch(&activate, &deactivate, strictness, Duration::from_secs(5))
    });
    let mut cycles = 0;
    while !thread.is_finished() {
        clock.time += clock.period;
        control_loop.cycle(*clock).unwrap();
        cycles += 1;
        std::thread::sleep(Duration::from_micros(200));
    }
    (thread.join().unwrap(), cycles)
}

pub fn cycles(control_loop: &mut Loop, clock: &mut Clock, n: usize) {
    for _ in 0..n {
        clock.time += clock.period;
        control_loop.cycle(*clock).unwrap();
    }
}

pub fn active(handle: &ManagerHandle) -> Vec<String> {
    (handle.controllers().into_iter())
        .filter(|c| c.active)
        .map(|c| c.info.name)
        .collect()
}
