//! How the control thread follows one group, every cycle, allocating nothing: take the newest
//! accepted trajectory once its start has come, sample it, check the tolerances it carries as
//! joint_trajectory_controller checks them, write the command, and tell the intake how a goal
//! ended and, every [`report::SAMPLE_RATE_HZ`]th of a second, where the group is meant to be
//! and is.
//!
//! The tolerance rules are JTC's `update`: until the last point's time (and on the first
//! sample) every joint within its path tolerance, else the trajectory ends
//! (PATH_TOLERANCE_VIOLATED) and the group holds where it is measured; past the last point,
//! every joint within its goal tolerance ends it SUCCEEDED, holding the last point; still
//! outside once the goal time tolerance (when not zero) has passed ends it
//! GOAL_TOLERANCE_VIOLATED, holding where measured. A zero tolerance is not checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use robot_runtime::Mit;
use robot_runtime::gravity::GravityFeedforward;

use crate::group::Group;
use crate::intake::Handoff;
use crate::report::{Ended, Outcome, SAMPLE_RATE_HZ, Violation};
use crate::tolerance::Constraints;
use crate::trajectory::{Hold, Trajectory};

/// One group and how the control thread follows it.
#[derive(Debug)]
pub(crate) struct Following {
    pub(crate) group: Group,
    /// Its controller's `allow_partial_joints_goal`: the intake reads it for every goal, so it
    /// may be set while the robot runs.
    pub(crate) allow_partial: Arc<AtomicBool>,
    /// Whether the controller is active: the intake refuses goals while it is not.
    pub(crate) active: Arc<AtomicBool>,
    /// Its `constraints` parameters (the intake reads them for every trajectory; set while the
    /// robot runs).
    pub(crate) constraints: Arc<Mutex<Constraints>>,
    /// The control thread's end of the group's rings, from the first activation on.
    pub(crate) handoff: Option<Handoff>,
    /// The trajectory followed.
    current: Option<Trajectory>,
    /// The newest accepted one, until its start time.
    pending: Option<Trajectory>,
    /// The current one is past its end, or ended by a tolerance: no more checks.
    finished: bool,
    /// The next sample is the current one's first.
    first_sample: bool,
    /// Where each joint is meant to be now, and how fast.
    position: Vec<f64>,
    velocity: Vec<f64>,
    /// Where each joint is measured to be, and how fast (0 without a velocity state).
    measured_position: Vec<f64>,
    measured_velocity: Vec<f64>,
    /// When the last sample was reported, ns of ROS time.
    reported_ns: Option<i128>,
    /// The gravity torque fed forward through the joints' `effort`, where the group's
    /// definition asks for it (`feedforward: gravity`).
    gravity: Option<GravityFeedforward>,
}

impl Following {
    /// Group `group`, holding still, not yet taking trajectories; feeding `gravity`'s torque
    /// forward where given.
    pub(crate) fn new(
        group: Group,
        allow_partial: bool,
        gravity: Option<GravityFeedforward>,
    ) -> Following {
        let joints = group.joints.len();
        Following {
            group,
            allow_partial: Arc::new(AtomicBool::new(allow_partial)),
            active: Arc::new(AtomicBool::new(false)),
            constraints: Arc::new(Mutex::new(Constraints::defaults(joints))),
            handoff: None,
            current: None,
            pending: None,
            finished: true,
            first_sample: false,
            position: vec![0.0; joints],
            velocity: vec![0.0; joints],
            measured_position: vec![0.0; joints],
            measured_velocity: vec![0.0; joints],
            reported_ns: None,
            gravity,
        }
    }

    /// One cycle at `now_ns` (ROS time): `state` read, the group's commands written into
    /// `values`. Allocates nothing.
    pub(crate) fn update(&mut self, now_ns: i128, state: &[f64], values: &mut [f64]) {
        self.measure(state);
        self.advance(now_ns);
        self.sample(now_ns);
        let ended = self.check(now_ns);
        self.write(values);
        self.report(now_ns, ended);
    }

    /// Holds where each joint is measured in `state` (no jump on activation), dropping what it
    /// followed and what waited.
    pub(crate) fn hold(&mut self, state: &[f64], values: &mut [f64]) {
        self.measure(state);
        self.hold_measured();
        if let Some(waiting) = self.pending.take() {
            self.give_back(waiting);
        }
        self.write(values);
    }

