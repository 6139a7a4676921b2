//! What the control thread tells the intake thread, without waiting or allocating: how a goal
//! ended ([`Ended`], small and `Copy`, through a ring), and every so often where the group is
//! meant to be and is ([`Sample`], in buffers of a fixed pool passed back and forth through two
//! rings, as trajectories are), which the intake turns into the action's feedback and
//! `~/controller_state`.

use crate::tolerance::StateTolerance;

/// Samples a second of loop time: `~/controller_state` is published this often.
pub const SAMPLE_RATE_HZ: i128 = 100;

/// How one trajectory ended, as the control thread saw it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Outcome {
    /// Past its last point, within the goal tolerance.
    Succeeded,
    /// A joint beyond its path tolerance before the last point: holding where measured.
    PathViolated(Violation),
    /// A joint still outside its goal tolerance `late` s after the last point, beyond the goal
    /// time tolerance: holding where measured.
    GoalViolated {
        /// The first joint outside.
        violation: Violation,
        /// How long after the last point, s.
        late: f64,
    },
}

/// A joint outside a tolerance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Violation {
    /// The group joint.
    pub(crate) joint: usize,
    /// Desired − measured position.
    pub(crate) position_error: f64,
    /// Desired − measured velocity.
    pub(crate) velocity_error: f64,
    /// The tolerance it is outside.
    pub(crate) tolerance: StateTolerance,
}

/// A trajectory's end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ended {
    /// Its goal's tag (0: from the topic).
    pub(crate) goal: u64,
    /// How.
    pub(crate) outcome: Outcome,
}

/// The group at one cycle, per group joint.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sample {
    /// ROS time, ns.
    pub(crate) at_ns: i128,
    /// The goal followed (0: none, or a trajectory from the topic).
    pub(crate) goal: u64,
    /// Since the trajectory followed started, s (0 without one).
    pub(crate) since_start: f64,
    pub(crate) desired_position: Vec<f64>,
    pub(crate) desired_velocity: Vec<f64>,
    pub(crate) measured_position: Vec<f64>,
    pub(crate) measured_velocity: Vec<f64>,
    /// What was written: the desired position within the limits.
    pub(crate) commanded_position: Vec<f64>,
}

impl Sample {
    /// A buffer for `joints` joints.
    pub(crate) fn with_joints(joints: usize) -> Sample {
        Sample {
            at_ns: 0,
            goal: 0,
            since_start: 0.0,
            desired_position: vec![0.0; joints],
            desired_velocity: vec![0.0; joints],
            measured_position: vec![0.0; joints],
            measured_velocity: vec![0.0; joints],
            commanded_position: vec![0.0; joints],
        }
    }
}
