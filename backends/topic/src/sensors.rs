//! [`SensorTopic`]: a force/torque or contact sensor read from a topic another process
//! publishes, for the real path, which has no device driver for either: a force/torque sensor's
//! vendor driver publishing `geometry_msgs/WrenchStamped`, a contact switch's `std_msgs/Bool`.
//!
//! One component per sensor, named as the sensor's own `<ros2_control>` block on the real path
//! (`<Robot><Sensor>`), so its errors name what the descriptions name. Its rules are the topic
//! backend's for states: at `on_configure` it waits for the first message (none within the
//! timeout is an error naming the topic), and a reading older than the stale age ends the run
//! (five loop periods, at least 50 ms, unless set). A message with a value that is not finite
//! keeps the last reading, and counts as none for staleness. Nothing is allocated on the
//! control thread: the subscription keeps the newest message, which `read` copies out.

use std::marker::PhantomData;
use std::time::Duration;

use robot_runtime::hardware::{
    Claims, Clock, Component, Counters, ErrorKind, HardwareError, Identity,
};
use robot_runtime::model::SensorKind;
use robot_runtime::{RobotTypes, Values};
use ros2_dds::{Participant, Subscription};
use ros2_msg::msg::{Bool, WrenchStamped};
use ros2_msg::{QosProfile, TopicName};

use crate::options::stale_age;

/// How long `on_configure` waits for the first message, unless set.
pub const FIRST_READING_TIMEOUT: Duration = Duration::from_secs(5);

/// Which sensor and where it is read from.
#[derive(Debug, Clone, PartialEq)]
pub struct SensorTopicOptions {
    /// The sensor's name in the definition.
    pub sensor: String,
    /// The topic.
    pub topic: TopicName,
    /// A reading older than this ends the run; `None`: five loop periods, at least 50 ms.
    pub stale_after: Option<Duration>,
    /// How long `on_configure` waits for the first message.
    pub first_reading_timeout: Duration,
}

/// The subscription, by the message the sensor's kind takes.
enum Feed {
    Wrench(Subscription<WrenchStamped>),
    Contact(Subscription<Bool>),
}

/// One force/torque or contact sensor of robot `R`, read from a topic: its rules are in the
/// [crate docs](crate) and `docs/sensors.md`.
pub struct SensorTopic<R: RobotTypes> {
    identity: Identity,
    options: SensorTopicOptions,
    participant: Participant,
    kind: SensorKind,
    /// Its first state slot.
    slot: usize,
    feed: Option<Feed>,
    /// Its newest reading: force and torque, or contact and normal force.
    reading: [f64; 6],
    /// Loop time of the newest valid reading; `None` right after connecting, when the first
    /// read counts as fresh (the message connecting waited for).
    read_at: Option<Duration>,
    received: u64,
    non_finite: u64,
    _robot: PhantomData<fn() -> R>,
}

impl<R: RobotTypes> std::fmt::Debug for SensorTopic<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "SensorTopic")
            .field("options", &self.options)
            .field("connected", &self.feed.is_some())
            .finish_non_exhaustive()
    }
}

/// A sensor that cannot be read from a topic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SensorTopicError {
    /// The definition has no sensor of that name.
    #[error("`{0}` is no sensor of the robot")]
    Unknown(String),
    /// An IMU is read by its own component (a serial port on the real path).
    #[error("`{0}` is an IMU: its serial port is given under `imus:`")]
    Imu(String),
}

impl<R: RobotTypes> SensorTopic<R> {
    /// Sensor `options.sensor` of `R`, read from `options.topic` on `participant` (the run's).
    pub fn new(
        options: SensorTopicOptions,
        participant: Participant,
    ) -> Result<Self, SensorTopicError> {
        let robot = R::DESCRIPTION;
        let (index, sensor) = (robot.sensors.iter().enumerate())
            .find(|(_, s)| s.name == options.sensor)
            .ok_or_else(|| SensorTopicError::Unknown(options.sensor.clone()))?;
        if sensor.kind == SensorKind::Imu {
            return Err(SensorTopicError::Imu(options.sensor.clone()));
        }
        let slot = (R::STATE_LAYOUT.sensor_slot(index))
            .ok_or_else(|| SensorTopicError::Unknown(options.sensor.clone()))?;
        Ok(SensorTopic {
            identity: Identity::new(
                robot.sensor_block_name(&sensor.name),
                Claims {
                    joints: Vec::new(),
                    sensors: vec![index],
                },
            ),
            kind: sensor.kind,
            options,
            participant,
            slot,
            feed: None,
            reading: [f64::NAN; 6],
            read_at: None,
            received: 0,
            non_finite: 0,
            _robot: PhantomData,
        })
    }

