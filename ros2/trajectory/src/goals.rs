//! A trajectory controller's FollowJointTrajectory action on the intake thread, with
//! joint_trajectory_controller's semantics:
//!
//! * a goal is checked as it arrives (on the participant's thread) as a topic message is, and
//!   rejected with the reason on stderr, or while the controller is not active;
//! * an accepted goal executes at once; it preempts the running one, which ends ABORTED
//!   (`INVALID_GOAL`, "Current goal preempted by new incoming action.");
//! * its tolerances are the controller's `constraints` with the goal's over them;
//! * feedback (desired, actual, error) at `action_monitor_rate` (20 Hz) while it runs;
//! * it ends SUCCEEDED, or ABORTED with PATH_ or GOAL_TOLERANCE_VIOLATED holding where the
//!   joints are, as the control thread saw it;
//! * cancelled, the group holds where it is measured and the goal ends CANCELED;
//! * the controller deactivated, it ends ABORTED.
//!
//! One difference, on purpose: a trajectory on the `joint_trajectory` topic ends a running goal
//! ABORTED (JTC leaves the goal to be judged against the topic's trajectory).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ros2_dds::{ActionServer, Node, WireError};
use ros2_msg::action::{Uuid, goal_status};
use ros2_msg::control::{
    FollowJointTrajectory, FollowJointTrajectoryFeedback, FollowJointTrajectoryGoal,
    FollowJointTrajectoryResult, error_code,
};
use ros2_msg::msg::{JointTrajectoryPoint, Time};

use crate::group::Group;
use crate::intake::{Clock, TrajectoryStats};
use crate::report::{Ended, Outcome, Sample, Violation};
use crate::trajectory::Trajectory;
use crate::validate;

/// joint_trajectory_controller's `action_monitor_rate` default: feedback this often, Hz.
pub const ACTION_MONITOR_RATE_HZ: i128 = 20;

/// The goal running.
#[derive(Debug)]
struct Running {
    id: Uuid,
    tag: u64,
    /// When its last feedback went out, ns of ROS time.
    fed_back_ns: Option<i128>,
}

/// One group's action server and the goal it runs.
pub(crate) struct Goals {
    server: ActionServer<FollowJointTrajectory>,
    running: Option<Running>,
    /// The tag of the next goal (0 is the topic's).
    next_tag: u64,
    /// Asked to cancel but not yet stopped (no free buffer for the stop): tried again.
    stopping: Option<Uuid>,
}

impl std::fmt::Debug for Goals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Goals")
            .field("action", &self.server.name())
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

/// A result of `code` and `text`.
fn result(code: i32, text: impl Into<String>) -> FollowJointTrajectoryResult {
    FollowJointTrajectoryResult {
        error_code: code,
        error_string: text.into(),
    }
}

/// What checks a goal as it arrives, on the participant's thread.
pub(crate) struct Gate {
    pub(crate) group: Group,
    pub(crate) allow_partial: Arc<AtomicBool>,
    pub(crate) active: Arc<AtomicBool>,
    pub(crate) clock: Clock,
    pub(crate) stats: Arc<TrajectoryStats>,
}

impl Gate {
    /// Whether to accept `goal`; the reason on stderr when not.
    fn accept(&self, goal: &FollowJointTrajectoryGoal, scratch: &mut Trajectory) -> bool {
        self.stats.received.fetch_add(1, Ordering::Relaxed);
        let action = &self.group.action;
        if !self.active.load(Ordering::Acquire) {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
            eprintln!(
                "{action}: goal rejected: {} is not active (switch it on with the controller \
                 manager)",
                self.group.controller
            );
            return false;
        }
        let now = self.clock.now();
        let checked = validate::fill(
            &self.group,
            &goal.trajectory,
            now,
            now,
            self.allow_partial.load(Ordering::Relaxed),
            scratch,
        );
        if let Err(refusal) = checked {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
            eprintln!("{action}: goal rejected: {refusal}");
            return false;
        }
        true
    }
}