    /// Reads where each joint is (every joint of the robot, for the gravity torque).
    fn measure(&mut self, state: &[f64]) {
        if let Some(gravity) = &mut self.gravity {
            gravity.measure(state);
        }
        let read = |slot: Option<usize>| slot.and_then(|s| state.get(s).copied());
        for (joint, (position, velocity)) in (self.group.joints.iter()).zip(
            self.measured_position
                .iter_mut()
                .zip(&mut self.measured_velocity),
        ) {
            *position = read(joint.state_position).unwrap_or(f64::NAN);
            *velocity = read(joint.state_velocity)
                .filter(|v| v.is_finite())
                .unwrap_or(0.0);
        }
    }

    /// Holds where each joint is measured (within its limits), dropping the current trajectory.
    fn hold_measured(&mut self) {
        for ((joint, position), measured) in (self.group.joints.iter())
            .zip(&mut self.position)
            .zip(&self.measured_position)
        {
            // No measurement: where it was meant to be.
            let at = if measured.is_finite() {
                *measured
            } else {
                *position
            };
            *position = joint.clamp(if at.is_finite() { at } else { 0.0 });
        }
        self.velocity.fill(0.0);
        if let Some(done) = self.current.take() {
            self.give_back(done);
        }
        self.finished = true;
    }

    /// Gives a trajectory's buffer back to the intake.
    fn give_back(&mut self, trajectory: Trajectory) {
        if let Some(handoff) = &mut self.handoff {
            handoff.give_back(trajectory);
        }
    }

    /// Takes the newest accepted trajectory, and switches to it once its start has come.
    fn advance(&mut self, now_ns: i128) {
        let Some(handoff) = &mut self.handoff else {
            return;
        };
        while let Ok(newer) = handoff.filled.pop() {
            if let Some(older) = self.pending.replace(newer) {
                handoff.give_back(older);
            }
        }
        let due = self.pending.as_ref().is_some_and(|p| p.start_ns <= now_ns);
        if !due {
            return;
        }
        let Some(mut next) = self.pending.take() else {
            return;
        };
        match next.stop {
            Some(Hold::Desired) => {
                // Stop: hold where the group is meant to be now.
                if let Some(done) = self.current.take() {
                    self.give_back(done);
                }
                self.velocity.fill(0.0);
                self.finished = true;
                self.give_back(next);
            }
            Some(Hold::Measured) => {
                self.hold_measured();
                self.give_back(next);
            }
            None => {
                next.take_over(&self.position, &self.velocity);
                if let Some(done) = self.current.replace(next) {
                    self.give_back(done);
                }
                self.finished = false;
                self.first_sample = true;
            }
        }
    }

    /// Where each joint is meant to be at `now_ns`.
    fn sample(&mut self, now_ns: i128) {
        let Some(current) = &self.current else {
            self.velocity.fill(0.0);
            return;
        };
        let t = (now_ns - current.start_ns) as f64 * 1e-9;
        for (joint, (position, velocity)) in
            self.position.iter_mut().zip(&mut self.velocity).enumerate()
        {
            (*position, *velocity) = current.sample(joint, t);
        }
    }

    /// Checks the current trajectory's tolerances at `now_ns`; how it ended, if it did.
    fn check(&mut self, now_ns: i128) -> Option<Ended> {
        let current = self.current.as_ref().filter(|_| !self.finished)?;
        let since = (now_ns - current.start_ns) as f64 * 1e-9;
        let before_last_point = since < current.duration();
        let tolerances = &current.tolerances;
        let mut path = None;
        let mut goal = None;
        for joint in 0..self.group.joints.len() {
            let position_error = self.position[joint] - self.measured_position[joint];
            let velocity_error = self.velocity[joint] - self.measured_velocity[joint];
            let violation = |tolerance| Violation {
                joint,
                position_error,
                velocity_error,
                tolerance,
            };
            if before_last_point || self.first_sample {
                let within = tolerances.path.get(joint);
                if let Some(t) = within.filter(|t| !t.holds(position_error, velocity_error)) {
                    path.get_or_insert(violation(*t));
                }
            }
            if !before_last_point {
                let within = tolerances.goal.get(joint);
                if let Some(t) = within.filter(|t| !t.holds(position_error, velocity_error)) {
                    goal.get_or_insert(violation(*t));
                }
            }
        }
        self.first_sample = false;
        let late = since - current.duration();
        let goal_time = tolerances.goal_time;
        let outcome = match (path, goal) {
            (Some(violation), _) => Outcome::PathViolated(violation),
            _ if before_last_point => return None,
            (None, None) => Outcome::Succeeded,
            (None, Some(violation)) if goal_time > 0.0 && late > goal_time => {
                Outcome::GoalViolated { violation, late }
            }
            // Outside the goal tolerance, within the goal time (or none): not yet.
            (None, Some(_)) => return None,
        };
        let ended = Ended {
            goal: current.goal,
            outcome,
        };
        match outcome {
            // Holds the last point: the trajectory is sampled past its end.
            Outcome::Succeeded => self.finished = true,
            _ => self.hold_measured(),
        }
        if let Some(handoff) = &mut self.handoff {
            // The intake polls every millisecond; a full ring means it stopped (the ending is
            // then said by nobody, and the group holds all the same).
            let _ = handoff.ended.push(ended);
        }
        Some(ended)
    }

