//! States in: a `sensor_msgs/JointState` checked whole, then applied by name.
//!
//! Checked first, so a bad message changes nothing: every non-empty array must be as long as
//! `name` (upstream throws `std::out_of_range` on a shorter one), and no joint may be named
//! twice (upstream lets the last one win). Then, per name: unknown names are skipped, and mimic
//! joints too, counted apart (each follows its joint); a non-finite value keeps the last one; with
//! `sum_wrapped_joint_states` a position is the previous one plus the shortest turn to the
//! reading. Joints the message does not name keep their last values.

use std::f64::consts::{PI, TAU};

use ros2_msg::msg::JointState;

use crate::plan::{ARRAYS, StateJoint};

/// Why a state message was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A non-empty array whose length is not `name`'s.
    ArrayLength {
        /// `position`, `velocity` or `effort`.
        array: &'static str,
        /// Its length.
        length: usize,
        /// `name`'s.
        names: usize,
    },
    /// A joint named twice.
    DuplicateName {
        /// The joint, as the definition spells it.
        joint: &'static str,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::ArrayLength {
                array,
                length,
                names,
            } => write!(f, "`{array}` has {length} values for {names} names"),
            Refusal::DuplicateName { joint } => write!(f, "joint `{joint}` is named twice"),
        }
    }
}

/// What applying one message did, for the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Applied {
    /// Names that are no joint of ours.
    pub unknown_names: u64,
    /// Names of mimic joints: skipped, since each follows its joint.
    pub mimic_names: u64,
    /// Non-finite values skipped.
    pub non_finite: u64,
}

/// The per-joint memory of the intake.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Intake {
    joints: Vec<StateJoint>,
    /// The mimic joints' names: a peer that publishes them too is not naming strangers.
    mimics: Vec<&'static str>,
    /// Which message last named each joint (duplicates), by a count of messages.
    seen_in: Vec<u64>,
    message: u64,
    sum_wrapped: bool,
    /// The accumulated angle of each joint, NaN before its first reading.
    unwrapped: Vec<f64>,
}

impl Intake {
    pub(crate) fn new(
        joints: Vec<StateJoint>,
        mimics: Vec<&'static str>,
        sum_wrapped: bool,
    ) -> Intake {
        let n = joints.len();
        Intake {
            joints,
            mimics,
            seen_in: vec![0; n],
            message: 0,
            sum_wrapped,
            unwrapped: vec![f64::NAN; n],
        }
    }

    /// Forgets the accumulated angles (a new connection starts afresh).
    pub(crate) fn reset(&mut self) {
        self.unwrapped.fill(f64::NAN);
    }

    /// The joint of ours a message's `i`-th name is, looked for at `i` first (the usual
    /// order), then everywhere.
    fn find(&self, name: &str, i: usize) -> Option<usize> {
        if self.joints.get(i).is_some_and(|j| j.name == name) {
            return Some(i);
        }
        self.joints.iter().position(|j| j.name == name)
    }

    /// Checks `message` whole, then applies it to `state` (the robot's state slots). A refused
    /// message changes nothing. Allocates nothing.
    pub(crate) fn apply(
        &mut self,
        message: &JointState,
        state: &mut [f64],
    ) -> Result<Applied, Refusal> {
        let names = message.name.len();
        let arrays = [&message.position, &message.velocity, &message.effort];
        for (array, values) in ARRAYS.iter().zip(arrays) {
            if !values.is_empty() && values.len() != names {
                return Err(Refusal::ArrayLength {
                    array,
                    length: values.len(),
                    names,
                });
            }
        }
        self.message += 1;
        for (i, name) in message.name.iter().enumerate() {
            if let Some(joint) = self.find(name, i) {
                if self.seen_in[joint] == self.message {
                    return Err(Refusal::DuplicateName {
                        joint: self.joints[joint].name,
                    });
                }
                self.seen_in[joint] = self.message;
            }
        }
        let mut applied = Applied::default();
        for (i, name) in message.name.iter().enumerate() {
            let Some(joint) = self.find(name, i) else {
                if self.mimics.iter().any(|m| m == name) {
                    applied.mimic_names += 1;
                } else {
                    applied.unknown_names += 1;
                }
                continue;
            };
            for (k, values) in arrays.iter().enumerate() {
                let (Some(&value), Some(slot)) = (values.get(i), self.joints[joint].slots[k])
                else {
                    continue;
                };
                if !value.is_finite() {
                    applied.non_finite += 1;
                    continue;
                }
                state[slot] = if k == 0 && self.sum_wrapped {
                    self.unwrap(joint, value)
                } else {
                    value
                };
            }
        }
        Ok(applied)
    }