impl Goals {
    /// Serves `group.action` on `node`, goals checked by `gate`.
    pub(crate) fn serve(node: &Node, gate: Gate) -> Result<Goals, WireError> {
        let mut scratch = Trajectory::with_capacity(gate.group.joints.len());
        let action = gate.group.action.clone();
        let server = node.action_server::<FollowJointTrajectory>(&action, move |_, goal| {
            gate.accept(goal, &mut scratch)
        })?;
        Ok(Goals {
            server,
            running: None,
            next_tag: 1,
            stopping: None,
        })
    }

    /// Ends the running goal, if any, with `status` and `result`.
    fn end_running(&mut self, status: i8, result: FollowJointTrajectoryResult) {
        if let Some(running) = self.running.take() {
            self.server.finish(&running.id, status, result);
        }
    }

    /// A trajectory from the topic was handed over: the running goal is over.
    pub(crate) fn preempted_by_topic(&mut self, topic: &str) {
        self.end_running(
            goal_status::ABORTED,
            result(
                error_code::INVALID_GOAL,
                format!("Current goal preempted by a trajectory on {topic}."),
            ),
        );
    }

    /// The next accepted goal to run; one cancelled before it ran ends CANCELED here.
    pub(crate) fn next(&mut self) -> Option<(Uuid, FollowJointTrajectoryGoal)> {
        while let Some((id, goal)) = self.server.take_goal() {
            if self.server.cancel_requested(&id) {
                self.server.finish(
                    &id,
                    goal_status::CANCELED,
                    FollowJointTrajectoryResult::default(),
                );
                continue;
            }
            return Some((id, goal));
        }
        None
    }

    /// The tag for the next goal handed over.
    pub(crate) fn next_tag(&mut self) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        tag
    }

    /// Goal `id` could not be handed over: it ends ABORTED, saying `why`.
    pub(crate) fn refuse(&mut self, id: &Uuid, why: String) {
        eprintln!("{}: goal aborted: {why}", self.server.name());
        self.server.finish(
            id,
            goal_status::ABORTED,
            result(error_code::INVALID_GOAL, why),
        );
    }

    /// Goal `id` was handed over as `tag`: it runs, and the one running before ends ABORTED.
    pub(crate) fn run(&mut self, id: Uuid, tag: u64) {
        self.end_running(
            goal_status::ABORTED,
            result(
                error_code::INVALID_GOAL,
                "Current goal preempted by new incoming action.",
            ),
        );
        self.server.executing(&id);
        self.running = Some(Running {
            id,
            tag,
            fed_back_ns: None,
        });
    }

    /// Whether a goal runs.
    pub(crate) fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The controller was switched off: the running goal is over.
    pub(crate) fn deactivated(&mut self) {
        self.end_running(
            goal_status::ABORTED,
            result(
                error_code::INVALID_GOAL,
                "Current goal cancelled during deactivate transition.",
            ),
        );
    }

    /// The goal to stop for a cancel, if one was asked: its id (CANCELED once the stop is
    /// handed over, [`Goals::stopped`]).
    pub(crate) fn cancel_asked(&mut self) -> bool {
        if let Some(running) = &self.running
            && self.server.cancel_requested(&running.id)
        {
            self.stopping = Some(running.id.clone());
        }
        self.stopping.is_some()
    }

    /// The stop for the cancel was handed over: the goal ends CANCELED.
    pub(crate) fn stopped(&mut self) {
        if let Some(id) = self.stopping.take() {
            eprintln!("{}: goal cancelled; holding position", self.server.name());
            self.server.finish(
                &id,
                goal_status::CANCELED,
                FollowJointTrajectoryResult::default(),
            );
            if self.running.as_ref().is_some_and(|r| r.id == id) {
                self.running = None;
            }
        }
    }

    /// Feedback from `sample`, when it is of the running goal and feedback is due.
    pub(crate) fn feedback(&mut self, group: &Group, sample: &Sample, force: bool) {
        let Some(running) = self.running.as_mut().filter(|r| r.tag == sample.goal) else {
            return;
        };
        let period = 1_000_000_000 / ACTION_MONITOR_RATE_HZ;
        if !force
            && running
                .fed_back_ns
                .is_some_and(|at| sample.at_ns - at < period)
        {
            return;
        }
        running.fed_back_ns = Some(sample.at_ns);
        let (desired, actual, error) = points(sample);
        let feedback = FollowJointTrajectoryFeedback {
            header: ros2_msg::msg::Header {
                stamp: Time::from_nanos(sample.at_ns),
                frame_id: String::new(),
            },
            joint_names: group.joints.iter().map(|j| j.name.clone()).collect(),
            desired,
            actual,
            error,
            ..FollowJointTrajectoryFeedback::default()
        };
        self.server.feedback(&running.id, feedback);
    }

    /// How trajectory `ended` ended, said to its goal's client (and on stderr).
    pub(crate) fn ended(&mut self, group: &Group, ended: &Ended) {
        let running = self.running.as_ref().is_some_and(|r| r.tag == ended.goal);
        let (status, result) = outcome(group, &ended.outcome);
        if ended.goal == 0 || !running {
            if !matches!(ended.outcome, Outcome::Succeeded) {
                eprintln!("{}: {}; holding position", group.topic, result.error_string);
            }
            return;
        }
        if status != goal_status::SUCCEEDED {
            eprintln!(
                "{}: {}; holding position",
                group.action, result.error_string
            );
        }
        self.end_running(status, result);
    }
}

