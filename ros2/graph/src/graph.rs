//! The publishing thread: joins the DDS domain, publishes what does not change once
//! (`/robot_description`, `/tf_static`, both transient-local so late joiners get them), then
//! at most `rate_cap_hz` times a second takes the newest snapshot, fills the preallocated
//! `/joint_states`, `/imu/data` and `/tf` messages and hands them to the DDS thread (`ros2-dds`);
//! `/diagnostics` goes out whenever the loop hands over a new [`Health`](crate::Health).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use robot_runtime::typed::{RobotTypes, Values};
use ros2_dds::{Node, Participant, Publisher, WireError};

use crate::parameters::{self, Declared, ParameterServer, Setting, bool_value, string_value};
use crate::params_file::{self, ParamsFileError};
use ros2_msg::msg::{Clock, DiagnosticArray, StringMessage, TFMessage};
use ros2_msg::{Message, QosProfile, ReliabilityKind, TopicName, TopicNameError};

use ros2_state::{Frames, ImuChannel, JointStateLayout, WrenchChannel};

use crate::diagnostics::{self, LoopWatch};
use crate::observer::{GraphObserver, snapshots};
use crate::options::GraphOptions;

/// How the publishing went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GraphReport {
    /// Snapshots published (each one `/joint_states`, `/imu/data` and `/tf`, those on).
    pub published: u64,
    /// Cycles not published: over the rate cap, or replaced before the publisher got to them.
    pub passed_over: u64,
    /// Messages the DDS thread could not take in time (the network behind), dropped.
    pub dropped: u64,
    /// `/diagnostics` messages published.
    pub diagnostics: u64,
    /// States published while no subscriber of `/joint_states` was matched yet (volatile QoS:
    /// nobody receives those), part of `published`.
    pub unmatched: u64,
}

impl std::fmt::Display for GraphReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ROS 2 graph: {} states published ({} before a /joint_states subscriber matched), {} cycles passed over (rate cap or a late publisher), {} messages dropped (network behind), {} diagnostics",
            self.published, self.unmatched, self.passed_over, self.dropped, self.diagnostics
        )
    }
}

/// The publishing thread, until stopped or dropped.
#[derive(Debug)]
pub struct RosGraph {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<GraphReport>>,
    watch: LoopWatch,
}