    /// The number of state values the sensor has.
    fn width(&self) -> usize {
        match self.kind {
            SensorKind::ForceTorque => 6,
            _ => 2,
        }
    }

    /// Takes the newest message, if one arrived: whether it was a valid reading.
    fn take(&mut self) -> bool {
        let reading = match &mut self.feed {
            Some(Feed::Wrench(sub)) => sub.take_latest().map(|r| {
                let w = &r.message.wrench;
                [
                    w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z,
                ]
            }),
            // A switch: in contact or not; the normal force it does not measure reads NaN.
            Some(Feed::Contact(sub)) => sub.take_latest().map(|r| {
                let contact = if r.message.data { 1.0 } else { 0.0 };
                [contact, f64::NAN, 0.0, 0.0, 0.0, 0.0]
            }),
            None => None,
        };
        let Some(reading) = reading else {
            return false;
        };
        self.received += 1;
        let carried = match self.kind {
            SensorKind::ForceTorque => &reading[..6],
            _ => &reading[..1],
        };
        if carried.iter().any(|v| !v.is_finite()) {
            self.non_finite += 1;
            return false;
        }
        self.reading = reading;
        true
    }

    fn connect(&mut self) -> Result<(), HardwareError> {
        let io = |e: ros2_dds::WireError| {
            HardwareError::new(
                self.identity.name(),
                ErrorKind::Io,
                "the sensor's subscription",
            )
            .caused_by(e)
        };
        let node = (self.participant)
            .node("/", &format!("sensor_topic_{}", self.options.sensor))
            .map_err(io)?;
        let qos = QosProfile::SENSOR_DATA;
        self.feed = Some(match self.kind {
            SensorKind::ForceTorque => Feed::Wrench(
                node.subscription::<WrenchStamped>(&self.options.topic, qos)
                    .map_err(io)?,
            ),
            _ => Feed::Contact(
                node.subscription::<Bool>(&self.options.topic, qos)
                    .map_err(io)?,
            ),
        });
        let deadline = std::time::Instant::now() + self.options.first_reading_timeout;
        while !self.take() {
            if std::time::Instant::now() >= deadline {
                self.feed = None;
                return Err(self.identity.error(
                    ErrorKind::Timeout,
                    format!(
                        "no reading of `{}` on `{}` within {} s: is its driver publishing it?",
                        self.options.sensor,
                        self.options.topic,
                        self.options.first_reading_timeout.as_secs_f64()
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.read_at = None;
        Ok(())
    }
}

impl<R: RobotTypes> Component<R> for SensorTopic<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        Ok(())
    }

    /// Subscribes and waits for the first reading, so the first read is the sensor's.
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.reading = [f64::NAN; 6];
        self.connect()
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.feed = None;
        Ok(())
    }

    /// Unsubscribes; activated again, it waits for a reading as at configure.
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.feed = None;
        Ok(())
    }

    fn on_activate(
        &mut self,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        if self.feed.is_none() {
            self.connect()?;
        }
        Ok(())
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        if self.feed.is_none() {
            return Err(self
                .identity
                .error(ErrorKind::Lifecycle, "not connected: configure first"));
        }
        if self.take() || self.read_at.is_none() {
            self.read_at = Some(clock.time);
        }
        let age = self
            .read_at
            .map_or(Duration::ZERO, |at| clock.time.saturating_sub(at));
        let limit = stale_age(self.options.stale_after, clock.period);
        if age > limit {
            return Err(self.identity.error(
                ErrorKind::Timeout,
                format!(
                    "stale reading: nothing valid on `{}` for {:.1} ms (stale after {:.1} ms)",
                    self.options.topic,
                    age.as_secs_f64() * 1e3,
                    limit.as_secs_f64() * 1e3,
                ),
            ));
        }
        let width = self.width();
        let out = state.as_mut_slice();
        if let Some(slots) = out.get_mut(self.slot..self.slot + width) {
            slots.copy_from_slice(&self.reading[..width]);
        }
        Ok(())
    }

    /// A sensor takes no commands.
    fn write(&mut self, _clock: Clock, _command: &R::Command) -> Result<(), HardwareError> {
        Ok(())
    }

    fn counters(&self) -> Counters {
        Counters::from([
            ("readings received", self.received),
            ("non-finite readings skipped", self.non_finite),
        ])
    }
}
