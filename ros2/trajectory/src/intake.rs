//! The intake thread: subscribes to each group's `joint_trajectory` topic and serves its
//! FollowJointTrajectory action ([`crate::goals`]), checks every message and goal that arrives
//! ([`crate::validate`]) and hands accepted ones to the control thread in buffers of a fixed
//! pool (two `rtrb` rings per group: filled ones to the control thread, spent ones back), so
//! the control thread neither allocates nor frees a trajectory. What the control thread
//! reports back ([`crate::report`]) it turns into goal results, feedback and
//! `~/controller_state`.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use ros2_dds::{Participant, Publisher, Subscription, WireError};
use ros2_msg::control::JointTrajectoryControllerState;
use ros2_msg::msg::{JointTrajectory, Time};
use ros2_msg::{QosProfile, TopicName};

use crate::follow::Following;
use crate::goals::{self, Gate, Goals};
use crate::group::Group;
use crate::report::{Ended, Sample};
use crate::tolerance::{self, Constraints};
use crate::trajectory::{Hold, Trajectory};
use crate::validate;

/// Buffers per group: the one followed, one waiting for its start, one being filled, one for
/// a cancel's stop, spares.
const POOL: usize = 6;
/// Sample buffers per group.
const SAMPLES: usize = 8;
/// Endings the control thread may report between two polls.
const ENDINGS: usize = 16;

/// How often the intake looks for new messages.
const POLL: Duration = Duration::from_millis(1);

/// What the intake saw, over every group.
#[derive(Debug, Default)]
pub struct TrajectoryStats {
    /// Messages taken from the topics.
    pub received: AtomicU64,
    /// Accepted and handed to the control thread.
    pub accepted: AtomicU64,
    /// Refused (each with its reason on stderr).
    pub refused: AtomicU64,
    /// Accepted but with no free buffer (the control thread had not given one back), dropped.
    pub dropped: AtomicU64,
}

impl std::fmt::Display for TrajectoryStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        write!(
            f,
            "trajectories: {} received, {} accepted, {} refused, {} dropped (no free buffer)",
            get(&self.received),
            get(&self.accepted),
            get(&self.refused),
            get(&self.dropped)
        )
    }
}

/// The control thread's end of one group's rings.
#[derive(Debug)]
pub(crate) struct Handoff {
    pub(crate) filled: rtrb::Consumer<Trajectory>,
    pub(crate) spent: rtrb::Producer<Trajectory>,
    pub(crate) ended: rtrb::Producer<Ended>,
    pub(crate) samples: rtrb::Producer<Sample>,
    pub(crate) spent_samples: rtrb::Consumer<Sample>,
    /// A sample buffer the intake had no room for, used next.
    pub(crate) spare_sample: Option<Sample>,
}

impl Handoff {
    /// Gives a buffer back to the intake. Never blocks or allocates; the ring holds the whole
    /// pool, so it always has room.
    pub(crate) fn give_back(&mut self, trajectory: Trajectory) {
        let _ = self.spent.push(trajectory);
    }

    /// A sample buffer to fill, if the intake has given one back.
    pub(crate) fn take_sample(&mut self) -> Option<Sample> {
        self.spare_sample
            .take()
            .or_else(|| self.spent_samples.pop().ok())
    }
}

/// ROS time as the intake reads it.
#[derive(Debug, Clone)]
pub(crate) enum Clock {
    /// The wall clock.
    Wall,
    /// The loop's simulated clock, ns, as the control thread last stored it.
    Simulated(Arc<AtomicI64>),
}

impl Clock {
    /// ROS time now, ns.
    pub(crate) fn now(&self) -> i128 {
        match self {
            Clock::Wall => Time::now().as_nanos(),
            Clock::Simulated(ns) => i128::from(ns.load(Ordering::Relaxed)),
        }
    }
}

/// The intake's end of one group's rings, its subscription, action and state topic.
struct Intake {
    group: Group,
    /// Its controller's `allow_partial_joints_goal`, which may change while it runs.
    allow_partial: Arc<AtomicBool>,
    /// Whether the controller is active.
    active: Arc<AtomicBool>,
    /// Its `constraints` parameters, which may change while it runs.
    constraints: Arc<Mutex<Constraints>>,
    subscription: Subscription<JointTrajectory>,
    goals: Goals,
    state: Publisher<JointTrajectoryControllerState>,
    filled: rtrb::Producer<Trajectory>,
    spent: rtrb::Consumer<Trajectory>,
    ended: rtrb::Consumer<Ended>,
    samples: rtrb::Consumer<Sample>,
    spent_samples: rtrb::Producer<Sample>,
    /// A buffer the control thread never saw (its message was refused), used next.
    spare: Option<Trajectory>,
}