    /// The goal being followed: its tag, while it has not ended.
    fn following_goal(&self) -> u64 {
        (self.current.as_ref())
            .filter(|_| !self.finished)
            .map_or(0, |c| c.goal)
    }

    /// Every [`SAMPLE_RATE_HZ`]th of a second, and when a goal ended (with the goal that
    /// ended), the group's state to the intake. Allocates nothing.
    fn report(&mut self, now_ns: i128, ended: Option<Ended>) {
        let period = 1_000_000_000 / SAMPLE_RATE_HZ;
        let due = self.reported_ns.is_none_or(|at| now_ns - at >= period);
        if !due && ended.is_none() {
            return;
        }
        let goal = ended.map_or_else(|| self.following_goal(), |e| e.goal);
        let since_start =
            (self.current.as_ref()).map_or(0.0, |c| (now_ns - c.start_ns) as f64 * 1e-9);
        let Some(handoff) = &mut self.handoff else {
            return;
        };
        let Some(mut sample) = handoff.take_sample() else {
            return; // the intake holds every buffer: skip this one
        };
        sample.at_ns = now_ns;
        sample.goal = goal;
        sample.since_start = since_start;
        let copy = |into: &mut Vec<f64>, from: &[f64]| {
            for (to, value) in into.iter_mut().zip(from) {
                *to = *value;
            }
        };
        copy(&mut sample.desired_position, &self.position);
        copy(&mut sample.desired_velocity, &self.velocity);
        copy(&mut sample.measured_position, &self.measured_position);
        copy(&mut sample.measured_velocity, &self.measured_velocity);
        for ((to, joint), position) in (sample.commanded_position.iter_mut())
            .zip(&self.group.joints)
            .zip(&self.position)
        {
            *to = joint.clamp(*position);
        }
        if let Err(rtrb::PushError::Full(sample)) = handoff.samples.push(sample) {
            handoff.spare_sample = Some(sample);
        }
        self.reported_ns = Some(now_ns);
    }

    /// The group's desired state into the command, with the gravity torque at the desired
    /// positions where it is fed forward. Allocates nothing.
    fn write(&mut self, values: &mut [f64]) {
        if let Some(gravity) = &mut self.gravity {
            for (joint, position) in self.group.joints.iter().zip(&self.position) {
                gravity.set_position(joint.index, joint.clamp(*position));
            }
            gravity.compute();
        }
        let joints = self.group.joints.iter();
        for ((joint, position), velocity) in joints.zip(&self.position).zip(&self.velocity) {
            let effort = (self.gravity.as_ref()).map_or(0.0, |g| g.torque(joint.index));
            let desired = Mit {
                position: joint.clamp(*position),
                velocity: *velocity,
                effort,
                stiffness: joint.gains.0,
                damping: joint.gains.1,
            };
            joint.command.write(&desired, values);
        }
    }

