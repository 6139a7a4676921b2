//! What a [`crate::TopicSystem`] is configured with: JointStateTopicSystem's hardware
//! parameters, plus what upstream lacks (a stale-state age, the IMU topic). The DDS domain is
//! the process's participant's, which the component is given.

use std::time::Duration;

use robot_runtime::backend::topic_defaults;
use ros2_msg::{TopicName, TopicNameError};

/// The default of `joint_commands_topic`, as upstream.
pub const DEFAULT_COMMANDS_TOPIC: &str = topic_defaults::JOINT_COMMANDS_TOPIC;
/// The default of `joint_states_topic`, as upstream.
pub const DEFAULT_STATES_TOPIC: &str = topic_defaults::JOINT_STATES_TOPIC;
/// The default IMU topic (`imu_sensor_broadcaster`'s).
pub const DEFAULT_IMU_TOPIC: &str = topic_defaults::IMU_TOPIC;
/// The default of `trigger_joint_command_threshold`, as upstream.
pub const DEFAULT_THRESHOLD: f64 = topic_defaults::TRIGGER_JOINT_COMMAND_THRESHOLD;
/// States older than this many loop periods are stale, by default...
pub const DEFAULT_STALE_PERIODS: u32 = 5;
/// ...but never less than this: a simulator's scheduling jitter (a Python or Isaac Sim process
/// on a busy host pauses for tens of milliseconds) is not a dead simulator.
pub const MIN_DEFAULT_STALE_AGE: Duration = Duration::from_millis(50);
/// How long `on_configure` waits for the first state (DDS discovery takes about half a second).
pub const DEFAULT_FIRST_STATE_TIMEOUT: Duration = Duration::from_secs(5);

/// The settings of a [`crate::TopicSystem`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicOptions {
    /// Where commands go (`joint_commands_topic`).
    pub commands_topic: TopicName,
    /// Where states come from (`joint_states_topic`).
    pub states_topic: TopicName,
    /// `trigger_joint_command_threshold`: commands are published when the summed |state −
    /// command| over the position, velocity and effort commands exceeds it; negative: always.
    pub threshold: f64,
    /// `sum_wrapped_joint_states`: positions wrap at ±2π (Isaac Sim) and are accumulated.
    pub sum_wrapped: bool,
    /// States older than this end the run; `None`: [`DEFAULT_STALE_PERIODS`] loop periods,
    /// at least [`MIN_DEFAULT_STALE_AGE`].
    pub stale_after: Option<Duration>,
    /// Where the IMU comes from, for a robot with one; `None`: the IMU is not driven (reads NaN).
    pub imu_topic: Option<TopicName>,
    /// How long configuring waits for the first state.
    pub first_state_timeout: Duration,
    /// Joints (indices into the robot's `joints`) never commanded; their states are still read.
    pub disabled_joints: Vec<usize>,
}

/// A setting that cannot be used, naming it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// A topic that is not a ROS topic name.
    #[error("{field}: {source}")]
    TopicName {
        /// The setting.
        field: &'static str,
        /// Why.
        #[source]
        source: TopicNameError,
    },
    /// A threshold that is not a number.
    #[error("trigger_joint_command_threshold: expected a number, found {0}")]
    Threshold(f64),
    /// A stale age of zero.
    #[error("stale_after: must be more than 0")]
    StaleAge,
}

impl Default for TopicOptions {
    fn default() -> Self {
        // The defaults are valid names; `Self::new` would need a Result for nothing.
        TopicOptions {
            commands_topic: default_topic(DEFAULT_COMMANDS_TOPIC),
            states_topic: default_topic(DEFAULT_STATES_TOPIC),
            threshold: DEFAULT_THRESHOLD,
            sum_wrapped: false,
            stale_after: None,
            imu_topic: Some(default_topic(DEFAULT_IMU_TOPIC)),
            first_state_timeout: DEFAULT_FIRST_STATE_TIMEOUT,
            disabled_joints: Vec::new(),
        }
    }
}

fn default_topic(name: &str) -> TopicName {
    TopicName::new(name).unwrap_or_else(|_| unreachable!("the default topic names are valid"))
}

