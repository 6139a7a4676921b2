//! What is recorded: a list of topics, each a name, a message type, the QoS its ROS publisher
//! offers and a function filling its preallocated message from one cycle's [`Snapshot`]. The
//! writer encodes every topic once per cycle; adding one is a [`Filled::new`] pushed onto the
//! list [`per_cycle`] returns.
//!
//! `/joint_commands` is `control_msgs/msg/DynamicJointState` (what ros2_control's
//! `/dynamic_joint_states` carries): per joint, every command interface it has, by its
//! ros2_control name (`position`, `stiffness`, …), since `sensor_msgs/JointState` has no room
//! for an MIT command's gains.

use robot_runtime::typed::{Layout, RobotTypes};
use robot_runtime::{InterfaceKind, Robot, Values};
use ros2_msg::msg::{Header, Imu, JointState, TFMessage, WrenchStamped};
use ros2_msg::{Message, QosProfile, ReliabilityKind, TypeDescription, ros_message};
use ros2_state::snapshot::Snapshot;
use ros2_state::{Frames, ImuChannel, JointStateLayout, WrenchChannel};

// The QoS each topic's ROS publisher offers (the same as ros2-graph's publishers).
/// `/joint_states`: rclcpp's SystemDefaultsQoS.
pub const JOINT_STATES_QOS: QosProfile = QosProfile::reliable(10);
/// `/imu/data`: imu_sensor_broadcaster's SystemDefaultsQoS.
pub const IMU_QOS: QosProfile = QosProfile::reliable(10);
/// `/<sensor>_broadcaster/wrench`: force_torque_sensor_broadcaster's SystemDefaultsQoS.
pub const WRENCH_QOS: QosProfile = QosProfile::reliable(10);
/// `/diagnostics`: diagnostic_updater's publisher, reliable, keep-last 10.
pub const DIAGNOSTICS_QOS: QosProfile = QosProfile::reliable(10);
/// `/tf`: tf2_ros::DynamicBroadcasterQoS.
pub const TF_QOS: QosProfile = QosProfile::reliable(100);
/// `/tf_static` and `/robot_description`: reliable, transient-local, depth 1.
pub const LATCHED_QOS: QosProfile = QosProfile {
    reliability: ReliabilityKind::Reliable,
    depth: 1,
    transient_local: true,
};

ros_message! {
    /// `control_msgs/msg/InterfaceValue`: one joint's interfaces and their values.
    pub struct InterfaceValue in "control_msgs" {
        /// ros2_control interface names.
        interface_names: Vec<String>,
        /// Their values, in the same order.
        values: Vec<f64>,
    }
}

ros_message! {
    /// `control_msgs/msg/DynamicJointState`: every interface of every joint.
    pub struct DynamicJointState in "control_msgs" {
        /// Stamp.
        header: Header,
        /// Joint names.
        joint_names: Vec<String>,
        /// One per joint.
        interface_values: Vec<InterfaceValue>,
    }
}

/// A topic written every cycle.
pub trait Topic<R: RobotTypes>: Send {
    /// `/joint_states`.
    fn name(&self) -> &str;
    /// The message type.
    fn description(&self) -> &'static TypeDescription;
    /// What its publisher offers.
    fn qos(&self) -> QosProfile;
    /// Fills the message for `snapshot` and encodes it (CDR, with its encapsulation header)
    /// into `out`; `false` when this topic has nothing this cycle (one published at a lower
    /// rate, as `/diagnostics` is). With a message of the same shape each cycle, no allocation.
    fn encode(&mut self, snapshot: &Snapshot<R>, out: &mut Vec<u8>) -> bool;
}

/// A topic from a preallocated message and the function that fills it, written every
/// `every`-th cycle (1: every cycle).
pub struct Filled<M, F> {
    name: String,
    qos: QosProfile,
    message: M,
    fill: F,
    every: u64,
}

impl<M, F> std::fmt::Debug for Filled<M, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filled")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<M, F> Filled<M, F> {
    /// Topic `name`, offered with `qos`, its `message` filled by `fill` each cycle.
    pub fn new(name: &str, qos: QosProfile, message: M, fill: F) -> Self {
        Filled {
            name: name.to_string(),
            qos,
            message,
            fill,
            every: 1,
        }
    }

    /// Written on every `every`-th cycle only (the first included): a 1 Hz topic of a 1 kHz
    /// loop is `every(1000)`.
    pub fn every(self, every: u64) -> Self {
        Filled {
            every: every.max(1),
            ..self
        }
    }
}

impl<R, M, F> Topic<R> for Filled<M, F>
where
    R: RobotTypes,
    M: Message,
    F: FnMut(&Snapshot<R>, &mut M) + Send,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &'static TypeDescription {
        M::DESCRIPTION
    }

    fn qos(&self) -> QosProfile {
        self.qos
    }

    fn encode(&mut self, snapshot: &Snapshot<R>, out: &mut Vec<u8>) -> bool {
        // Cycles count from 1.
        if !snapshot.cycle.saturating_sub(1).is_multiple_of(self.every) {
            return false;
        }
        (self.fill)(snapshot, &mut self.message);
        ros2_msg::cdr::encode(&self.message, out);
        true
    }
}