    /// The accumulated angle after a reading that wraps at ±2π.
    fn unwrap(&mut self, joint: usize, reading: f64) -> f64 {
        let total = &mut self.unwrapped[joint];
        if total.is_nan() {
            // The first reading is taken as it is (upstream adds its shortest turn to the
            // initial value instead, so a first reading of 5 rad becomes −1.28).
            *total = reading;
        } else {
            *total += shortest_turn(*total, reading);
        }
        *total
    }
}

/// The angle in (−π, π] that turns `from` onto `to`, modulo 2π.
pub(crate) fn shortest_turn(from: f64, to: f64) -> f64 {
    let turn = (to - from).rem_euclid(TAU);
    if turn > PI { turn - TAU } else { turn }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joints() -> Vec<StateJoint> {
        vec![
            StateJoint {
                name: "a",
                slots: [Some(0), Some(1), None],
            },
            StateJoint {
                name: "b",
                slots: [Some(2), Some(3), Some(4)],
            },
        ]
    }

    fn message(names: &[&str], position: &[f64]) -> JointState {
        JointState {
            name: names.iter().map(|n| n.to_string()).collect(),
            position: position.to_vec(),
            ..JointState::default()
        }
    }

    #[test]
    fn joints_are_matched_by_name_in_any_order_and_unknown_names_skipped() {
        let mut intake = Intake::new(joints(), vec!["finger"], false);
        let mut state = [0.0; 5];
        let applied = intake
            .apply(
                &message(&["x", "b", "finger", "a"], &[9.0, 2.0, 7.0, 1.0]),
                &mut state,
            )
            .unwrap();
        assert_eq!(state, [1.0, 0.0, 2.0, 0.0, 0.0]);
        // A mimic joint the peer publishes too is no stranger: counted apart.
        assert_eq!((applied.unknown_names, applied.mimic_names), (1, 1));
        // A joint the message does not name keeps its value; NaN keeps the last value.
        intake
            .apply(&message(&["b"], &[f64::NAN]), &mut state)
            .unwrap();
        assert_eq!(state, [1.0, 0.0, 2.0, 0.0, 0.0]);
    }

    #[test]
    fn short_arrays_and_duplicates_are_refused_whole() {
        let mut intake = Intake::new(joints(), Vec::new(), false);
        let mut state = [0.0; 5];
        let short = JointState {
            velocity: vec![1.0],
            ..message(&["a", "b"], &[1.0, 2.0])
        };
        assert_eq!(
            intake.apply(&short, &mut state).unwrap_err().to_string(),
            "`velocity` has 1 values for 2 names"
        );
        assert_eq!(
            intake
                .apply(&message(&["a", "b", "a"], &[1.0, 2.0, 3.0]), &mut state)
                .unwrap_err()
                .to_string(),
            "joint `a` is named twice"
        );
        assert_eq!(state, [0.0; 5]);
    }

    #[test]
    fn wrapped_positions_are_accumulated() {
        let mut intake = Intake::new(joints(), Vec::new(), true);
        let mut state = [0.0; 5];
        let mut truth: f64 = 5.0;
        for _ in 0..200 {
            let reading = truth % TAU; // in (−2π, 2π), as Isaac Sim reports
            intake
                .apply(&message(&["a"], &[reading]), &mut state)
                .unwrap();
            assert!((state[0] - truth).abs() < 1e-9, "{} vs {truth}", state[0]);
            truth += 0.3;
        }
        for _ in 0..400 {
            truth -= 0.4;
            intake
                .apply(&message(&["a"], &[truth % TAU]), &mut state)
                .unwrap();
            assert!((state[0] - truth).abs() < 1e-9, "{} vs {truth}", state[0]);
        }
        // 6.2 to -6.2 is a small step forward through the wrap at ±2π.
        assert!((shortest_turn(6.2, -6.2) - (2.0 * TAU - 12.4)).abs() < 1e-12);
    }
}
