//! One accepted trajectory, in the group's joint order and preallocated for
//! [`MAX_POINTS`] points, and how it is sampled: from the state the group was in when it took
//! over, through each point at its time, cubic (Hermite) between points where the message gave
//! velocities, linear where it did not, holding the last point after the end.

/// The most points one trajectory may have: what the buffers are sized for, so that the control
/// thread never allocates.
pub const MAX_POINTS: usize = 1024;

/// A trajectory of one group (`joints` joints), or the order to stop and hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// Where it starts, ns of ROS time (since the Unix epoch).
    pub start_ns: i128,
    /// `true`: no points, stop and hold where the group is.
    pub stop: bool,
    joints: usize,
    /// Per point: seconds from the start.
    times: Vec<f64>,
    /// Per point, per joint: position (NaN: a joint the message left out, which holds).
    positions: Vec<f64>,
    /// Per point, per joint: velocity, when the message gave them.
    velocities: Vec<f64>,
    has_velocities: bool,
    /// Per joint: where the group was, and how fast, when this took over.
    from_position: Vec<f64>,
    from_velocity: Vec<f64>,
}

impl Trajectory {
    /// An empty buffer for a group of `joints` joints, with room for [`MAX_POINTS`] points.
    pub fn with_capacity(joints: usize) -> Trajectory {
        Trajectory {
            start_ns: 0,
            stop: true,
            joints,
            times: Vec::with_capacity(MAX_POINTS),
            positions: Vec::with_capacity(MAX_POINTS * joints),
            velocities: Vec::with_capacity(MAX_POINTS * joints),
            has_velocities: false,
            from_position: vec![0.0; joints],
            from_velocity: vec![0.0; joints],
        }
    }

    /// Empties it for refilling; `has_velocities`: whether the points will carry velocities.
    pub(crate) fn reset(&mut self, start_ns: i128, has_velocities: bool) {
        self.start_ns = start_ns;
        self.stop = false;
        self.has_velocities = has_velocities;
        self.times.clear();
        self.positions.clear();
        self.velocities.clear();
    }

    /// Makes it the order to stop, at `start_ns`.
    pub(crate) fn set_stop(&mut self, start_ns: i128) {
        self.reset(start_ns, false);
        self.stop = true;
    }

    /// Adds a point at `time` s: `positions` and `velocities` (ignored without) per group joint.
    /// `false` when full or given the wrong length (nothing added).
    pub(crate) fn push(&mut self, time: f64, positions: &[f64], velocities: &[f64]) -> bool {
        if self.times.len() >= MAX_POINTS
            || positions.len() != self.joints
            || (self.has_velocities && velocities.len() != self.joints)
        {
            return false;
        }
        self.times.push(time);
        self.positions.extend_from_slice(positions);
        if self.has_velocities {
            self.velocities.extend_from_slice(velocities);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn linear_without_velocities_and_holding_after_the_end() {
        let mut t = Trajectory::with_capacity(2);
        t.reset(0, false);
        assert!(t.push(1.0, &[1.0, -1.0], &[]));
        assert!(t.push(3.0, &[2.0, f64::NAN], &[]));
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
        t.reset(0, true);
        assert!(t.push(1.0, &[1.0], &[0.5]));
        assert!(t.push(2.0, &[0.0], &[0.0]));
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
        t.reset(0, false);
        assert!(!t.push(1.0, &[1.0, 2.0], &[]));
        for i in 0..MAX_POINTS {
            assert!(t.push(i as f64 + 1.0, &[0.0], &[]));
        }
        assert!(!t.push(1e6, &[0.0], &[]));
        assert_eq!(t.len(), MAX_POINTS);
    }
}
