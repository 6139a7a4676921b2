//! The controller: joint_trajectory_controller's topic interface for every trajectory group of
//! the robot, through the typed command struct.
//!
//! On activation each group holds where it is measured to be. Every cycle it takes the newest
//! accepted trajectory of each group (the intake thread checked it); one whose start time has
//! come replaces what was left of the one before, starting from where the group was then meant
//! to be; an empty one stops and holds there. Positions are written within the joint's limits,
//! velocities where the joint takes them, on MIT joints the stiffness and damping of the servo
//! the backends stand in with ([`robot_runtime::hardware::ServoGains`]), and zero effort, or,
//! for a group defined with `feedforward: gravity`, the gravity torque at the desired positions
//! ([`robot_runtime::gravity`]) wherever a joint takes an `effort` command.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use robot_runtime::control_loop::{Controller, ControllerError};
use robot_runtime::gravity::GravityFeedforward;
use robot_runtime::hardware::Clock as LoopClock;
use robot_runtime::model::Feedforward;
use robot_runtime::typed::{RobotTypes, Values};

use ros2_dds::Participant;
use ros2_msg::parameters::ParameterValue;

use crate::follow::Following;
use crate::group::{Group, groups};
use crate::intake::{self, Clock, IntakeError, IntakeThread, TrajectoryStats};
use crate::tolerance::Constraints;

/// What applies a new value of a parameter; an `Err` refuses it, with the reason.
pub type Apply = Arc<dyn Fn(&ParameterValue) -> Result<(), String> + Send + Sync>;

/// A parameter of a trajectory controller's node that may be set while the robot runs.
#[derive(Clone)]
pub struct LiveSetting {
    /// The controller's node (`arm_trajectory_controller`).
    pub node: String,
    /// The parameter (`constraints.elbow.goal`).
    pub name: String,
    /// What applies a new value.
    pub apply: Apply,
}

impl std::fmt::Debug for LiveSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LiveSetting({}.{})", self.node, self.name)
    }
}

/// A tolerance parameter's new value: finite, 0 or more.
fn tolerance_value(value: &ParameterValue) -> Result<f64, String> {
    let v = value.double_value;
    if v >= 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{v} is not a tolerance: give 0 or more"))
    }
}

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
                .map(|g| {
                    // Built before the loop runs (it allocates); a validated definition is one
                    // tree, so it is always there when asked for.
                    let gravity = (g.feedforward == Feedforward::Gravity)
                        .then(GravityFeedforward::of::<R>)
                        .and_then(Result::ok);
                    Following::new(g, options.allow_partial_joints_goal, gravity)
                })
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
            if self.options.use_sim_time {
                Clock::Simulated(self.ros_now.clone())
            } else {
                Clock::Wall
            },
            &self.following,
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

    /// The parameters a ROS user may set while it runs, per controller: its
    /// `allow_partial_joints_goal`, and its `constraints` (`goal_time`,
    /// `stopped_velocity_tolerance`, `<joint>.trajectory`, `<joint>.goal`), which take effect
    /// from the next trajectory or goal. A negative tolerance or a value that is not a number
    /// is refused.
    pub fn live_parameters(&self) -> Vec<LiveSetting> {
        let mut out = Vec::new();
        for following in &self.following {
            let node = &following.group.controller;
            let setting = |name: String, apply: Apply| LiveSetting {
                node: node.clone(),
                name,
                apply,
            };
            let flag = following.allow_partial.clone();
            out.push(setting(
                "allow_partial_joints_goal".into(),
                Arc::new(move |value: &ParameterValue| {
                    flag.store(value.bool_value, Ordering::Relaxed);
                    Ok(())
                }),
            ));
            let tolerance = |field: fn(&mut Constraints) -> &mut f64| -> Apply {
                let constraints = following.constraints.clone();
                Arc::new(move |value: &ParameterValue| {
                    *field(&mut constraints.lock().unwrap_or_else(PoisonError::into_inner)) =
                        tolerance_value(value)?;
                    Ok(())
                })
            };
            out.push(setting(
                "constraints.goal_time".into(),
                tolerance(|c| &mut c.goal_time),
            ));
            out.push(setting(
                "constraints.stopped_velocity_tolerance".into(),
                tolerance(|c| &mut c.stopped_velocity_tolerance),
            ));
            for (index, joint) in following.group.joints.iter().enumerate() {
                for (which, goal) in [("trajectory", false), ("goal", true)] {
                    let constraints = following.constraints.clone();
                    out.push(setting(
                        format!("constraints.{}.{which}", joint.name),
                        Arc::new(move |value: &ParameterValue| {
                            let v = tolerance_value(value)?;
                            let mut c = constraints.lock().unwrap_or_else(PoisonError::into_inner);
                            if let Some((trajectory, at_goal)) = c.joints.get_mut(index) {
                                *(if goal { at_goal } else { trajectory }) = v;
                            }
                            Ok(())
                        }),
                    ));
                }
            }
        }
        out
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

impl<R: RobotTypes> TrajectoryController<R> {
    /// ROS time at `clock` (ns), shared with the intake. Allocates nothing.
    fn ros_now(&mut self, clock: LoopClock) -> i128 {
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
        clock: LoopClock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        // Joining the graph (a node, a subscription, an action server and a publisher per
        // group) takes tens of milliseconds: the ROS time of the loop's clock is taken after
        // it, at the first update, or it would lag the wall clock by as much.
        let _ = clock;
        self.join_graph()?;
        for following in &mut self.following {
            following.hold(state.as_slice(), command.as_mut_slice());
            following.set_active(true);
        }
        Ok(())
    }

    fn on_deactivate(&mut self, _clock: LoopClock, state: &R::State) {
        // Whatever it followed is dropped (the running goal aborted by the intake); active
        // again, it starts from where the joints are.
        let mut scratch = [0.0; 0];
        for following in &mut self.following {
            following.set_active(false);
            following.hold(state.as_slice(), &mut scratch);
        }
    }

    fn update(
        &mut self,
        clock: LoopClock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let now_ns = self.ros_now(clock);
        for following in &mut self.following {
            following.update(now_ns, state.as_slice(), command.as_mut_slice());
        }
        Ok(())
    }
}
