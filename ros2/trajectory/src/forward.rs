//! forward_command_controller's behaviour: `std_msgs/Float64MultiArray` on `/<name>/commands`,
//! one value per joint in the controller's order, written to one command interface of each.
//!
//! As upstream: what arrived before the controller was activated is dropped; until a command
//! arrives after activation the joints keep what they were given (the manager seeds them where
//! they are); the last command is written every cycle. Beyond upstream: a command with the
//! wrong number of values or a value that is not finite is refused whole and counted, and a
//! position is brought within the joint's limits before it is written.
//!
//! The subscription is made when the controller is, off the control thread; the control thread
//! only takes the newest message from a triple buffer and copies it: no allocation, no lock.

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use robot_runtime::InterfaceKind;
use robot_runtime::control_loop::{Controller, ControllerError};
use robot_runtime::hardware::Clock;
use robot_runtime::typed::{RobotTypes, Values};
use ros2_dds::{Participant, Subscription, WireError};
use ros2_msg::QosProfile;
use ros2_msg::msg::Float64MultiArray;

/// What a forward command controller took and refused.
#[derive(Debug, Default)]
pub struct ForwardStats {
    /// Commands written.
    pub accepted: AtomicU64,
    /// Commands refused: the wrong length, or a value not finite.
    pub refused: AtomicU64,
}

/// One joint of a forward command controller.
#[derive(Debug, Clone, Copy)]
struct Target {
    /// Its command slot.
    slot: usize,
    /// Its limits, for a position.
    lower: f64,
    upper: f64,
}

/// Writes what arrives on `/<name>/commands` to interface `kind` of its joints.
pub struct ForwardCommandController<R: RobotTypes> {
    name: String,
    targets: Vec<Target>,
    subscription: Subscription<Float64MultiArray>,
    /// The last command accepted since activation, one value per joint.
    values: Vec<f64>,
    have_command: bool,
    stats: Arc<ForwardStats>,
    _robot: PhantomData<fn() -> R>,
}

impl<R: RobotTypes> std::fmt::Debug for ForwardCommandController<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForwardCommandController")
            .field("name", &self.name)
            .field("targets", &self.targets)
            .finish_non_exhaustive()
    }
}

/// Why a forward command controller cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    /// A joint the robot does not have, or without that interface.
    #[error("forward command controller `{name}`: {reason}")]
    Joint {
        /// The controller.
        name: String,
        /// Why.
        reason: String,
    },
    /// Its subscription could not be made.
    #[error("forward command controller `{name}` cannot subscribe: {source}")]
    Wire {
        /// The controller.
        name: String,
        /// Why.
        source: WireError,
    },
}

impl<R: RobotTypes> ForwardCommandController<R> {
    /// Controller `name` over interface `kind` of `joints`, taking commands on
    /// `<namespace>/<name>/commands` on its own node of `participant`.
    pub fn new(
        name: &str,
        joints: &[&str],
        kind: InterfaceKind,
        namespace: &str,
        participant: &Participant,
    ) -> Result<Self, ForwardError> {
        let robot = R::DESCRIPTION;
        let mut targets = Vec::new();
        for joint in joints {
            let index = (robot.joints.iter().position(|j| j.name == *joint)).ok_or_else(|| {
                ForwardError::Joint {
                    name: name.to_string(),
                    reason: format!("{} has no joint `{joint}`", robot.name),
                }
            })?;
            let slot =
                R::COMMAND_LAYOUT
                    .joint_slot(index, kind)
                    .ok_or_else(|| ForwardError::Joint {
                        name: name.to_string(),
                        reason: format!("joint `{joint}` has no `{kind}` command interface"),
                    })?;
            let limits = robot.joints[index].limits;
            let (lower, upper) = match kind {
                InterfaceKind::Position => (
                    limits.and_then(|l| l.lower).unwrap_or(f64::NEG_INFINITY),
                    limits.and_then(|l| l.upper).unwrap_or(f64::INFINITY),
                ),
                _ => (f64::NEG_INFINITY, f64::INFINITY),
            };
            targets.push(Target { slot, lower, upper });
        }
        let wire = |source| ForwardError::Wire {
            name: name.to_string(),
            source,
        };
        let node = participant.node(namespace, name).map_err(wire)?;
        // forward_command_controller's subscription: rclcpp::SystemDefaultsQoS.
        let topic = node.private_name("commands").map_err(wire)?;
        let subscription = node
            .subscription(&topic, QosProfile::reliable(10))
            .map_err(wire)?;
        Ok(ForwardCommandController {
            name: name.to_string(),
            values: vec![0.0; targets.len()],
            targets,
            subscription,
            have_command: false,
            stats: Arc::default(),
            _robot: PhantomData,
        })
    }

    /// The command slots it writes.
    pub fn slots(&self) -> Vec<usize> {
        self.targets.iter().map(|t| t.slot).collect()
    }

    /// What it took and refused (shared: read it from another thread).
    pub fn stats(&self) -> Arc<ForwardStats> {
        Arc::clone(&self.stats)
    }
}

impl<R: RobotTypes> Controller<R> for ForwardCommandController<R> {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        // What arrived while inactive is not a command for now.
        let _ = self.subscription.take_latest();
        self.have_command = false;
        Ok(())
    }

    fn update(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        if let Some(received) = self.subscription.take_latest() {
            let data = &received.message.data;
            if data.len() == self.targets.len() && data.iter().all(|v| v.is_finite()) {
                self.values.copy_from_slice(data);
                self.have_command = true;
                self.stats.accepted.fetch_add(1, Ordering::Relaxed);
            } else {
                self.stats.refused.fetch_add(1, Ordering::Relaxed);
            }
        }
        if self.have_command {
            let values = command.as_mut_slice();
            for (target, value) in self.targets.iter().zip(&self.values) {
                values[target.slot] = value.max(target.lower).min(target.upper);
            }
        }
        Ok(())
    }
}