/// The topics of robot `R` recorded every cycle: `/joint_states`, `/joint_commands`, `/tf` (the
/// floating base's pose too, when a backend knows it), each IMU's `/imu/data` and each
/// force/torque sensor's `/<sensor>_broadcaster/wrench` (as ros2-graph names them). Another topic is one more entry, a filler made once from the robot and called
/// with each snapshot; `.every(n)` for a slower one.
pub fn per_cycle<R: RobotTypes>() -> Vec<Box<dyn Topic<R>>> {
    let robot = R::DESCRIPTION;
    let states = JointStateLayout::of(robot, &R::STATE_LAYOUT);
    let commands = CommandLayout::of(robot, &R::COMMAND_LAYOUT);
    let frames = Frames::of(robot, &R::STATE_LAYOUT);
    let mut positions = Frames::initial_positions(&frames.movable);
    let mut topics: Vec<Box<dyn Topic<R>>> = vec![
        Box::new(Filled::new(
            "/joint_states",
            JOINT_STATES_QOS,
            states.message(),
            move |s: &Snapshot<R>, m: &mut JointState| {
                states.fill(s.state.as_slice(), &s.stamp(), m);
            },
        )),
        Box::new(Filled::new(
            "/joint_commands",
            JOINT_STATES_QOS,
            commands.message(),
            move |s: &Snapshot<R>, m: &mut DynamicJointState| {
                commands.fill(s.command.as_slice(), &s.stamp(), m);
            },
        )),
        Box::new(Filled::new(
            "/tf",
            TF_QOS,
            frames.tf_message(),
            move |s: &Snapshot<R>, m: &mut TFMessage| {
                let state = s.state.as_slice();
                frames.fill_tf(robot, state, s.base.as_ref(), &s.stamp(), &mut positions, m);
            },
        )),
    ];
    for imu in ImuChannel::of(robot, &R::STATE_LAYOUT) {
        let topic = format!("/{}", imu.topic);
        topics.push(Box::new(Filled::new(
            &topic,
            IMU_QOS,
            imu.message(),
            move |s: &Snapshot<R>, m: &mut Imu| imu.fill(s.state.as_slice(), &s.stamp(), m),
        )));
    }
    for wrench in WrenchChannel::of(robot, &R::STATE_LAYOUT) {
        let topic = format!("/{}", wrench.topic);
        topics.push(Box::new(Filled::new(
            &topic,
            WRENCH_QOS,
            wrench.message(),
            move |s: &Snapshot<R>, m: &mut WrenchStamped| {
                wrench.fill(s.state.as_slice(), &s.stamp(), m);
            },
        )));
    }
    topics
}

/// `/tf_static`: every fixed joint's transform, written once.
pub fn tf_static<R: RobotTypes>(stamp: &ros2_msg::msg::Time) -> TFMessage {
    let fixed = Frames::of(R::DESCRIPTION, &R::STATE_LAYOUT).fixed;
    let mut message = Frames::message(&fixed);
    let mut no_positions = vec![0.0; fixed.len()];
    Frames::fill(
        R::DESCRIPTION,
        &fixed,
        &[],
        stamp,
        &mut no_positions,
        &mut message,
    );
    message
}

/// Where each joint's command interfaces are in the command: every joint that has one, in
/// definition order, its interfaces in [`InterfaceKind::ALL`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandLayout {
    names: Vec<String>,
    /// Per joint: (interface, slot).
    slots: Vec<Vec<(InterfaceKind, usize)>>,
}

impl CommandLayout {
    /// The commanded joints of `robot`, whose command is laid out as `command`.
    pub fn of(robot: &Robot, command: &Layout) -> CommandLayout {
        let (mut names, mut slots) = (Vec::new(), Vec::new());
        for (index, joint) in robot.joints.iter().enumerate() {
            let interfaces: Vec<(InterfaceKind, usize)> = InterfaceKind::ALL
                .into_iter()
                .filter_map(|kind| command.joint_slot(index, kind).map(|slot| (kind, slot)))
                .collect();
            if !interfaces.is_empty() {
                names.push(joint.name.to_string());
                slots.push(interfaces);
            }
        }
        CommandLayout { names, slots }
    }

    /// A message with the names and arrays of the right length, to be filled.
    pub fn message(&self) -> DynamicJointState {
        DynamicJointState {
            joint_names: self.names.clone(),
            interface_values: self
                .slots
                .iter()
                .map(|interfaces| InterfaceValue {
                    interface_names: interfaces.iter().map(|(k, _)| k.name().into()).collect(),
                    values: vec![f64::NAN; interfaces.len()],
                })
                .collect(),
            ..DynamicJointState::default()
        }
    }

    /// Fills `message` (made by [`CommandLayout::message`]) from `command`. Allocates nothing.
    pub fn fill(
        &self,
        command: &[f64],
        stamp: &ros2_msg::msg::Time,
        message: &mut DynamicJointState,
    ) {
        message.header.stamp = stamp.clone();
        for (interfaces, joint) in self.slots.iter().zip(&mut message.interface_values) {
            for ((_, slot), value) in interfaces.iter().zip(&mut joint.values) {
                *value = command.get(*slot).copied().unwrap_or(f64::NAN);
            }
        }
    }
}