    /// The controller is active (goals taken) or not (refused, the running one aborted).
    pub(crate) fn set_active(&self, active: bool) {
        self.active.store(active, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::GroupJoint;
    use crate::report::Outcome;
    use crate::tolerance::{StateTolerance, Tolerances};

    const MS: i128 = 1_000_000;

    /// One joint, its measured position in state slot 0, its command in slot 0; and the
    /// intake's ends of its rings.
    fn follower() -> (Following, rtrb::Producer<Trajectory>, rtrb::Consumer<Ended>) {
        let group = Group {
            controller: "c".into(),
            topic: "/c/joint_trajectory".into(),
            action: "/c/follow_joint_trajectory".into(),
            state_topic: "/c/controller_state".into(),
            joints: vec![GroupJoint {
                name: "elbow".into(),
                index: 0,
                lower: Some(-2.0),
                upper: Some(2.0),
                state_position: Some(0),
                state_velocity: None,
                command: robot_runtime::actuator::MitSlots {
                    position: Some(0),
                    ..Default::default()
                },
                gains: (0.0, 0.0),
            }],
            feedforward: Default::default(),
        };
        let mut following = Following::new(group, false, None);
        let (filled_in, filled) = rtrb::RingBuffer::new(4);
        let (spent, _spent_out) = rtrb::RingBuffer::new(4);
        let (ended, ended_out) = rtrb::RingBuffer::new(4);
        let (samples, _samples_out) = rtrb::RingBuffer::new(4);
        let (_spent_samples_in, spent_samples) = rtrb::RingBuffer::new(4);
        following.handoff = Some(Handoff {
            filled,
            spent,
            ended,
            samples,
            spent_samples,
            spare_sample: None,
        });
        (following, filled_in, ended_out)
    }

    /// Goal 7: the elbow to 1.0 in 100 ms, within `goal` of it by `goal_time` after.
    fn goal(goal: f64, goal_time: f64, path: f64) -> Trajectory {
        let mut t = Trajectory::with_capacity(1);
        t.reset(0, false, false);
        assert!(t.push(0.1, &[1.0], &[], &[]));
        t.goal = 7;
        let tolerance = |position| StateTolerance {
            position,
            ..StateTolerance::default()
        };
        t.tolerances = Tolerances {
            path: vec![tolerance(path)],
            goal: vec![tolerance(goal)],
            goal_time,
        };
        t
    }

    /// Runs cycles every ms from 0 to `until_ms`, the elbow measured at `measured(command)`;
    /// the endings reported.
    fn run(
        trajectory: Trajectory,
        until_ms: i128,
        measured: impl Fn(f64) -> f64,
    ) -> (Vec<(i128, Ended)>, f64) {
        let (mut following, mut filled, mut ended) = follower();
        let (mut state, mut command) = ([0.0], [0.0]);
        following.hold(&state, &mut command);
        filled.push(trajectory).unwrap();
        let mut endings = Vec::new();
        for ms in 0..=until_ms {
            following.update(ms * MS, &state, &mut command);
            state[0] = measured(command[0]);
            while let Ok(e) = ended.pop() {
                endings.push((ms, e));
            }
        }
        (endings, command[0])
    }

    #[test]
    fn a_goal_reached_within_its_tolerance_succeeds_once_past_its_last_point() {
        let (endings, command) = run(goal(0.01, 0.0, 0.0), 300, |c| c);
        assert_eq!(endings.len(), 1, "{endings:?}");
        let (at, ended) = endings[0];
        assert_eq!((ended.goal, ended.outcome), (7, Outcome::Succeeded));
        assert!((100..=102).contains(&at), "{at}");
        assert_eq!(command, 1.0, "holds the last point");
    }

    #[test]
    fn a_joint_that_never_arrives_ends_goal_tolerance_violated_after_the_goal_time() {
        // Stuck 0.1 short of every command; 50 ms allowed after the last point.
        let (endings, command) = run(goal(0.01, 0.05, 0.0), 400, |c| c - 0.1);
        assert_eq!(endings.len(), 1, "{endings:?}");
        let (at, ended) = endings[0];
        let Outcome::GoalViolated { violation, late } = ended.outcome else {
            panic!("{ended:?}");
        };
        assert!((150..=152).contains(&at) && late > 0.05, "{at} {late}");
        assert!(
            (violation.position_error - 0.1).abs() < 1e-9,
            "{violation:?}"
        );
        // Holding where measured when it ended: no jump.
        assert!(command < 1.0, "{command}");
    }

    #[test]
    fn outside_the_goal_tolerance_with_no_goal_time_it_waits() {
        let (endings, _) = run(goal(0.01, 0.0, 0.0), 400, |c| c - 0.1);
        assert!(endings.is_empty(), "{endings:?}");
    }

    #[test]
    fn a_path_tolerance_crossed_on_the_way_ends_it_and_holds_where_measured() {
        // Lagging 5 ms behind the command: 0.05 rad at 10 rad/s, beyond 0.02.
        let lag = std::cell::Cell::new([0.0; 5]);
        let (endings, command) = run(goal(0.0, 0.0, 0.02), 300, |c| {
            let mut l = lag.get();
            let out = l[0];
            l.rotate_left(1);
            l[4] = c;
            lag.set(l);
            out
        });
        assert_eq!(endings.len(), 1, "{endings:?}");
        let (at, ended) = endings[0];
        assert!(
            matches!(ended.outcome, Outcome::PathViolated(_)),
            "{ended:?}"
        );
        assert!(at < 100, "{at}");
        assert!(command < 0.5, "holds where it was measured: {command}");
    }
}
