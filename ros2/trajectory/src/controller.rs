//! The controller: joint_trajectory_controller's topic interface for every trajectory group of
//! the robot, through the typed command struct.
//!
//! On activation each group holds where it is measured to be. Every cycle it takes the newest
//! accepted trajectory of each group (the intake thread checked it); one whose start time has
//! come replaces what was left of the one before, starting from where the group was then meant
//! to be; an empty one stops and holds there. Positions are written within the joint's limits,
//! velocities where the joint takes them, zero effort, and on MIT joints the stiffness and
//! damping of the servo the backends stand in with ([`robot_runtime::hardware::ServoGains`]).

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use robot_runtime::Mit;
use robot_runtime::control_loop::{Controller, ControllerError};
use robot_runtime::hardware::Clock;
use robot_runtime::typed::{RobotTypes, Values};

use ros2_dds::Participant;

use crate::group::{Group, groups};
use crate::intake::{self, Handoff, IntakeError, IntakeThread, TrajectoryStats};
use crate::trajectory::Trajectory;

/// Where the controller takes goals and how.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrajectoryOptions {
    /// The controller manager's namespace its topics are in (`/robot1`); empty for none.
    pub namespace: String,
    /// joint_trajectory_controller's `allow_partial_joints_goal` (the emitted
    /// `controllers.yaml` says `false`): a goal naming only some joints moves those, the others
    /// hold.
    pub allow_partial_joints_goal: bool,
    /// ROS time is the loop's simulated clock from zero (`/clock`, `use_sim_time`): goal stamps
    /// are read on it. Otherwise the wall clock.
    pub use_sim_time: bool,
}

/// One group and how the control thread follows it.
#[derive(Debug)]
struct Following {
    group: Group,
    /// Its controller's `allow_partial_joints_goal`: the intake reads it for every goal, so it
    /// may be set while the robot runs.
    allow_partial: Arc<AtomicBool>,
    /// The control thread's end of the group's rings, from the first activation on.
    handoff: Option<Handoff>,
    /// The trajectory followed.
    current: Option<Trajectory>,
    /// The newest accepted one, until its start time.
    pending: Option<Trajectory>,
    /// Where each joint is meant to be now, and how fast.
    position: Vec<f64>,
    velocity: Vec<f64>,
}

/// Follows `trajectory_msgs/JointTrajectory` on `/<group>_trajectory_controller/joint_trajectory`
/// for every trajectory group of robot `R`.
pub struct TrajectoryController<R: RobotTypes> {
    options: TrajectoryOptions,
    /// The process's DDS participant, which its subscriptions are made on.
    participant: Participant,
    /// Every trajectory group of the robot, in the definition's order.
    following: Vec<Following>,
    stats: Arc<TrajectoryStats>,
    /// The intake thread, from the first activation on.
    intake: Option<IntakeThread>,
    /// ROS time (ns) when the loop's clock was zero, taken at the first update.
    epoch_ns: Option<i128>,
    /// ROS time now (ns), each cycle's, for the intake to read goal stamps on under simulated
    /// time.
    ros_now: Arc<AtomicI64>,
    _robot: PhantomData<fn() -> R>,
}

