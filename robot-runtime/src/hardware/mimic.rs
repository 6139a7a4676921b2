//! Mimic joints in a component's state: a joint that follows another (a gripper's second finger)
//! has no hardware of its own, so the component that drives the joint it follows fills its
//! states, every read, as GenericSystem does: position `offset + multiplier · target`, velocity
//! and acceleration `multiplier · target`, for each of them the mimic joint declares.

use crate::InterfaceKind;
use crate::model::Robot;
use crate::typed::Layout;

/// The interfaces a mimic joint follows, in that order.
const FOLLOWED: [InterfaceKind; 3] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Acceleration,
];

/// `state = multiplier · target + offset`, one interface of one mimic joint, as state slots.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Follow {
    state: usize,
    target: usize,
    multiplier: f64,
    offset: f64,
}

/// Why a component cannot follow one of its mimic joints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MimicError {
    /// It follows a joint the robot does not have.
    #[error("mimic joint `{joint}` follows unknown joint `{followed}`")]
    UnknownJoint {
        /// The mimic joint.
        joint: String,
        /// What it names.
        followed: String,
    },
    /// Mimic joints follow each other round.
    #[error("mimic joint `{joint}` is part of a mimic loop")]
    Loop {
        /// A joint of the loop.
        joint: String,
    },
    /// It has a state the joint it follows has not.
    #[error(
        "mimic joint `{joint}` has a `{kind}` state, but `{followed}`, which it follows, has none"
    )]
    MissingState {
        /// The mimic joint.
        joint: String,
        /// The joint it follows.
        followed: String,
        /// The state.
        kind: InterfaceKind,
    },
}

/// The mimic updates of one component, resolved once: a followed mimic joint comes before its
/// followers, so a chain settles within one read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mimics {
    follows: Vec<Follow>,
}

impl Mimics {
    /// The updates of the mimic joints among `joints` (joint indices; others are skipped), over
    /// the state slots of `layout`. An error names the joint: a mimic of an unknown joint, a
    /// loop, or a state the followed joint does not have.
    pub fn new(
        robot: &Robot,
        joints: impl IntoIterator<Item = usize>,
        layout: &Layout,
    ) -> Result<Mimics, MimicError> {
        let mut ordered = Vec::new();
        for index in joints {
            let joint = &robot.joints[index];
            let Some(mimic) = &joint.mimic else { continue };
            let target = robot
                .joints
                .iter()
                .position(|j| j.name == mimic.joint)
                .ok_or_else(|| MimicError::UnknownJoint {
                    joint: joint.name.to_string(),
                    followed: mimic.joint.to_string(),
                })?;
            let depth = depth(robot, index).ok_or_else(|| MimicError::Loop {
                joint: joint.name.to_string(),
            })?;
            for kind in FOLLOWED {
                let Some(state) = joint
                    .state_interface(kind)
                    .and_then(|_| layout.joint_slot(index, kind))
                else {
                    continue;
                };
                let source = robot.joints[target]
                    .state_interface(kind)
                    .and_then(|_| layout.joint_slot(target, kind))
                    .ok_or_else(|| MimicError::MissingState {
                        joint: joint.name.to_string(),
                        followed: mimic.joint.to_string(),
                        kind,
                    })?;
                let offset = if kind == InterfaceKind::Position {
                    mimic.offset
                } else {
                    0.0
                };
                ordered.push((
                    depth,
                    Follow {
                        state,
                        target: source,
                        multiplier: mimic.multiplier,
                        offset,
                    },
                ));
            }
        }
        // Stable: joints of one depth keep declaration order.
        ordered.sort_by_key(|(depth, _)| *depth);
        Ok(Mimics {
            follows: ordered.into_iter().map(|(_, follow)| follow).collect(),
        })
    }

    /// Fills the mimic joints' states in `state` (the robot's whole state, as slots) from the
    /// joints they follow. Allocates nothing.
    pub fn apply(&self, state: &mut [f64]) {
        for f in &self.follows {
            let Some(&target) = state.get(f.target) else {
                continue;
            };
            if let Some(slot) = state.get_mut(f.state) {
                *slot = f.offset + f.multiplier * target;
            }
        }
    }

    /// Whether there is nothing to fill.
    pub fn is_empty(&self) -> bool {
        self.follows.is_empty()
    }
}

/// How many mimic links lead from joint `index` to one that is not a mimic; `None` on a loop.
fn depth(robot: &Robot, index: usize) -> Option<usize> {
    let mut current = &robot.joints[index];
    for depth in 0..=robot.joints.len() {
        let Some(mimic) = &current.mimic else {
            return Some(depth);
        };
        current = robot.joint(&mimic.joint)?;
    }
    None
}
