//! What a controller claims: a set of command slots, kept as a bitset over the robot's command
//! layout, so that the control thread checks two claims for a collision without allocating.

use crate::InterfaceKind;
use crate::typed::{RobotTypes, Slot};

/// A set of command slots of robot `R` (indices into [`RobotTypes::COMMAND_LAYOUT`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Claims {
    /// Bit `s % 64` of word `s / 64`: slot `s`.
    words: Vec<u64>,
    /// The same slots, in order, for walking them.
    slots: Vec<usize>,
}

impl Claims {
    /// The slots given (each once, in order); `None` when one is beyond a layout of `len` slots.
    pub fn of_slots(slots: impl IntoIterator<Item = usize>, len: usize) -> Option<Claims> {
        let mut words = vec![0u64; len.div_ceil(64)];
        for slot in slots {
            if slot >= len {
                return None;
            }
            words[slot / 64] |= 1 << (slot % 64);
        }
        let slots = (0..len)
            .filter(|s| words[s / 64] & (1 << (s % 64)) != 0)
            .collect();
        Some(Claims { words, slots })
    }

    /// Every command interface of the joints named, as robot `R` declares them; `Err` names a
    /// joint `R` does not have or that takes no command.
    pub fn of_joints<R: RobotTypes>(joints: &[&str]) -> Result<Claims, String> {
        let robot = R::DESCRIPTION;
        let mut slots = Vec::new();
        for name in joints {
            let index = (robot.joints.iter().position(|j| j.name == *name))
                .ok_or_else(|| format!("{} has no joint `{name}`", robot.name))?;
            let before = slots.len();
            slots.extend(
                (R::COMMAND_LAYOUT.slots.iter().enumerate()).filter_map(|(s, slot)| {
                    matches!(slot, Slot::Joint { joint, .. } if usize::from(*joint) == index)
                        .then_some(s)
                }),
            );
            if slots.len() == before {
                return Err(format!("joint `{name}` takes no command"));
            }
        }
        Ok(Self::of_slots(slots, R::COMMAND_LAYOUT.len()).unwrap_or_default())
    }

    /// Interface `kind` of each joint named, where it declares it; `Err` names a joint `R` does
    /// not have, or one without that command interface.
    pub fn of_interface<R: RobotTypes>(
        joints: &[&str],
        kind: InterfaceKind,
    ) -> Result<Claims, String> {
        let robot = R::DESCRIPTION;
        let mut slots = Vec::new();
        for name in joints {
            let index = (robot.joints.iter().position(|j| j.name == *name))
                .ok_or_else(|| format!("{} has no joint `{name}`", robot.name))?;
            let slot = (R::COMMAND_LAYOUT.slots.iter()).position(
                |slot| matches!(*slot, Slot::Joint { joint, kind: k } if usize::from(joint) == index && k == kind),
            );
            slots.push(
                slot.ok_or_else(|| format!("joint `{name}` has no `{kind}` command interface"))?,
            );
        }
        Ok(Self::of_slots(slots, R::COMMAND_LAYOUT.len()).unwrap_or_default())
    }

    /// Every command slot of `R`: what a controller of the whole robot claims.
    pub fn all<R: RobotTypes>() -> Claims {
        let len = R::COMMAND_LAYOUT.len();
        Self::of_slots(0..len, len).unwrap_or_default()
    }

    /// The slots, in order.
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }

    /// Whether no slot is claimed.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether a slot is in both. Allocates nothing.
    pub fn collides(&self, other: &Claims) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    /// Whether `slot` is claimed.
    pub fn contains(&self, slot: usize) -> bool {
        self.words
            .get(slot / 64)
            .is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }

    /// The first slot in both, if any.
    pub fn first_shared(&self, other: &Claims) -> Option<usize> {
        self.slots.iter().copied().find(|s| other.contains(*s))
    }

    /// ros2_control's names of the slots (`left_knee_pitch/position`), in order.
    pub fn names<R: RobotTypes>(&self) -> Vec<String> {
        self.slots.iter().map(|s| slot_name::<R>(*s)).collect()
    }
}

/// ros2_control's name of command slot `slot` of `R`: `<joint>/<interface>`.
pub fn slot_name<R: RobotTypes>(slot: usize) -> String {
    match R::COMMAND_LAYOUT.slots.get(slot) {
        Some(Slot::Joint { joint, kind }) => {
            let joint = &R::DESCRIPTION.joints[usize::from(*joint)];
            format!("{}/{kind}", joint.name)
        }
        _ => format!("slot {slot}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_collide_when_they_share_a_slot_across_words() {
        let a = Claims::of_slots([1, 70], 130).unwrap();
        let b = Claims::of_slots([70, 129], 130).unwrap();
        let c = Claims::of_slots([0, 2, 128], 130).unwrap();
        assert!(a.collides(&b) && b.collides(&a));
        assert!(!a.collides(&c) && !b.collides(&c));
        assert_eq!(a.first_shared(&b), Some(70));
        assert_eq!(a.first_shared(&c), None);
        assert_eq!(b.slots(), [70, 129]);
        assert!(Claims::of_slots([130], 130).is_none());
    }
}