/// The settings as a runtime configuration or a `<ros2_control>` block gives them, as text
/// and numbers, checked by [`TopicOptions::from_settings`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicSettings<'a> {
    /// `joint_commands_topic`.
    pub commands_topic: &'a str,
    /// `joint_states_topic`.
    pub states_topic: &'a str,
    /// `trigger_joint_command_threshold`.
    pub threshold: f64,
    /// `sum_wrapped_joint_states`.
    pub sum_wrapped: bool,
    /// The stale age, ms; `None` for the default.
    pub stale_after_ms: Option<f64>,
    /// The IMU topic; `None` for no IMU.
    pub imu_topic: Option<&'a str>,
}

impl TopicOptions {
    /// Checks every setting and names the first that cannot be used.
    pub fn from_settings(settings: &TopicSettings<'_>) -> Result<TopicOptions, OptionsError> {
        let topic = |field: &'static str, name: &str| {
            TopicName::new(name).map_err(|source| OptionsError::TopicName { field, source })
        };
        if !settings.threshold.is_finite() {
            return Err(OptionsError::Threshold(settings.threshold));
        }
        let stale_after = match settings.stale_after_ms {
            None => None,
            Some(ms) if ms.is_finite() && ms > 0.0 => Some(Duration::from_secs_f64(ms / 1000.0)),
            Some(_) => return Err(OptionsError::StaleAge),
        };
        Ok(TopicOptions {
            commands_topic: topic("joint_commands_topic", settings.commands_topic)?,
            states_topic: topic("joint_states_topic", settings.states_topic)?,
            threshold: settings.threshold,
            sum_wrapped: settings.sum_wrapped,
            stale_after,
            imu_topic: settings
                .imu_topic
                .map(|name| topic("imu_topic", name))
                .transpose()?,
            ..TopicOptions::default()
        })
    }

    /// The stale age at a loop period.
    pub fn stale_age(&self, period: Duration) -> Duration {
        stale_age(self.stale_after, period)
    }
}

/// The age past which an input is stale at a loop period: `stale_after` when set, else
/// [`DEFAULT_STALE_PERIODS`] periods, at least [`MIN_DEFAULT_STALE_AGE`]. One rule for the
/// states, the IMU and the sensors read from topics.
pub(crate) fn stale_age(stale_after: Option<Duration>, period: Duration) -> Duration {
    stale_after.unwrap_or_else(|| (period * DEFAULT_STALE_PERIODS).max(MIN_DEFAULT_STALE_AGE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> TopicSettings<'static> {
        TopicSettings {
            commands_topic: DEFAULT_COMMANDS_TOPIC,
            states_topic: DEFAULT_STATES_TOPIC,
            threshold: DEFAULT_THRESHOLD,
            sum_wrapped: false,
            stale_after_ms: None,
            imu_topic: Some(DEFAULT_IMU_TOPIC),
        }
    }

    #[test]
    fn the_defaults_are_upstreams() {
        assert_eq!(
            TopicOptions::from_settings(&settings()).unwrap(),
            TopicOptions::default()
        );
        let options = TopicOptions::default();
        assert_eq!(
            options.stale_age(Duration::from_millis(20)),
            Duration::from_millis(100)
        );
        assert_eq!(
            options.stale_age(Duration::from_millis(1)),
            Duration::from_millis(50)
        );
    }

    #[test]
    fn bad_settings_name_the_field() {
        let error =
            |s: TopicSettings<'static>| TopicOptions::from_settings(&s).unwrap_err().to_string();
        assert_eq!(
            error(TopicSettings {
                states_topic: "/joint states",
                ..settings()
            }),
            "joint_states_topic: topic name `/joint states` contains ` `: only letters, digits, `_` and `/` are allowed"
        );
        assert_eq!(
            error(TopicSettings {
                threshold: f64::NAN,
                ..settings()
            }),
            "trigger_joint_command_threshold: expected a number, found NaN"
        );
        assert_eq!(
            error(TopicSettings {
                stale_after_ms: Some(0.0),
                ..settings()
            }),
            "stale_after: must be more than 0"
        );
        assert!(
            error(TopicSettings {
                imu_topic: Some("/imu//data"),
                ..settings()
            })
            .starts_with("imu_topic: ")
        );
    }
}
