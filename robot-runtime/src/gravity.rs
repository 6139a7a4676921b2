//! Gravity feed-forward over a robot's typed state and command: the torque that holds its links
//! up, from the definition's kinematics and inertias (`robot_model::dynamics`), written through
//! the `effort` command of each joint that declares one. A position servo then corrects only
//! what gravity does not explain, so a loaded joint no longer sags by `τ_gravity / stiffness`.
//!
//! The trajectory controller uses it for a group defined with `feedforward: gravity`; a
//! controller of one's own does the same in one call, after writing its positions:
//!
//! ```
//! use robot_runtime::gravity::GravityFeedforward;
//! use robot_runtime::typed::RobotTypes;
//!
//! struct Holding<R: RobotTypes> {
//!     gravity: GravityFeedforward,
//!     _robot: std::marker::PhantomData<R>,
//! }
//!
//! impl<R: RobotTypes> Holding<R> {
//!     fn new() -> Self {
//!         // Built once, before the loop runs: it allocates.
//!         let gravity = GravityFeedforward::of::<R>().expect("a validated definition");
//!         Holding { gravity, _robot: std::marker::PhantomData }
//!     }
//!
//!     /// After writing each joint's position: allocates nothing.
//!     fn update(&mut self, state: &R::State, command: &mut R::Command) {
//!         self.gravity.feed::<R>(state, command);
//!     }
//! }
//! ```
//!
//! Each joint is taken where it is commanded (a finite `position` command) or else where it is
//! measured (its `position` state; its initial position without one). The torque is the
//! actuators' ([`Dynamics::gravity`]: a mimic joint's load carried by the joint it follows),
//! held within each joint's effort limit. A floating base is taken as held still and level
//! unless [`GravityFeedforward::set_gravity`] says where gravity points in its axes.

use robot_model::dynamics::{Dynamics, DynamicsError};
use robot_model::kinematics::{self, KinematicsError};
use robot_model::typed::{Layout, RobotTypes, Values};
use robot_model::{InterfaceKind, Robot};

/// The gravity torques of one robot's joints, and where they go in its typed values.
#[derive(Debug, Clone)]
pub struct GravityFeedforward {
    dynamics: Dynamics,
    /// Per joint: its `position` state slot, `position` command slot and `effort` command slot.
    position_states: Vec<Option<usize>>,
    position_commands: Vec<Option<usize>>,
    efforts: Vec<Option<usize>>,
    /// Per joint: its effort limit (∞ without one).
    limits: Vec<f64>,
    /// Per joint: where it is taken without a measurement.
    initial: Vec<f64>,
    /// Per joint: where the next torques are computed, and the last ones computed.
    positions: Vec<f64>,
    torques: Vec<f64>,
}

impl GravityFeedforward {
    /// For robot `R`'s typed state and command.
    pub fn of<R: RobotTypes>() -> Result<GravityFeedforward, KinematicsError> {
        GravityFeedforward::new(R::DESCRIPTION, &R::STATE_LAYOUT, &R::COMMAND_LAYOUT)
    }

    /// For `robot`, whose state and command are laid out as given.
    pub fn new(
        robot: &Robot,
        state: &Layout,
        command: &Layout,
    ) -> Result<GravityFeedforward, KinematicsError> {
        let joints = 0..robot.joints.len();
        let initial = kinematics::initial_positions(robot);
        Ok(GravityFeedforward {
            dynamics: Dynamics::new(robot)?,
            position_states: (joints.clone())
                .map(|j| state.joint_slot(j, InterfaceKind::Position))
                .collect(),
            position_commands: (joints.clone())
                .map(|j| command.joint_slot(j, InterfaceKind::Position))
                .collect(),
            efforts: (joints.clone())
                .map(|j| command.joint_slot(j, InterfaceKind::Effort))
                .collect(),
            limits: (robot.joints.iter())
                .map(|j| j.limits.map_or(f64::INFINITY, |l| l.effort.abs()))
                .collect(),
            positions: initial.clone(),
            initial,
            torques: vec![0.0; robot.joints.len()],
        })
    }

    /// Gravity in the root link's axes, m/s² (−9.81 along z unless set): for a floating base,
    /// from its IMU.
    pub fn set_gravity(&mut self, gravity: [f64; 3]) {
        self.dynamics.set_gravity(gravity);
    }

    /// Takes every joint where `state` measures it (its initial position where it has no
    /// position state, or reads one that is not finite). Allocates nothing.
    pub fn measure(&mut self, state: &[f64]) {
        for ((position, slot), initial) in (self.positions.iter_mut())
            .zip(&self.position_states)
            .zip(&self.initial)
        {
            *position = (slot.and_then(|s| state.get(s).copied()))
                .filter(|p| p.is_finite())
                .unwrap_or(*initial);
        }
    }

