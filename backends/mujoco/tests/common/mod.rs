//! What the integration tests share: lite_biped on MuJoCo, stepped by hand in lock-step.
#![allow(dead_code)] // each test binary uses its own part
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_core::hardware::{Clock, Component, System};
use robot_core::typed::Slot;
use robot_core::{InterfaceKind, RobotTypes, Values};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

/// lite_biped's loop period (200 Hz).
pub const PERIOD: Duration = Duration::from_millis(5);

/// The clock of cycle `k` in lock-step: simulated time, one period a cycle.
pub fn clock(k: u64) -> Clock {
    Clock {
        time: PERIOD * u32::try_from(k).unwrap(),
        period: PERIOD,
    }
}

/// Cycles in `seconds` of simulated time.
pub fn cycles(seconds: f64) -> u64 {
    (seconds / PERIOD.as_secs_f64()).round() as u64
}

pub fn options(model: ModelSource) -> MujocoOptions {
    MujocoOptions {
        model,
        ..MujocoOptions::default()
    }
}

/// The robot's bare emitted `<robot>.mjcf.xml` (no floor, nothing holding the base) as a user's
/// file; the folder lives as long as the returned guard.
pub fn bare_model() -> (tempfile::TempDir, ModelSource) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lite_biped.mjcf.xml");
    std::fs::write(
        &path,
        robot_core::emit::mjcf(LiteBiped::DESCRIPTION).unwrap(),
    )
    .unwrap();
    (dir, ModelSource::File(path))
}

/// A System of one MuJoCo component, configured and read once at time zero: inactive.
pub fn inactive(options: MujocoOptions) -> (System<LiteBiped>, LiteBipedState, LiteBipedCommand) {
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(options));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    let mut state = LiteBipedState::default();
    system.read(clock(0), &mut state).unwrap();
    (system, state, LiteBipedCommand::default())
}

/// Configured and activated at time zero: the commands hold the System's safe seeds.
pub fn active(options: MujocoOptions) -> (System<LiteBiped>, LiteBipedState, LiteBipedCommand) {
    let (mut system, mut state, mut command) = inactive(options);
    system.activate(clock(0), &mut state, &mut command).unwrap();
    (system, state, command)
}

/// lite_biped's one command type: the five MIT interfaces.
pub type Mit = robots::lite_biped::lite_biped::PositionVelocityEffortStiffnessDampingCommand;

/// Each joint's value of state interface `kind`, by joint name, in declaration order.
pub fn joint_states(state: &LiteBipedState, kind: InterfaceKind) -> Vec<(&'static str, f64)> {
    LiteBiped::STATE_LAYOUT
        .slots
        .iter()
        .zip(state.as_slice())
        .filter_map(|(slot, &value)| match *slot {
            Slot::Joint { joint, kind: k } if k == kind => Some((
                LiteBiped::DESCRIPTION.joints[usize::from(joint)]
                    .name
                    .as_ref(),
                value,
            )),
            _ => None,
        })
        .collect()
}

/// Every joint's commanded position, by joint name, in declaration order.
pub fn commanded_positions(command: &LiteBipedCommand) -> Vec<(&'static str, f64)> {
    let mut command = *command;
    command
        .joints_mut::<Mit>()
        .map(|(joint, c)| (joint.name.as_ref(), c.position))
        .collect()
}

/// Sets every joint to hold `pose(name)` under `(stiffness, damping)`.
pub fn hold(command: &mut LiteBipedCommand, pose: impl Fn(&str) -> f64, gains: (f64, f64)) {
    for (joint, c) in command.joints_mut::<Mit>() {
        c.position = pose(&joint.name);
        c.velocity = 0.0;
        c.effort = 0.0;
        (c.stiffness, c.damping) = gains;
    }
}

/// Runs cycles `from..to` of read then write (no controller), calling `each` after each read.
pub fn run(
    system: &mut System<LiteBiped>,
    state: &mut LiteBipedState,
    command: &LiteBipedCommand,
    cycles: std::ops::Range<u64>,
    mut each: impl FnMut(u64, &LiteBipedState),
) {
    for k in cycles {
        system.read(clock(k), state).unwrap();
        each(k, state);
        system.write(clock(k), command).unwrap();
    }
}
