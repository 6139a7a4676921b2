//! The connection: the command publisher and the state (and IMU) subscriptions, made on the
//! process's participant at `on_configure` and deleted at `on_deactivate` or `on_cleanup`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use robot_runtime::hardware::{ErrorKind, HardwareError};
use ros2_dds::{Participant, Publisher, Subscription};
use ros2_msg::QosProfile;
use ros2_msg::msg::{Imu, JointState};

use crate::options::TopicOptions;
use crate::plan::Plan;

/// `rclcpp::QoS(1)`, upstream's command publisher: reliable, keep-last 1, volatile.
pub const COMMANDS_QOS: QosProfile = QosProfile::reliable(1);
/// `rclcpp::SensorDataQoS()`, upstream's state subscription: best effort, keep-last 5.
pub const STATES_QOS: QosProfile = QosProfile::SENSOR_DATA;

pub(crate) struct Link {
    pub commands: Publisher<JointState>,
    pub states: Subscription<JointState>,
    pub imu: Option<Subscription<Imu>>,
}

/// The component's ends of its topics: the commands it publishes, the newest state (and IMU)
/// message it takes. Over DDS ([`TopicSystem::new`](crate::TopicSystem::new)), or an
/// in-process peer ([`TopicSystem::with_endpoints`](crate::TopicSystem::with_endpoints)): a
/// deterministic simulation (`robot chaos`) has its own, on its own clock. Called on the control
/// thread: nothing here may block or allocate.
pub trait Endpoints: Send {
    /// The command message, to fill before [`Endpoints::publish`]; it starts as the template
    /// the endpoints were opened with (the names, and each carried array sized).
    fn command(&mut self) -> &mut JointState;

    /// Sends the command message.
    fn publish(&mut self);

    /// The newest state message, if one arrived since the last call.
    fn latest_state(&mut self) -> Option<&JointState>;

    /// The newest IMU message, if one arrived since the last call; never one without an IMU
    /// topic.
    fn latest_imu(&mut self) -> Option<&Imu>;

    /// Commands dropped because the network fell behind.
    fn dropped(&self) -> u64 {
        0
    }

    /// The clock waits for the first messages are measured on: the wall clock by default.
    fn now(&self) -> Duration {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        EPOCH.get_or_init(Instant::now).elapsed()
    }

    /// Lets `pause` pass while waiting for the first messages: a sleep by default.
    fn pause(&mut self, pause: Duration) {
        std::thread::sleep(pause);
    }
}

impl Endpoints for Link {
    fn command(&mut self) -> &mut JointState {
        self.commands.message_mut()
    }

    fn publish(&mut self) {
        self.commands.publish();
    }

    fn latest_state(&mut self) -> Option<&JointState> {
        self.states.take_latest().map(|r| &r.message)
    }

    fn latest_imu(&mut self) -> Option<&Imu> {
        self.imu.as_mut()?.take_latest().map(|r| &r.message)
    }

    fn dropped(&self) -> u64 {
        self.commands
            .counters()
            .overwritten
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Link {
    /// Makes the endpoints on `participant`.
    pub(crate) fn open(
        participant: &Participant,
        options: &TopicOptions,
        plan: &Plan,
        component: &str,
    ) -> Result<Link, HardwareError> {
        let io = |e: ros2_dds::WireError| {
            HardwareError::new(component, ErrorKind::Io, "the topics' endpoints").caused_by(e)
        };
        // topic_based_ros2_control's node: `topic_based_ros2_control_<block>`.
        let node = participant
            .node("/", &format!("topic_based_ros2_control_{component}"))
            .map_err(io)?;
        let commands = node
            .publisher(
                &options.commands_topic,
                COMMANDS_QOS,
                command_template(plan),
            )
            .map_err(io)?;
        let states = node
            .subscription::<JointState>(&options.states_topic, STATES_QOS)
            .map_err(io)?;
        let imu = match (&options.imu_topic, plan.imu) {
            (Some(topic), Some(_)) => Some(
                node.subscription::<Imu>(topic, QosProfile::SENSOR_DATA)
                    .map_err(io)?,
            ),
            _ => None,
        };
        Ok(Link {
            commands,
            states,
            imu,
        })
    }
}

/// The command message every buffer starts as: the names, and each array the joints command
/// already as long as `name`, so filling it in `write` never allocates.
pub(crate) fn command_template(plan: &Plan) -> JointState {
    let n = plan.commands.len();
    let sized = |carried: bool| if carried { vec![0.0; n] } else { Vec::new() };
    JointState {
        name: plan.commands.iter().map(|j| j.name.to_string()).collect(),
        position: sized(plan.command_arrays[0]),
        velocity: sized(plan.command_arrays[1]),
        effort: sized(plan.command_arrays[2]),
        ..JointState::default()
    }
}

/// Waits up to `timeout` on `link`'s clock for `take` to give something, polling every
/// millisecond.
pub(crate) fn wait_for<T>(
    link: &mut dyn Endpoints,
    timeout: Duration,
    mut take: impl FnMut(&mut dyn Endpoints) -> Option<T>,
) -> Option<T> {
    let deadline = link.now() + timeout;
    loop {
        if let Some(value) = take(link) {
            return Some(value);
        }
        if link.now() >= deadline {
            return None;
        }
        link.pause(Duration::from_millis(1));
    }
}