    /// Takes joint `joint` (an index into the robot's joints) at `position` instead: where it
    /// is meant to be. A position that is not finite is ignored.
    pub fn set_position(&mut self, joint: usize, position: f64) {
        if let Some(p) = self
            .positions
            .get_mut(joint)
            .filter(|_| position.is_finite())
        {
            *p = position;
        }
    }

    /// Each joint's gravity torque (N·m, or N for a prismatic joint) at the positions taken,
    /// one per joint of the robot, in declaration order; 0 for a fixed or mimic joint.
    /// Allocates nothing.
    pub fn compute(&mut self) -> &[f64] {
        match self.dynamics.gravity(&self.positions, &mut self.torques) {
            Ok(()) => {}
            // The rows are sized from the same robot: never taken.
            Err(DynamicsError::Count { .. }) => self.torques.fill(0.0),
        }
        &self.torques
    }

    /// The torque last computed for joint `joint`, within its effort limit; 0 where it is not
    /// finite (a position that could not be placed).
    pub fn torque(&self, joint: usize) -> f64 {
        let limit = self.limits.get(joint).copied().unwrap_or(0.0);
        (self.torques.get(joint).copied())
            .filter(|t| t.is_finite())
            .map_or(0.0, |t| t.clamp(-limit, limit))
    }

    /// Writes [`torque`](Self::torque) into joint `joint`'s `effort` command in `values`, where
    /// it declares one; whether it does.
    pub fn write_effort(&self, joint: usize, values: &mut [f64]) -> bool {
        let slot = self.efforts.get(joint).copied().flatten();
        match slot.and_then(|s| values.get_mut(s)) {
            Some(effort) => {
                *effort = self.torque(joint);
                true
            }
            None => false,
        }
    }

    /// The whole robot in one call: each joint taken where `command` puts it (a finite
    /// position), else where `state` measures it; the gravity torques computed; and written
    /// into every joint's `effort` command that is declared, replacing what was there.
    /// Allocates nothing.
    pub fn feed<R: RobotTypes>(&mut self, state: &R::State, command: &mut R::Command) {
        self.measure(state.as_slice());
        let values = command.as_mut_slice();
        for joint in 0..self.positions.len() {
            if let Some(&p) = self.position_commands[joint].and_then(|s| values.get(s)) {
                self.set_position(joint, p);
            }
        }
        self.compute();
        for joint in 0..self.positions.len() {
            self.write_effort(joint, values);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use robot_model::typed::Slot;

    /// The fixture robot with every joint's position in state slot `j` and effort command in
    /// slot `j`.
    fn feed() -> (Robot, GravityFeedforward) {
        let robot = robot_model::fixture::robot();
        let state: Vec<Slot> = (0..robot.joints.len())
            .map(|j| Slot::Joint {
                joint: j as u16,
                kind: InterfaceKind::Position,
            })
            .collect();
        let command: Vec<Slot> = (0..robot.joints.len())
            .map(|j| Slot::Joint {
                joint: j as u16,
                kind: InterfaceKind::Effort,
            })
            .collect();
        let state = Layout {
            slots: Box::leak(state.into_boxed_slice()),
        };
        let command = Layout {
            slots: Box::leak(command.into_boxed_slice()),
        };
        let feed = GravityFeedforward::new(&robot, &state, &command).unwrap();
        (robot, feed)
    }

    #[test]
    fn the_efforts_written_are_the_dynamics_gravity_within_the_limits() {
        let (robot, mut feed) = feed();
        let state: Vec<f64> = (0..robot.joints.len()).map(|j| 0.1 * j as f64).collect();
        feed.measure(&state);
        let torques = feed.compute().to_vec();
        let mut want = vec![0.0; robot.joints.len()];
        Dynamics::new(&robot)
            .unwrap()
            .gravity(&state, &mut want)
            .unwrap();
        assert_eq!(torques, want);
        let mut values = vec![f64::NAN; robot.joints.len()];
        for (j, joint) in robot.joints.iter().enumerate() {
            assert!(feed.write_effort(j, &mut values));
            let limit = joint.limits.map_or(f64::INFINITY, |l| l.effort);
            assert_eq!(values[j], want[j].clamp(-limit, limit), "{}", joint.name);
        }
    }

    #[test]
    fn a_position_not_measured_is_taken_as_initial_and_a_desired_one_replaces_it() {
        let (robot, mut feed) = feed();
        let joints = robot.joints.len();
        feed.measure(&vec![f64::NAN; joints]);
        assert_eq!(feed.positions, kinematics::initial_positions(&robot));
        feed.set_position(0, 0.25);
        feed.set_position(1, f64::INFINITY);
        assert_eq!(feed.positions[0], 0.25);
        assert_eq!(feed.positions[1], kinematics::initial_position(&robot, 1));
    }
}
