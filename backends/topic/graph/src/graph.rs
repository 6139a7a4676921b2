//! The publishing thread: joins the DDS domain, publishes what does not change once
//! (`/robot_description`, `/tf_static`, both transient-local so late joiners get them), then
//! at most `rate_cap_hz` times a second takes the newest snapshot, fills the preallocated
//! `/joint_states` and `/tf` messages and hands them to ros2-wire's DDS thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use robot_core::typed::{RobotTypes, Values};
use ros2_wire::msg::{StringMessage, TFMessage};
use ros2_wire::{Participant, QosProfile, ReliabilityKind, TopicName, TopicNameError, WireError};

use crate::frames::Frames;
use crate::joint_states::JointStateLayout;
use crate::snapshot::{GraphObserver, snapshots};

/// joint_state_broadcaster's rate when the loop is faster: 500 Hz.
pub const DEFAULT_RATE_CAP_HZ: f64 = 500.0;

/// What to publish, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOptions {
    /// The DDS domain (ROS_DOMAIN_ID).
    pub domain_id: u16,
    /// `/joint_states` and `/tf` at most this often (Hz); the loop's rate when slower.
    pub rate_cap_hz: f64,
    /// The URDF `/robot_description` carries (the backend's expanded URDF).
    pub robot_description: String,
}

/// How the publishing went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GraphReport {
    /// Snapshots published (each one `/joint_states` and one `/tf`).
    pub published: u64,
    /// Cycles not published: over the rate cap, or replaced before the publisher got to them.
    pub passed_over: u64,
    /// Messages the DDS thread could not take in time (the network behind), dropped.
    pub dropped: u64,
}

impl std::fmt::Display for GraphReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ROS 2 graph: {} states published, {} cycles passed over (rate cap or a late publisher), {} messages dropped (network behind)",
            self.published, self.passed_over, self.dropped
        )
    }
}

/// The publishing thread, until stopped or dropped.
#[derive(Debug)]
pub struct RosGraph {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<GraphReport>>,
}

/// QoS as the ROS 2 publishers of each topic use it.
const JOINT_STATES_QOS: QosProfile = QosProfile::reliable(10); // rclcpp::SystemDefaultsQoS
const TF_QOS: QosProfile = QosProfile::reliable(100); // tf2_ros::DynamicBroadcasterQoS
const LATCHED: QosProfile = QosProfile {
    // robot_state_publisher's /robot_description, tf2_ros::StaticBroadcasterQoS
    reliability: ReliabilityKind::Reliable,
    depth: 1,
    transient_local: true,
};

/// Why the graph could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// No DDS participant or endpoint could be made.
    #[error("cannot join the ROS 2 graph: {0}")]
    Wire(#[from] WireError),
    /// A topic name was refused (a bug here, not a user's input).
    #[error("cannot join the ROS 2 graph: {0}")]
    Topic(#[from] TopicNameError),
    /// The publishing thread could not be started.
    #[error("cannot start the ROS 2 graph's publishing thread: {0}")]
    Thread(#[source] std::io::Error),
}

fn topic(name: &str) -> Result<TopicName, GraphError> {
    Ok(TopicName::new(name)?)
}

impl RosGraph {
    /// Joins the domain and starts publishing robot `R`; returns the graph and the observer
    /// to attach to the loop. Fails (never panics) when no DDS participant can be made.
    pub fn start<R: RobotTypes>(
        options: GraphOptions,
    ) -> Result<(RosGraph, GraphObserver<R>), GraphError> {
        let robot = R::DESCRIPTION;
        let joint_states = JointStateLayout::of(robot, &R::STATE_LAYOUT);
        let frames = Frames::of(robot, &R::STATE_LAYOUT);

        let mut builder = Participant::builder(options.domain_id)?;
        let mut joint_states_out = builder.publisher(
            &topic("/joint_states")?,
            JOINT_STATES_QOS,
            joint_states.message(),
        )?;
        let mut tf_out =
            builder.publisher(&topic("/tf")?, TF_QOS, Frames::message(&frames.movable))?;
        let mut tf_static_out =
            builder.publisher(&topic("/tf_static")?, LATCHED, TFMessage::default())?;
        let mut description_out = builder.publisher(
            &topic("/robot_description")?,
            LATCHED,
            StringMessage::default(),
        )?;
        let participant = builder.start()?;

        // Once, transient-local: what never changes.
        description_out.message_mut().data = options.robot_description;
        description_out.publish();
        let mut fixed = Frames::message(&frames.fixed);
        let stamp = ros2_wire::msg::Time::now();
        let mut no_positions = vec![0.0; frames.fixed.len()];
        Frames::fill(
            robot,
            &frames.fixed,
            &[],
            &stamp,
            &mut no_positions,
            &mut fixed,
        );
        *tf_static_out.message_mut() = fixed;
        tf_static_out.publish();

        let (observer, mut incoming) = snapshots::<R>();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let period = Duration::from_secs_f64(1.0 / options.rate_cap_hz.max(1.0));
        let thread = std::thread::Builder::new()
            .name("ros2-graph".into())
            .spawn(move || {
                // Owned here: the participant stops when this thread ends.
                let _participant = participant;
                let _latched = (tf_static_out, description_out);
                let mut report = GraphReport::default();
                let mut positions = Frames::initial_positions(&frames.movable);
                let mut next = Instant::now();
                while !thread_stop.load(Ordering::Acquire) {
                    next += period;
                    if let Some(wait) = next.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    } else {
                        next = Instant::now(); // late: no burst to catch up
                    }
                    let Some((snapshot, passed_over)) = incoming.take_newest() else {
                        continue;
                    };
                    report.passed_over += passed_over;
                    let stamp = snapshot.stamp();
                    let state = snapshot.state.as_slice();
                    joint_states.fill(state, &stamp, joint_states_out.message_mut());
                    joint_states_out.publish();
                    Frames::fill(
                        robot,
                        &frames.movable,
                        state,
                        &stamp,
                        &mut positions,
                        tf_out.message_mut(),
                    );
                    tf_out.publish();
                    report.published += 1;
                }
                report.dropped = [joint_states_out.counters(), tf_out.counters()]
                    .iter()
                    .map(|c| c.overwritten.load(Ordering::Relaxed))
                    .sum();
                report
            })
            .map_err(GraphError::Thread)?;
        Ok((
            RosGraph {
                stop,
                thread: Some(thread),
            },
            observer,
        ))
    }

    /// Stops publishing, leaves the domain, and says how it went.
    pub fn stop(mut self) -> GraphReport {
        self.halt()
    }

    fn halt(&mut self) -> GraphReport {
        self.stop.store(true, Ordering::Release);
        self.thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for RosGraph {
    fn drop(&mut self) {
        self.halt();
    }
}