/// The running intake thread; stopped when dropped.
#[derive(Debug)]
pub(crate) struct IntakeThread {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Why the intake could not start.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    /// No subscription.
    #[error("the trajectory controller cannot subscribe in the ROS 2 graph: {0}")]
    Wire(#[from] WireError),
    /// A group's topic is not a ROS name (a controller name the plan should not make).
    #[error("the trajectory controller cannot subscribe to `{topic}`: {reason}")]
    Topic {
        /// The topic.
        topic: String,
        /// Why.
        reason: String,
    },
    /// The thread could not be started.
    #[error("cannot start the trajectory controller's intake thread: {0}")]
    Thread(#[source] std::io::Error),
}

/// Subscribes to every group's topic and serves its action on `participant`, each on its
/// controller's node in `namespace` (as joint_trajectory_controller's `~/joint_trajectory` and
/// `~/follow_joint_trajectory`), and starts the thread; returns the control thread's ends, one
/// per group in order.
pub(crate) fn start<'a>(
    participant: &Participant,
    namespace: &str,
    clock: Clock,
    groups: impl IntoIterator<Item = &'a Following>,
    stats: Arc<TrajectoryStats>,
) -> Result<(IntakeThread, Vec<Handoff>), IntakeError> {
    let mut intakes = Vec::new();
    let mut handoffs = Vec::new();
    for following in groups {
        let group = &following.group;
        let name = |topic: &String| {
            TopicName::new(topic).map_err(|e| IntakeError::Topic {
                topic: topic.clone(),
                reason: e.to_string(),
            })
        };
        // joint_trajectory_controller's subscription and state publisher:
        // rclcpp::SystemDefaultsQoS.
        let node = participant.node(namespace, &group.controller)?;
        let subscription = node.subscription(&name(&group.topic)?, QosProfile::reliable(10))?;
        let state = node.publisher(
            &name(&group.state_topic)?,
            QosProfile::reliable(10),
            JointTrajectoryControllerState {
                joint_names: group.joints.iter().map(|j| j.name.clone()).collect(),
                speed_scaling_factor: 1.0,
                ..JointTrajectoryControllerState::default()
            },
        )?;
        let gate = Gate {
            group: group.clone(),
            allow_partial: following.allow_partial.clone(),
            active: following.active.clone(),
            clock: clock.clone(),
            stats: stats.clone(),
        };
        let goals = Goals::serve(&node, gate)?;
        let (filled, filled_out) = rtrb::RingBuffer::new(POOL);
        let (mut spent_in, spent) = rtrb::RingBuffer::new(POOL);
        for _ in 0..POOL {
            let _ = spent_in.push(Trajectory::with_capacity(group.joints.len()));
        }
        let (ended_in, ended) = rtrb::RingBuffer::new(ENDINGS);
        let (samples_in, samples) = rtrb::RingBuffer::new(SAMPLES);
        let (mut spent_samples, spent_samples_out) = rtrb::RingBuffer::new(SAMPLES);
        for _ in 0..SAMPLES {
            let _ = spent_samples.push(Sample::with_joints(group.joints.len()));
        }
        intakes.push(Intake {
            group: group.clone(),
            allow_partial: following.allow_partial.clone(),
            active: following.active.clone(),
            constraints: following.constraints.clone(),
            subscription,
            goals,
            state,
            filled,
            spent,
            ended,
            samples,
            spent_samples,
            spare: None,
        });
        handoffs.push(Handoff {
            filled: filled_out,
            spent: spent_in,
            ended: ended_in,
            samples: samples_in,
            spent_samples: spent_samples_out,
            spare_sample: None,
        });
    }
    let stop = Arc::new(AtomicBool::new(false));
    let thread_stop = stop.clone();
    let thread = std::thread::Builder::new()
        .name("trajectory-intake".into())
        .spawn(move || {
            while !thread_stop.load(Ordering::Acquire) {
                for intake in &mut intakes {
                    intake.poll(&clock, &stats);
                }
                std::thread::sleep(POLL);
            }
        })
        .map_err(IntakeError::Thread)?;
    Ok((
        IntakeThread {
            stop,
            thread: Some(thread),
        },
        handoffs,
    ))
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Intake {
    /// One look at everything: the topic, the action, what the control thread said.
    fn poll(&mut self, clock: &Clock, stats: &TrajectoryStats) {
        self.take_message(clock, stats);
        self.take_goals(clock, stats);
        if self.goals.is_running() && !self.active.load(Ordering::Acquire) {
            self.goals.deactivated();
        }
        if self.goals.cancel_asked() {
            self.stop_for_cancel(clock);
        }
        self.publish_samples();
        while let Ok(ended) = self.ended.pop() {
            self.goals.ended(&self.group, &ended);
        }
    }

    /// A free buffer, if the control thread has given one back.
    fn buffer(&mut self) -> Option<Trajectory> {
        self.spare.take().or_else(|| self.spent.pop().ok())
    }

    /// Takes the newest message from the topic, if any, checks it and hands it over.
    fn take_message(&mut self, clock: &Clock, stats: &TrajectoryStats) {
        let Some(received) = self.subscription.take_latest() else {
            return;
        };
        stats.received.fetch_add(1, Ordering::Relaxed);
        // Under simulated time a message arrives at the loop's time now.
        let received_ns = match clock {
            Clock::Wall => received.received.as_nanos(),
            Clock::Simulated(_) => clock.now(),
        };
        let message = &received.message;
        let Some(mut buffer) = self.spare.take().or_else(|| self.spent.pop().ok()) else {
            stats.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let outcome = validate::fill(
            &self.group,
            message,
            received_ns,
            clock.now(),
            self.allow_partial.load(Ordering::Relaxed),
            &mut buffer,
        );
        match outcome {
            Ok(()) => {
                buffer.tolerances = locked(&self.constraints).tolerances();
                match self.filled.push(buffer) {
                    Ok(()) => {
                        stats.accepted.fetch_add(1, Ordering::Relaxed);
                        self.goals.preempted_by_topic(&self.group.topic);
                    }
                    Err(_) => {
                        stats.dropped.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            Err(refusal) => {
                stats.refused.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "{}: trajectory refused: {refusal}; still following the one before, or \
                     holding",
                    self.group.topic
                );
                self.spare = Some(buffer);
            }
        }
    }

    /// Takes the goals accepted since the last poll and hands each over.
    fn take_goals(&mut self, clock: &Clock, stats: &TrajectoryStats) {
        while let Some((id, goal)) = self.goals.next() {
            let Some(mut buffer) = self.buffer() else {
                stats.dropped.fetch_add(1, Ordering::Relaxed);
                let why = "no free trajectory buffer: the control thread holds them all";
                self.goals.refuse(&id, why.into());
                continue;
            };
            let now = clock.now();
            let allow_partial = self.allow_partial.load(Ordering::Relaxed);
            if let Err(refusal) = validate::fill(
                &self.group,
                &goal.trajectory,
                now,
                now,
                allow_partial,
                &mut buffer,
            ) {
                // Checked when it arrived; time has passed since (its header stamp).
                stats.refused.fetch_add(1, Ordering::Relaxed);
                self.spare = Some(buffer);
                self.goals.refuse(&id, refusal.to_string());
                continue;
            }
            let defaults = locked(&self.constraints).tolerances();
            let names = self.group.joints.iter().map(|j| j.name.as_str());
            buffer.tolerances = tolerance::for_goal(&defaults, &goal, names).unwrap_or_else(|e| {
                eprintln!(
                    "{}: {e}; the goal runs with the controller's tolerances",
                    self.group.action
                );
                defaults
            });
            let tag = self.goals.next_tag();
            buffer.goal = tag;
            match self.filled.push(buffer) {
                Ok(()) => {
                    stats.accepted.fetch_add(1, Ordering::Relaxed);
                    self.goals.run(id, tag);
                }
                Err(_) => {
                    stats.dropped.fetch_add(1, Ordering::Relaxed);
                    let why = "the control thread is not taking trajectories";
                    self.goals.refuse(&id, why.into());
                }
            }
        }
    }

    /// Hands over the stop a cancel asks for (hold where measured), and ends the goal
    /// CANCELED; with no free buffer, tried again at the next poll.
    fn stop_for_cancel(&mut self, clock: &Clock) {
        let Some(mut stop) = self.buffer() else {
            return;
        };
        stop.set_stop(clock.now(), Hold::Measured);
        match self.filled.push(stop) {
            Ok(()) => self.goals.stopped(),
            Err(rtrb::PushError::Full(stop)) => self.spare = Some(stop),
        }
    }

    /// `~/controller_state` and the running goal's feedback from what the control thread
    /// sampled.
    fn publish_samples(&mut self) {
        while let Ok(sample) = self.samples.pop() {
            let (reference, feedback, error) = goals::points(&sample);
            let message = self.state.message_mut();
            message.header.stamp = Time::from_nanos(sample.at_ns);
            message
                .output
                .positions
                .clone_from(&sample.commanded_position);
            message
                .output
                .velocities
                .clone_from(&sample.desired_velocity);
            message.reference = reference;
            message.feedback = feedback;
            message.error = error;
            self.state.publish();
            // The last sample before an ending is always fed back.
            let ending = self.ended.peek().is_ok_and(|e| e.goal == sample.goal);
            self.goals.feedback(&self.group, &sample, ending);
            let _ = self.spent_samples.push(sample);
        }
    }
}

impl Drop for IntakeThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
