//! The intake thread: subscribes to each group's `joint_trajectory` topic, checks every message
//! that arrives ([`crate::validate`]) and hands accepted ones to the control thread in buffers
//! of a fixed pool (two `rtrb` rings per group: filled ones to the control thread, spent ones
//! back), so the control thread neither allocates nor frees a trajectory.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use ros2_dds::{Participant, Subscription, WireError};
use ros2_msg::msg::{JointTrajectory, Time};
use ros2_msg::{QosProfile, TopicName};

use crate::group::Group;
use crate::trajectory::Trajectory;
use crate::validate;

/// Buffers per group: the one followed, one waiting for its start, one being filled, a spare.
const POOL: usize = 4;

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
}

impl Handoff {
    /// Gives a buffer back to the intake. Never blocks or allocates; the ring holds the whole
    /// pool, so it always has room.
    pub(crate) fn give_back(&mut self, trajectory: Trajectory) {
        let _ = self.spent.push(trajectory);
    }
}

/// The intake's end of one group's rings, and its subscription.
struct Intake {
    group: Group,
    /// Its controller's `allow_partial_joints_goal`, which may change while it runs.
    allow_partial: Arc<AtomicBool>,
    subscription: Subscription<JointTrajectory>,
    filled: rtrb::Producer<Trajectory>,
    spent: rtrb::Consumer<Trajectory>,
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

/// Subscribes to every group's topic on `participant`, each on its controller's node in
/// `namespace` (as joint_trajectory_controller's `~/joint_trajectory`), and starts the thread;
/// returns the control thread's ends, one per group in order.
pub(crate) fn start<'a>(
    participant: &Participant,
    namespace: &str,
    sim_clock: Option<Arc<AtomicI64>>,
    groups: impl IntoIterator<Item = (&'a Group, &'a Arc<AtomicBool>)>,
    stats: Arc<TrajectoryStats>,
) -> Result<(IntakeThread, Vec<Handoff>), IntakeError> {
    let mut intakes = Vec::new();
    let mut handoffs = Vec::new();
    for (group, allow_partial) in groups {
        let topic = TopicName::new(&group.topic).map_err(|e| IntakeError::Topic {
            topic: group.topic.clone(),
            reason: e.to_string(),
        })?;
        // joint_trajectory_controller's subscription: rclcpp::SystemDefaultsQoS.
        let node = participant.node(namespace, &group.controller)?;
        let subscription = node.subscription(&topic, QosProfile::reliable(10))?;
        let (filled, filled_out) = rtrb::RingBuffer::new(POOL);
        let (mut spent_in, spent) = rtrb::RingBuffer::new(POOL);
        for _ in 0..POOL {
            let _ = spent_in.push(Trajectory::with_capacity(group.joints.len()));
        }
        intakes.push(Intake {
            group: group.clone(),
            allow_partial: allow_partial.clone(),
            subscription,
            filled,
            spent,
            spare: None,
        });
        handoffs.push(Handoff {
            filled: filled_out,
            spent: spent_in,
        });
    }
    let stop = Arc::new(AtomicBool::new(false));
    let thread_stop = stop.clone();
    let thread = std::thread::Builder::new()
        .name("trajectory-intake".into())
        .spawn(move || {
            while !thread_stop.load(Ordering::Acquire) {
                for intake in &mut intakes {
                    intake.poll(sim_clock.as_deref(), &stats);
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

/// ROS time now on the loop's simulated clock.
fn now(clock: &AtomicI64) -> i128 {
    i128::from(clock.load(Ordering::Relaxed))
}

impl Intake {
    /// Takes the newest message, if any, checks it and hands it over.
    /// `sim_clock`: ROS time now under simulated time (the loop's); the wall clock otherwise.
    fn poll(&mut self, sim_clock: Option<&AtomicI64>, stats: &TrajectoryStats) {
        let Some(received) = self.subscription.take_latest() else {
            return;
        };
        stats.received.fetch_add(1, Ordering::Relaxed);
        let Some(mut buffer) = self.spare.take().or_else(|| self.spent.pop().ok()) else {
            stats.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let outcome = validate::fill(
            &self.group,
            &received.message,
            // Under simulated time a goal arrives at the loop's time now.
            sim_clock.map_or(received.received.as_nanos(), now),
            sim_clock.map_or(Time::now().as_nanos(), now),
            self.allow_partial.load(Ordering::Relaxed),
            &mut buffer,
        );
        match outcome {
            Ok(()) => match self.filled.push(buffer) {
                Ok(()) => {
                    stats.accepted.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => {
                    stats.dropped.fetch_add(1, Ordering::Relaxed);
                }
            },
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
}

impl Drop for IntakeThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