impl<R: RobotTypes> std::fmt::Debug for TrajectoryController<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrajectoryController")
            .field("options", &self.options)
            .field("groups", &self.following)
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> TrajectoryController<R> {
    /// A controller of every trajectory group of `R`, subscribing on `participant` (the
    /// process's) when first activated.
    pub fn new(options: TrajectoryOptions, participant: Participant) -> Self {
        let groups = groups(
            R::DESCRIPTION,
            &R::STATE_LAYOUT,
            &R::COMMAND_LAYOUT,
            &options.namespace,
        );
        TrajectoryController {
            following: (groups.into_iter())
                .map(|g| Following::new(g, options.allow_partial_joints_goal))
                .collect(),
            options,
            participant,
            stats: Arc::default(),
            intake: None,
            epoch_ns: None,
            ros_now: Arc::new(AtomicI64::new(0)),
            _robot: PhantomData,
        }
    }

    /// The controller of one group only, `controller` (`left_leg_trajectory_controller`), as
    /// a controller manager loads it; `None` when the robot has no such group.
    pub fn of_group(
        options: TrajectoryOptions,
        participant: Participant,
        controller: &str,
    ) -> Option<Self> {
        let mut this = Self::new(options, participant);
        this.following.retain(|f| f.group.controller == controller);
        (!this.following.is_empty()).then_some(this)
    }

    /// Subscribes to its topics and starts its intake now, rather than when first activated:
    /// for a controller a manager activates mid-run, on the control thread, which must not wait
    /// for the participant's thread (that thread may be waiting for the switch itself).
    pub fn connect(&mut self) -> Result<(), IntakeError> {
        if self.intake.is_some() {
            return Ok(());
        }
        let (thread, handoffs) = intake::start(
            &self.participant,
            &self.options.namespace,
            self.options.use_sim_time.then(|| self.ros_now.clone()),
            self.following.iter().map(|f| (&f.group, &f.allow_partial)),
            Arc::clone(&self.stats),
        )?;
        for (following, handoff) in self.following.iter_mut().zip(handoffs) {
            following.handoff = Some(handoff);
        }
        self.intake = Some(thread);
        Ok(())
    }

    /// The command slots it writes: every MIT interface its joints declare (on an MIT joint it
    /// writes the servo's stiffness and damping and a zero feed-forward effort beside the
    /// position and velocity).
    pub fn slots(&self) -> Vec<usize> {
        let mut slots: Vec<usize> = (self.following.iter())
            .flat_map(|f| &f.group.joints)
            .flat_map(|j| {
                let m = j.command;
                [m.position, m.velocity, m.effort, m.stiffness, m.damping]
            })
            .flatten()
            .collect();
        slots.sort_unstable();
        slots
    }

    /// The groups it follows trajectories for.
    pub fn groups(&self) -> impl Iterator<Item = &Group> {
        self.following.iter().map(|f| &f.group)
    }

    /// Each controller's name and its `allow_partial_joints_goal`, which takes effect from the
    /// next goal when set (the parameter a ROS user may set while the robot runs).
    pub fn allow_partial_joints_goal(&self) -> Vec<(String, Arc<AtomicBool>)> {
        (self.following.iter())
            .map(|f| (f.group.controller.clone(), f.allow_partial.clone()))
            .collect()
    }

    /// What it received, accepted and refused so far (shared: read it from another thread).
    pub fn stats(&self) -> Arc<TrajectoryStats> {
        Arc::clone(&self.stats)
    }

    fn join_graph(&mut self) -> Result<(), ControllerError> {
        self.connect()
            .map_err(|e| ControllerError::new(e.to_string()))
    }
}

impl Following {
    /// Group `group`, holding still, not yet taking trajectories.
    fn new(group: Group, allow_partial: bool) -> Following {
        let joints = group.joints.len();
        Following {
            group,
            allow_partial: Arc::new(AtomicBool::new(allow_partial)),
            handoff: None,
            current: None,
            pending: None,
            position: vec![0.0; joints],
            velocity: vec![0.0; joints],
        }
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
        if let Some(done) = self.current.take() {
            handoff.give_back(done);
        }
        if next.stop {
            // Stop: hold where the group is meant to be now.
            self.velocity.fill(0.0);
            handoff.give_back(next);
        } else {
            next.take_over(&self.position, &self.velocity);
            self.current = Some(next);
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

    /// The group's desired state into the command. Allocates nothing.
    fn write(&self, values: &mut [f64]) {
        let joints = self.group.joints.iter();
        for ((joint, position), velocity) in joints.zip(&self.position).zip(&self.velocity) {
            let desired = Mit {
                position: joint.clamp(*position),
                velocity: *velocity,
                effort: 0.0,
                stiffness: joint.gains.0,
                damping: joint.gains.1,
            };
            joint.command.write(&desired, values);
        }
    }

    /// Holds where each joint is measured in `state` (no jump on activation), dropping what it
    /// followed.
    fn hold(&mut self, state: &[f64]) {
        let joints = self.group.joints.iter();
        for (joint, (position, velocity)) in
            joints.zip(self.position.iter_mut().zip(&mut self.velocity))
        {
            let measured = joint.state_position.and_then(|s| state.get(s).copied());
            *position = joint.clamp(measured.filter(|p| p.is_finite()).unwrap_or(0.0));
            *velocity = 0.0;
        }
        if let Some(done) = self.current.take() {
            self.give_back(done);
        }
    }
}

impl<R: RobotTypes> TrajectoryController<R> {
    /// ROS time at `clock` (ns), shared with the intake. Allocates nothing.
    fn ros_now(&mut self, clock: Clock) -> i128 {
        let sim_time = self.options.use_sim_time;
        let epoch_ns = *self.epoch_ns.get_or_insert_with(|| {
            if sim_time {
                return 0;
            }
            // Once (a vDSO call, no allocation): ROS time of the loop's clock zero.
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            now.as_nanos() as i128 - clock.time.as_nanos() as i128
        });
        let now_ns = epoch_ns + clock.time.as_nanos() as i128;
        self.ros_now
            .store(i64::try_from(now_ns).unwrap_or(i64::MAX), Ordering::Relaxed);
        now_ns
    }
}

impl<R: RobotTypes> Controller<R> for TrajectoryController<R> {
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.ros_now(clock);
        self.join_graph()?;
        for following in &mut self.following {
            following.hold(state.as_slice());
            following.write(command.as_mut_slice());
        }
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let now_ns = self.ros_now(clock);
        for following in &mut self.following {
            following.advance(now_ns);
            following.sample(now_ns);
            following.write(command.as_mut_slice());
        }
        Ok(())
    }
}