/// QoS as the ROS 2 publishers of each topic use it.
const JOINT_STATES_QOS: QosProfile = QosProfile::reliable(10); // rclcpp::SystemDefaultsQoS
const IMU_QOS: QosProfile = QosProfile::reliable(10); // imu_sensor_broadcaster: SystemDefaultsQoS
// force_torque_sensor_broadcaster: SystemDefaultsQoS too.
const WRENCH_QOS: QosProfile = QosProfile::reliable(10);
const DIAGNOSTICS_QOS: QosProfile = QosProfile::reliable(10); // diagnostic_updater
// rclcpp::ClockQoS: best effort, keep-last 1.
const CLOCK_QOS: QosProfile = QosProfile {
    reliability: ReliabilityKind::BestEffort,
    depth: 1,
    transient_local: false,
};
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
    /// The namespace makes no valid topic name.
    #[error(
        "ROS namespace `{namespace}`: {source} (a namespace is `/`-separated names of letters, \
         digits and `_`, each not starting with a digit)"
    )]
    Namespace {
        /// The namespace given.
        namespace: String,
        /// What the topic name broke.
        source: TopicNameError,
    },
    /// A rate that is not a positive number of Hz.
    #[error("ROS graph: {what} must be a positive number of Hz, not {value}")]
    Rate {
        /// Which rate.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// The parameters file could not be read.
    #[error("cannot serve the controllers' parameters: {0}")]
    Parameters(#[from] ParamsFileError),
    /// The publishing thread could not be started.
    #[error("cannot start the ROS 2 graph's publishing thread: {0}")]
    Thread(#[source] std::io::Error),
}

/// A publisher of `topic` on `node` when `on`.
fn publisher<M: Message>(
    node: &Node,
    options: &GraphOptions,
    on: bool,
    topic: &str,
    qos: QosProfile,
    template: M,
) -> Result<Option<Publisher<M>>, GraphError> {
    if !on {
        return Ok(None);
    }
    Ok(Some(node.publisher(
        &options.resolve(topic)?,
        qos,
        template,
    )?))
}

/// Why a parameter of the controller manager cannot be set.
const MANAGER_FIXED: &str =
    "the controller manager fixes its rate and its controllers when the run starts";
/// Why a controller's parameter cannot be set.
const CONTROLLER_FIXED: &str = "the controller read it when it was configured";

/// The parameter services of the controller manager, robot_state_publisher, every broadcaster
/// and every controller of the parameters file, each with `use_sim_time`.
fn serve_parameters(
    participant: &Participant,
    options: &GraphOptions,
    made: [&Node; 3],
) -> Result<Vec<ParameterServer>, GraphError> {
    let file = if options.parameters_file.is_empty() {
        Vec::new()
    } else {
        params_file::read(&options.parameters_file)?
    };
    let sim_time = Declared::read_only(
        "use_sim_time",
        bool_value(options.use_sim_time),
        "the backend sets the clock (simulated on MuJoCo and with --fast)",
    );
    // The nodes already made, then the controllers the file names, each once.
    let mut nodes: Vec<Node> = made.into_iter().cloned().collect();
    for section in &file {
        if !nodes.iter().any(|n| n.name().name() == section.node) {
            nodes.push(participant.node(&options.namespace, &section.node)?);
        }
    }
    let mut servers = Vec::new();
    for node in &nodes {
        let name = node.name().name();
        let mut declared = vec![sim_time.clone()];
        if name == "robot_state_publisher" {
            declared.push(Declared::read_only(
                "robot_description",
                string_value(&options.robot_description),
                "the description is fixed while the robot runs",
            ));
        }
        let section = file.iter().filter(|s| s.node == name);
        for (parameter, value) in section.flat_map(|s| &s.parameters) {
            let live = (options.live.iter()).find(|l| l.node == name && l.name == *parameter);
            declared.push(Declared {
                name: parameter.clone(),
                value: value.clone(),
                description: String::new(),
                setting: match live {
                    Some(live) => Setting::Live(live.apply.clone()),
                    None if name == "controller_manager" => Setting::ReadOnly(MANAGER_FIXED.into()),
                    None => Setting::ReadOnly(CONTROLLER_FIXED.into()),
                },
            });
        }
        servers.push(parameters::serve(node, declared)?);
    }
    Ok(servers)
}

fn positive(what: &'static str, value: f64) -> Result<f64, GraphError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GraphError::Rate { what, value })
    }
}

impl RosGraph {
    /// Starts publishing robot `R` on `participant` (the process's); returns the graph and the
    /// observer to attach to the loop. Fails (never panics) when an endpoint cannot be made.
    pub fn start<R: RobotTypes>(
        options: GraphOptions,
        participant: &Participant,
    ) -> Result<(RosGraph, GraphObserver<R>), GraphError> {
        let rate_cap = positive("the rate cap", options.rate_cap_hz)?;
        let diagnostics_hz = positive("the diagnostics rate", options.diagnostics_hz)?;
        let robot = R::DESCRIPTION;
        let topics = options.topics;
        let joint_states = JointStateLayout::of(robot, &R::STATE_LAYOUT);
        let imus = ImuChannel::of(robot, &R::STATE_LAYOUT);
        let wrenches = WrenchChannel::of(robot, &R::STATE_LAYOUT);
        let frames = Frames::of(robot, &R::STATE_LAYOUT);

        // A namespace that makes no topic name is refused before any endpoint is made (the
        // topics after it are fixed names, valid wherever `joint_states` is).
        options.resolve("joint_states")?;
        // The nodes a bringup of ros2_control makes, each publishing what it publishes there.
        let node = |name: &str| participant.node(&options.namespace, name);
        let controller_manager = node("controller_manager")?;
        let state_publisher = node("robot_state_publisher")?;
        let joint_state_broadcaster = node("joint_state_broadcaster")?;
        let o = &options;
        let mut joint_states_out = publisher(
            &joint_state_broadcaster,
            o,
            topics.joint_states,
            "joint_states",
            JOINT_STATES_QOS,
            joint_states.message(),
        )?;
        let mut imu_out = Vec::new();
        // A broadcaster's node only where its topic is on.
        for imu in imus.iter().filter(|_| topics.imu) {
            imu_out.extend(publisher(
                &node(&imu.broadcaster)?,
                o,
                true,
                &imu.topic,
                IMU_QOS,
                imu.message(),
            )?);
        }
        let mut wrench_out = Vec::new();
        for wrench in wrenches.iter().filter(|_| topics.wrench) {
            wrench_out.extend(publisher(
                &node(&wrench.broadcaster)?,
                o,
                true,
                &wrench.topic,
                WRENCH_QOS,
                wrench.message(),
            )?);
        }
        let sp = &state_publisher;
        let mut tf_out = publisher(sp, o, topics.tf, "tf", TF_QOS, frames.tf_message())?;
        let tf_static_out =
            publisher(sp, o, topics.tf, "tf_static", LATCHED, TFMessage::default())?;
        let description_out = publisher(
            sp,
            o,
            topics.robot_description,
            "robot_description",
            LATCHED,
            StringMessage::default(),
        )?;
        let mut diagnostics_out = publisher(
            &controller_manager,
            o,
            topics.diagnostics,
            "diagnostics",
            DIAGNOSTICS_QOS,
            DiagnosticArray::default(),
        )?;
        // Simulated time, for the nodes of the graph that run on it: `/clock` is absolute (every
        // node's time source subscribes to `/clock`, whatever its namespace).
        let mut clock_out = match options.use_sim_time {
            true => Some(controller_manager.publisher(
                &TopicName::new("/clock").map_err(|source| GraphError::Namespace {
                    namespace: String::new(),
                    source,
                })?,
                CLOCK_QOS,
                Clock::default(),
            )?),
            false => None,
        };
        // Once, transient-local: what never changes.
        let mut description_out = description_out;
        if let Some(out) = &mut description_out {
            out.message_mut()
                .data
                .clone_from(&options.robot_description);
            out.publish();
        }
        let mut tf_static_out = tf_static_out;
        if let Some(out) = &mut tf_static_out {
            let mut fixed = Frames::message(&frames.fixed);
            let mut no_positions = vec![0.0; frames.fixed.len()];
            let stamp = ros2_msg::msg::Time::now();
            Frames::fill(
                robot,
                &frames.fixed,
                &[],
                &stamp,
                &mut no_positions,
                &mut fixed,
            );
            *out.message_mut() = fixed;
            out.publish();
        }
        // Kept for the run: they answer late joiners; and the nodes stay announced while the
        // graph runs, whichever of their topics are on.
        let latched = (description_out, tf_static_out);
        let parameters = serve_parameters(
            participant,
            &options,
            [
                &controller_manager,
                &state_publisher,
                &joint_state_broadcaster,
            ],
        )?;
        // Learnt when the observer is attached, and from the loop once it is spawned.
        let hardware = crate::observer::HardwareView::default();
        let watch = LoopWatch::default();
        let manager_services = match &options.controllers {
            Some(handle) => crate::controller_manager::serve::<R>(
                &controller_manager,
                crate::controller_manager::Served {
                    handle: handle.clone(),
                    rate: options.update_rate.unwrap_or(R::DESCRIPTION.update_rate),
                    hardware: hardware.clone(),
                    watch: watch.clone(),
                    plugin: options.hardware_plugin.clone(),
                },
            )?,
            None => Vec::new(),
        };
        let nodes = [controller_manager, state_publisher, joint_state_broadcaster];

        let period = Duration::from_secs_f64(1.0 / rate_cap);
        let (observer, mut incoming) = snapshots::<R>(
            Duration::from_secs_f64(1.0 / diagnostics_hz),
            options.use_sim_time,
            hardware.clone(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let thread_watch = watch.clone();
        let manager = options.controllers.clone();
        // With a controller manager, each broadcaster publishes while it is active there.
        let gate = |name: &str| manager.as_ref().and_then(|m| m.index_of(name));
        let joint_states_gate = gate("joint_state_broadcaster");
        let imu_gates: Vec<Option<usize>> = imus.iter().map(|i| gate(&i.broadcaster)).collect();
        let wrench_gates: Vec<Option<usize>> =
            wrenches.iter().map(|w| gate(&w.broadcaster)).collect();
        let thread = std::thread::Builder::new()
            .name("ros2-graph".into())
            .spawn(move || {
                // Kept here: the endpoints are deleted when this thread ends.
                let _latched = latched;
                let _nodes = nodes;
                let _parameters = parameters;
                let _manager_services = manager_services;
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
                    if let Some((snapshot, passed_over)) = incoming.take_newest() {
                        report.passed_over += passed_over;
                        let stamp = snapshot.stamp();
                        let state = snapshot.state.as_slice();
                        if let Some(out) = &mut clock_out {
                            out.message_mut().clock = stamp.clone();
                            out.publish();
                        }
                        let on = |gate: Option<usize>| {
                            (gate.zip(manager.as_ref())).is_none_or(|(i, m)| m.is_active(i))
                        };
                        if let Some(out) =
                            joint_states_out.as_mut().filter(|_| on(joint_states_gate))
                        {
                            joint_states.fill(state, &stamp, out.message_mut());
                            out.publish();
                            if out.counters().matched.load(Ordering::Relaxed) == 0 {
                                report.unmatched += 1;
                            }
                        }
                        for ((imu, out), gate) in imus.iter().zip(&mut imu_out).zip(&imu_gates) {
                            if !on(*gate) {
                                continue;
                            }
                            imu.fill(state, &stamp, out.message_mut());
                            out.publish();
                        }
                        for ((wrench, out), gate) in
                            wrenches.iter().zip(&mut wrench_out).zip(&wrench_gates)
                        {
                            if !on(*gate) {
                                continue;
                            }
                            wrench.fill(state, &stamp, out.message_mut());
                            out.publish();
                        }
                        if let Some(out) = &mut tf_out {
                            frames.fill_tf(
                                robot,
                                state,
                                snapshot.base.as_ref(),
                                &stamp,
                                &mut positions,
                                out.message_mut(),
                            );
                            out.publish();
                        }
                        report.published += 1;
                    }
                    report.dropped =
                        dropped(&joint_states_out, &imu_out, &tf_out) + overwritten(&wrench_out);
                    if let Some(out) = &mut diagnostics_out {
                        let names = incoming.names.clone();
                        if let Some(health) = incoming.take_health() {
                            let names = names.get().map_or(&[][..], Vec::as_slice);
                            *out.message_mut() = diagnostics::message(
                                robot.name.as_ref(),
                                names,
                                health,
                                &thread_watch,
                                &report,
                                &health.stamp(),
                            );
                            if let Some(manager) = &manager {
                                (out.message_mut().status).push(diagnostics::manager_status(
                                    robot.name.as_ref(),
                                    manager,
                                ));
                            }
                            out.publish();
                            report.diagnostics += 1;
                        }
                    }
                }
                report
            })
            .map_err(GraphError::Thread)?;
        Ok((
            RosGraph {
                stop,
                thread: Some(thread),
                watch,
            },
            observer,
        ))
    }

    /// Where to hand the running loop's control ([`LoopWatch::watch`]) once it is spawned, so
    /// that `/diagnostics` has its cycles and overruns.
    pub fn loop_watch(&self) -> &LoopWatch {
        &self.watch
    }

    /// Stops publishing (its endpoints are deleted), and says how it went.
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

/// Messages the DDS thread dropped on `publishers`.
fn overwritten<M: Message>(publishers: &[Publisher<M>]) -> u64 {
    (publishers.iter())
        .map(|p| p.counters().overwritten.load(Ordering::Relaxed))
        .sum()
}

/// Messages the DDS thread dropped, over the per-cycle topics.
fn dropped<A: Message, B: Message, C: Message>(
    joint_states: &Option<Publisher<A>>,
    imus: &[Publisher<B>],
    tf: &Option<Publisher<C>>,
) -> u64 {
    let count = |c: &ros2_dds::EndpointCounters| c.overwritten.load(Ordering::Relaxed);
    joint_states
        .iter()
        .map(|p| count(p.counters()))
        .sum::<u64>()
        + imus.iter().map(|p| count(p.counters())).sum::<u64>()
        + tf.iter().map(|p| count(p.counters())).sum::<u64>()
}

impl Drop for RosGraph {
    fn drop(&mut self) {
        self.halt();
    }
}
