//! Where a joint's five MIT values are in the flat array of a robot's command or state
//! (`robot_model::typed::Values`): resolved once when a backend or controller is set up, so that
//! each cycle reads and writes them by index, never by name.

use crate::Mit;

/// The slot of each of a joint's five MIT interfaces in a flat command (or state) array, where
/// the joint declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MitSlots {
    /// `position`.
    pub position: Option<usize>,
    /// `velocity`.
    pub velocity: Option<usize>,
    /// `effort`.
    pub effort: Option<usize>,
    /// `stiffness`.
    pub stiffness: Option<usize>,
    /// `damping`.
    pub damping: Option<usize>,
}

impl MitSlots {
    /// The values at these slots of `values`: NaN for an interface the joint does not declare
    /// (or a slot beyond `values`), which [`Mit::torque`] leaves out.
    #[inline]
    pub fn read(&self, values: &[f64]) -> Mit {
        let get = |slot: Option<usize>| slot.and_then(|s| values.get(s)).copied();
        let get = |slot| get(slot).unwrap_or(f64::NAN);
        Mit {
            position: get(self.position),
            velocity: get(self.velocity),
            effort: get(self.effort),
            stiffness: get(self.stiffness),
            damping: get(self.damping),
        }
    }

    /// Writes `mit` into these slots of `values`, the interfaces the joint declares only.
    #[inline]
    pub fn write(&self, mit: &Mit, values: &mut [f64]) {
        for (slot, value) in [
            (self.position, mit.position),
            (self.velocity, mit.velocity),
            (self.effort, mit.effort),
            (self.stiffness, mit.stiffness),
            (self.damping, mit.damping),
        ] {
            if let Some(cell) = slot.and_then(|s| values.get_mut(s)) {
                *cell = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joint_reads_and_writes_only_what_it_declares() {
        let slots = MitSlots {
            position: Some(2),
            damping: Some(0),
            effort: Some(9),
            ..MitSlots::default()
        };
        let mut values = [1.0, 2.0, 3.0];
        let read = slots.read(&values);
        assert_eq!((read.position, read.damping), (3.0, 1.0));
        assert!(read.velocity.is_nan() && read.stiffness.is_nan());
        assert!(read.effort.is_nan(), "a slot beyond the array");
        slots.write(
            &Mit {
                position: 7.0,
                velocity: 8.0,
                effort: 9.0,
                stiffness: 10.0,
                damping: 11.0,
            },
            &mut values,
        );
        assert_eq!(values, [11.0, 2.0, 7.0]);
    }
}
