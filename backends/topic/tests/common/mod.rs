//! What the DDS tests of the topic backend share.
#![allow(dead_code)] // each test binary uses part of it

pub mod robots;

use std::time::Duration;

use ::robots::LiteBiped;
use backend_topic::{TopicOptions, TopicSystem};
use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::{Clock, Component, System};
use robot_core::typed::Slot;
use robot_core::{InterfaceKind, RobotTypes, Values};
use ros2_dds::Participant;

/// lite_biped's actuated joints, comma-separated, as the peer's `--joints` takes them.
pub fn lite_biped_joints() -> String {
    LiteBiped::DESCRIPTION
        .joints
        .iter()
        .filter(|j| j.is_controlled() && j.mimic.is_none())
        .map(|j| j.name.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A System of one topic component on lite_biped.
pub fn lite_biped_system(options: TopicOptions) -> System<LiteBiped> {
    let component: Box<dyn Component<LiteBiped>> = Box::new(TopicSystem::<LiteBiped>::new(
        options,
        Participant::join(0).expect("a DDS participant"),
    ));
    System::new(vec![component]).expect("on_init")
}

/// A clock at `time` with `period`.
pub fn clock(time: Duration, period: Duration) -> Clock {
    Clock { time, period }
}

/// The pairs of (position command slot, position state slot) of every joint that has both.
pub fn position_pairs<R: RobotTypes>() -> Vec<(usize, usize)> {
    (0..R::DESCRIPTION.joints.len())
        .filter_map(|j| {
            Some((
                R::COMMAND_LAYOUT.joint_slot(j, InterfaceKind::Position)?,
                R::STATE_LAYOUT.joint_slot(j, InterfaceKind::Position)?,
            ))
        })
        .collect()
}

/// Wraps a controller and records, from `after` on, the largest |measured − commanded| position
/// over every joint, the command being the one of the previous cycle.
#[derive(Debug)]
pub struct Tracking<C> {
    pub inner: C,
    pub after: Duration,
    pub worst: f64,
    pairs: Vec<(usize, usize)>,
    previous: Option<Vec<f64>>,
    started: Option<Duration>,
}

impl<C> Tracking<C> {
    pub fn new<R: RobotTypes>(inner: C, after: Duration) -> Self {
        let pairs = position_pairs::<R>();
        Tracking {
            inner,
            after,
            worst: 0.0,
            previous: Some(vec![0.0; R::COMMAND_LAYOUT.len()]),
            pairs,
            started: None,
        }
    }
}

impl<R: RobotTypes, C: Controller<R>> Controller<R> for Tracking<C> {
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.started = Some(clock.time);
        self.inner.on_activate(clock, state, command)
    }

    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let since = clock.time.saturating_sub(self.started.unwrap_or_default());
        if let Some(previous) = &mut self.previous {
            if since >= self.after {
                let measured = state.as_slice();
                for &(c, s) in &self.pairs {
                    self.worst = self.worst.max((measured[s] - previous[c]).abs());
                }
            }
            self.inner.update(clock, state, command)?;
            previous.copy_from_slice(command.as_slice());
            Ok(())
        } else {
            self.inner.update(clock, state, command)
        }
    }
}

/// The IMU slots are the last ten of lite_biped's state.
pub fn is_imu_slot(slot: &Slot) -> bool {
    matches!(slot, Slot::Sensor { .. })
}
