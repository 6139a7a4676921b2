//! One accepted trajectory, in the group's joint order and preallocated for
//! [`MAX_POINTS`] points, and how it is sampled: from the state the group was in when it took
//! over, through each point at its time, quintic between points where the message gave
//! velocities and accelerations, cubic (Hermite) where it gave velocities, linear where it gave
//! neither, holding the last point after the end. It carries the tolerances it is followed with
//! and, for a FollowJointTrajectory goal, the goal's tag.

use crate::tolerance::Tolerances;

/// The most points one trajectory may have: what the buffers are sized for, so that the control
/// thread never allocates.
pub const MAX_POINTS: usize = 1024;

/// Where a stop holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Where the group is meant to be (an empty trajectory on the topic).
    Desired,
    /// Where it is measured to be (a cancelled goal, as joint_trajectory_controller's
    /// `set_hold_position`).
    Measured,
}

/// A trajectory of one group (`joints` joints), or the order to stop and hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// Where it starts, ns of ROS time (since the Unix epoch).
    pub start_ns: i128,
    /// `Some`: no points, stop and hold there.
    pub stop: Option<Hold>,
    /// The FollowJointTrajectory goal it is (its tag, from 1), or 0 for one from the topic.
    pub goal: u64,
    /// What it is followed with.
    pub tolerances: Tolerances,
    joints: usize,
    /// Per point: seconds from the start.
    times: Vec<f64>,
    /// Per point, per joint: position (NaN: a joint the message left out, which holds).
    positions: Vec<f64>,
    /// Per point, per joint: velocity, when the message gave them.
    velocities: Vec<f64>,
    has_velocities: bool,
    /// Per point, per joint: acceleration, when the message gave them with velocities.
    accelerations: Vec<f64>,
    has_accelerations: bool,
    /// Per joint: where the group was, and how fast, when this took over.
    from_position: Vec<f64>,
    from_velocity: Vec<f64>,
}

impl Trajectory {
    /// An empty buffer for a group of `joints` joints, with room for [`MAX_POINTS`] points.
    pub fn with_capacity(joints: usize) -> Trajectory {
        Trajectory {
            start_ns: 0,
            stop: Some(Hold::Desired),
            goal: 0,
            tolerances: Tolerances::default(),
            joints,
            times: Vec::with_capacity(MAX_POINTS),
            positions: Vec::with_capacity(MAX_POINTS * joints),
            velocities: Vec::with_capacity(MAX_POINTS * joints),
            has_velocities: false,
            accelerations: Vec::with_capacity(MAX_POINTS * joints),
            has_accelerations: false,
            from_position: vec![0.0; joints],
            from_velocity: vec![0.0; joints],
        }
    }

    /// Empties it for refilling, a trajectory from the topic: `has_velocities` and
    /// `has_accelerations` (only with velocities), what the points will carry.
    pub(crate) fn reset(&mut self, start_ns: i128, has_velocities: bool, has_accelerations: bool) {
        self.start_ns = start_ns;
        self.stop = None;
        self.goal = 0;
        self.has_velocities = has_velocities;
        self.has_accelerations = has_velocities && has_accelerations;
        self.times.clear();
        self.positions.clear();
        self.velocities.clear();
        self.accelerations.clear();
    }

    /// Makes it the order to stop at `start_ns` and hold at `hold`.
    pub(crate) fn set_stop(&mut self, start_ns: i128, hold: Hold) {
        self.reset(start_ns, false, false);
        self.stop = Some(hold);
    }