/// The status and result of `outcome`, in JTC's words with the joint that broke it.
fn outcome(group: &Group, outcome: &Outcome) -> (i8, FollowJointTrajectoryResult) {
    let name = |v: &Violation| {
        (group.joints.get(v.joint))
            .map_or("?", |j| j.name.as_str())
            .to_string()
    };
    let detail = |v: &Violation| {
        let mut said = format!(
            "`{}` was {:.4} from where it was meant to be (tolerance {})",
            name(v),
            v.position_error,
            v.tolerance.position
        );
        if v.tolerance.velocity > 0.0 {
            said += &format!(
                ", its velocity {:.4} off (tolerance {})",
                v.velocity_error, v.tolerance.velocity
            );
        }
        said
    };
    match outcome {
        Outcome::Succeeded => (
            goal_status::SUCCEEDED,
            result(error_code::SUCCESSFUL, "Goal successfully reached!"),
        ),
        Outcome::PathViolated(v) => (
            goal_status::ABORTED,
            result(
                error_code::PATH_TOLERANCE_VIOLATED,
                format!("Aborted due to path tolerance violation: {}", detail(v)),
            ),
        ),
        Outcome::GoalViolated { violation, late } => (
            goal_status::ABORTED,
            result(
                error_code::GOAL_TOLERANCE_VIOLATED,
                format!(
                    "Aborted due to goal_time_tolerance exceeding by {late:.6} seconds: {}",
                    detail(violation)
                ),
            ),
        ),
    }
}

/// A sample's desired, actual and error points.
pub(crate) fn points(
    sample: &Sample,
) -> (
    JointTrajectoryPoint,
    JointTrajectoryPoint,
    JointTrajectoryPoint,
) {
    let from_start = {
        let t = Time::from_nanos((sample.since_start.max(0.0) * 1e9) as i128);
        ros2_msg::msg::Duration {
            sec: t.sec,
            nanosec: t.nanosec,
        }
    };
    let point = |positions: Vec<f64>, velocities: Vec<f64>| JointTrajectoryPoint {
        positions,
        velocities,
        time_from_start: from_start.clone(),
        ..JointTrajectoryPoint::default()
    };
    let minus = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(a, b)| a - b).collect();
    (
        point(
            sample.desired_position.clone(),
            sample.desired_velocity.clone(),
        ),
        point(
            sample.measured_position.clone(),
            sample.measured_velocity.clone(),
        ),
        point(
            minus(&sample.desired_position, &sample.measured_position),
            minus(&sample.desired_velocity, &sample.measured_velocity),
        ),
    )
}
