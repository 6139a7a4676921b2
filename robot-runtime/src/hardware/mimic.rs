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
    ) -> Result<Mimics, String> {
        let mut ordered = Vec::new();
        for index in joints {
            let joint = &robot.joints[index];
            let Some(mimic) = &joint.mimic else { continue };
            let target = robot
                .joints
                .iter()
                .position(|j| j.name == mimic.joint)
                .ok_or_else(|| {
                    format!(
                        "mimic joint `{}` follows unknown joint `{}`",
                        joint.name, mimic.joint
                    )
                })?;
            let depth = depth(robot, index)
                .ok_or_else(|| format!("mimic joint `{}` is part of a mimic loop", joint.name))?;
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
                    .ok_or_else(|| {
                        format!(
                            "mimic joint `{}` has a `{kind}` state, but `{}`, which it follows, has none",
                            joint.name, mimic.joint
                        )
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