    /// Adds a point at `time` s: `positions`, `velocities` and `accelerations` (ignored
    /// without) per group joint. `false` when full or given the wrong length (nothing added).
    pub(crate) fn push(
        &mut self,
        time: f64,
        positions: &[f64],
        velocities: &[f64],
        accelerations: &[f64],
    ) -> bool {
        if self.times.len() >= MAX_POINTS
            || positions.len() != self.joints
            || (self.has_velocities && velocities.len() != self.joints)
            || (self.has_accelerations && accelerations.len() != self.joints)
        {
            return false;
        }
        self.times.push(time);
        self.positions.extend_from_slice(positions);
        if self.has_velocities {
            self.velocities.extend_from_slice(velocities);
        }
        if self.has_accelerations {
            self.accelerations.extend_from_slice(accelerations);
        }
        true
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether it has no points.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The time of the last point, s from the start.
    pub fn duration(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// Takes over from where the group is: each joint's `position` and `velocity` (per group
    /// joint, in order). Allocates nothing.
    pub(crate) fn take_over(&mut self, position: &[f64], velocity: &[f64]) {
        for (to, from) in self.from_position.iter_mut().zip(position) {
            *to = *from;
        }
        for (to, from) in self.from_velocity.iter_mut().zip(velocity) {
            *to = *from;
        }
    }

    /// Joint `joint`'s desired position and velocity at `t` s from the start (before the start:
    /// where it took over). Allocates nothing.
    pub fn sample(&self, joint: usize, t: f64) -> (f64, f64) {
        let from = (
            self.from_position.get(joint).copied().unwrap_or(f64::NAN),
            self.from_velocity.get(joint).copied().unwrap_or(0.0),
        );
        let n = self.joints;
        let acceleration = |i: usize| -> f64 {
            if self.has_accelerations {
                self.accelerations
                    .get(i * n + joint)
                    .copied()
                    .unwrap_or(0.0)
            } else {
                f64::NAN
            }
        };
        let point = |i: usize| -> (f64, f64, f64) {
            let time = self.times.get(i).copied().unwrap_or(0.0);
            let position = self
                .positions
                .get(i * n + joint)
                .copied()
                .unwrap_or(f64::NAN);
            let velocity = if self.has_velocities {
                self.velocities.get(i * n + joint).copied().unwrap_or(0.0)
            } else {
                f64::NAN // linear: the segment's own slope
            };
            // A joint the message left out holds where it was.
            if position.is_nan() {
                (time, from.0, 0.0)
            } else {
                (time, position, velocity)
            }
        };
        if self.times.is_empty() || t <= 0.0 {
            return from;
        }
        // The first point after `t`; past the last, hold it.
        let Some(next) = self.times.iter().position(|&time| time > t) else {
            let (_, position, _) = point(self.times.len() - 1);
            return (position, 0.0);
        };
        let (t0, p0, v0) = match next {
            0 => (
                0.0,
                from.0,
                if self.has_velocities {
                    from.1
                } else {
                    f64::NAN
                },
            ),
            i => point(i - 1),
        };
        let (t1, p1, v1) = point(next);
        let span = t1 - t0;
        if span <= 0.0 {
            return (p1, 0.0);
        }
        let s = (t - t0) / span;
        if v0.is_nan() || v1.is_nan() {
            return (p0 + (p1 - p0) * s, (p1 - p0) / span);
        }
        // Where the message gave accelerations (the start taken over at none), and the joint
        // is in both points: quintic.
        let (a0, a1) = (
            if next == 0 {
                0.0
            } else {
                acceleration(next - 1)
            },
            acceleration(next),
        );
        let left_out = |i: usize| self.positions.get(i * n + joint).is_none_or(|p| p.is_nan());
        if !a0.is_nan() && !a1.is_nan() && !left_out(next) && (next == 0 || !left_out(next - 1)) {
            return quintic(t - t0, span, (p0, v0, a0), (p1, v1, a1));
        }
        // Cubic Hermite: positions and velocities met at both ends.
        let (s2, s3) = (s * s, s * s * s);
        let position = (2.0 * s3 - 3.0 * s2 + 1.0) * p0
            + (s3 - 2.0 * s2 + s) * span * v0
            + (-2.0 * s3 + 3.0 * s2) * p1
            + (s3 - s2) * span * v1;
        let velocity = ((6.0 * s2 - 6.0 * s) * p0
            + (3.0 * s2 - 4.0 * s + 1.0) * span * v0
            + (-6.0 * s2 + 6.0 * s) * p1
            + (3.0 * s2 - 2.0 * s) * span * v1)
            / span;
        (position, velocity)
    }
}

/// The quintic through `(position, velocity, acceleration)` `from` at 0 and `to` at `span`,
/// sampled at `tau`: position and velocity.
fn quintic(tau: f64, span: f64, from: (f64, f64, f64), to: (f64, f64, f64)) -> (f64, f64) {
    let ((p0, v0, a0), (p1, v1, a1)) = (from, to);
    let (t2, t3) = (span * span, span * span * span);
    let c3 = (20.0 * (p1 - p0) - (8.0 * v1 + 12.0 * v0) * span - (3.0 * a0 - a1) * t2) / (2.0 * t3);
    let c4 = (30.0 * (p0 - p1) + (14.0 * v1 + 16.0 * v0) * span + (3.0 * a0 - 2.0 * a1) * t2)
        / (2.0 * t3 * span);
    let c5 = (12.0 * (p1 - p0) - 6.0 * (v1 + v0) * span - (a0 - a1) * t2) / (2.0 * t3 * t2);
    let c = [p0, v0, a0 / 2.0, c3, c4, c5];
    let position = c.iter().rev().fold(0.0, |acc, k| acc * tau + k);
    let velocity = (1..6).rev().fold(0.0, |acc, i| acc * tau + i as f64 * c[i]);
    (position, velocity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn linear_without_velocities_and_holding_after_the_end() {
        let mut t = Trajectory::with_capacity(2);
        t.reset(0, false, false);
        assert!(t.push(1.0, &[1.0, -1.0], &[], &[]));
        assert!(t.push(3.0, &[2.0, f64::NAN], &[], &[]));
        t.take_over(&[0.0, 0.5], &[0.0, 0.0]);
        assert_eq!(
            t.sample(0, -1.0),
            (0.0, 0.0),
            "before the start: where it took over"
        );
        let (p, v) = t.sample(0, 0.5);
        assert!(close(p, 0.5) && close(v, 1.0), "{p} {v}");
        let (p, v) = t.sample(0, 2.0);
        assert!(close(p, 1.5) && close(v, 0.5), "{p} {v}");
        assert_eq!(t.sample(0, 3.0), (2.0, 0.0), "at the end: holds");
        assert_eq!(t.sample(0, 10.0), (2.0, 0.0));
        // Joint 1 is left out of the second point: it holds where it took over.
        let (p, _) = t.sample(1, 3.5);
        assert!(close(p, 0.5), "{p}");
    }

    #[test]
    fn cubic_meets_positions_and_velocities_at_both_ends() {
        let mut t = Trajectory::with_capacity(1);
        t.reset(0, true, false);
        assert!(t.push(1.0, &[1.0], &[0.5], &[]));
        assert!(t.push(2.0, &[0.0], &[0.0], &[]));
        t.take_over(&[0.0], &[0.2]);
        let (p, v) = t.sample(0, 1e-9);
        assert!(close(p, 0.0) && (v - 0.2).abs() < 1e-6, "{p} {v}");
        let (p, v) = t.sample(0, 1.0 - 1e-9);
        assert!((p - 1.0).abs() < 1e-6 && (v - 0.5).abs() < 1e-6, "{p} {v}");
        let (p, v) = t.sample(0, 1.5);
        // Hermite midpoint: (p0 + p1)/2 + span (v0 − v1)/8.
        assert!(close(p, 0.5 + 0.5 / 8.0), "{p}");
        assert!(close(v, 1.5 * (0.0 - 1.0) - 0.25 * (0.5 + 0.0)), "{v}");
    }

    #[test]
    fn a_full_buffer_or_a_wrong_length_takes_no_point() {
        let mut t = Trajectory::with_capacity(1);
        t.reset(0, false, false);
        assert!(!t.push(1.0, &[1.0, 2.0], &[], &[]));
        for i in 0..MAX_POINTS {
            assert!(t.push(i as f64 + 1.0, &[0.0], &[], &[]));
        }
        assert!(!t.push(1e6, &[0.0], &[], &[]));
        assert_eq!(t.len(), MAX_POINTS);
    }

    #[test]
    fn quintic_meets_positions_velocities_and_accelerations_at_both_ends() {
        let mut t = Trajectory::with_capacity(1);
        t.reset(0, true, true);
        assert!(t.push(1.0, &[1.0], &[0.5], &[2.0]));
        assert!(t.push(3.0, &[-1.0], &[0.0], &[-1.0]));
        t.take_over(&[0.2], &[0.1]);
        let eps = 1e-6;
        let (p, v) = t.sample(0, eps);
        assert!((p - 0.2).abs() < 1e-5 && (v - 0.1).abs() < 1e-4, "{p} {v}");
        let (p, v) = t.sample(0, 1.0 - eps);
        assert!((p - 1.0).abs() < 1e-5 && (v - 0.5).abs() < 1e-4, "{p} {v}");
        // The acceleration at the first point, from both sides, by differences of velocity.
        let h = 1e-4;
        let before = (t.sample(0, 1.0 - h).1 - t.sample(0, 1.0 - 2.0 * h).1) / h;
        let after = (t.sample(0, 1.0 + 2.0 * h).1 - t.sample(0, 1.0 + h).1) / h;
        assert!(
            (before - 2.0).abs() < 0.01 && (after - 2.0).abs() < 0.01,
            "{before} {after}"
        );
        let (p, v) = t.sample(0, 3.0 - eps);
        assert!((p + 1.0).abs() < 1e-5 && v.abs() < 1e-4, "{p} {v}");
        let end = (t.sample(0, 3.0 - h).1 - t.sample(0, 3.0 - 2.0 * h).1) / h;
        assert!((end + 1.0).abs() < 0.01, "{end}");
    }
}
