//! `/joint_states` as joint_state_broadcaster publishes it: every joint that has states (the
//! movable ones), in definition order, position, velocity and effort, NaN where a joint has no
//! such state interface.

use robot_runtime::InterfaceKind;
use robot_runtime::Robot;
use robot_runtime::typed::Layout;
use ros2_msg::msg::{JointState, Time};

/// Where each published joint's values are in the state.
#[derive(Debug, Clone, PartialEq)]
pub struct JointStateLayout {
    names: Vec<String>,
    /// Per joint: the position, velocity and effort slots.
    slots: Vec<[Option<usize>; 3]>,
}

const KINDS: [InterfaceKind; 3] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Effort,
];

impl JointStateLayout {
    /// The joints of `robot` whose state is laid out as `state`.
    pub fn of(robot: &Robot, state: &Layout) -> JointStateLayout {
        let (mut names, mut slots) = (Vec::new(), Vec::new());
        for (index, joint) in robot.joints.iter().enumerate() {
            if !joint.kind.is_movable() {
                continue;
            }
            names.push(joint.name.to_string());
            slots.push(KINDS.map(|kind| state.joint_slot(index, kind)));
        }
        JointStateLayout { names, slots }
    }

    /// The joint names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A message with the names and arrays of the right length, to be filled.
    pub fn message(&self) -> JointState {
        let n = self.names.len();
        JointState {
            name: self.names.clone(),
            position: vec![f64::NAN; n],
            velocity: vec![f64::NAN; n],
            effort: vec![f64::NAN; n],
            ..JointState::default()
        }
    }

    /// Fills `message` (made by [`JointStateLayout::message`]) from `state`. Allocates nothing.
    pub fn fill(&self, state: &[f64], stamp: &Time, message: &mut JointState) {
        message.header.stamp = stamp.clone();
        let value =
            |slot: Option<usize>| slot.and_then(|s| state.get(s)).copied().unwrap_or(f64::NAN);
        for (i, [position, velocity, effort]) in self.slots.iter().enumerate() {
            // The arrays are as long as `slots`: `message` came from `Self::message`.
            if let Some(p) = message.position.get_mut(i) {
                *p = value(*position);
            }
            if let Some(v) = message.velocity.get_mut(i) {
                *v = value(*velocity);
            }
            if let Some(e) = message.effort.get_mut(i) {
                *e = value(*effort);
            }
        }
    }
}
