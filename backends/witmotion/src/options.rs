//! What the component is told: the port, its baud, the rate and what it tolerates.

use std::time::Duration;

use robot_runtime::config::ImuConfig;
use witmotion_protocol::OutputRate;

use crate::reader::Corruption;

/// The settings of one IMU component.
#[derive(Debug, Clone, PartialEq)]
pub struct ImuOptions {
    /// The serial port, named in every message (`/dev/ttyUSB0`).
    pub port: String,
    /// The baud rate the port is opened at: the device's.
    pub baud: u32,
    /// The rate the device streams each needed frame at, Hz.
    pub rate_hz: u32,
    /// Whether `on_configure` writes the output content (acceleration, angular velocity,
    /// quaternion) and rate to the device, in RAM; by default its saved settings are kept and
    /// only checked.
    pub configure_device: bool,
    /// The oldest sample `read` accepts.
    pub max_age: Duration,
    /// How long `on_configure` counts frames to confirm every needed kind arrives at the rate.
    pub confirm_window: Duration,
    /// The bound on corrupted frames.
    pub corruption: Corruption,
}

impl ImuOptions {
    /// The shortest default [`ImuOptions::max_age`]: well over the scheduling stalls of a host
    /// that is not real-time (10 ms and more on a shared VM), so a live device never trips it,
    /// and a few loop periods at 200 Hz.
    pub const MIN_MAX_AGE: Duration = Duration::from_millis(40);

    /// The defaults for `port` at `baud`, streaming at `rate_hz`: samples up to five device
    /// periods old (at least [`ImuOptions::MIN_MAX_AGE`]), frames counted over 20 periods (at
    /// least half a second) at configure.
    pub fn new(port: impl Into<String>, baud: u32, rate_hz: u32) -> ImuOptions {
        let period = Duration::from_secs(1) / rate_hz.max(1);
        ImuOptions {
            port: port.into(),
            baud,
            rate_hz,
            configure_device: false,
            max_age: (period * 5).max(Self::MIN_MAX_AGE),
            confirm_window: (period * 20).max(Duration::from_millis(500)),
            corruption: Corruption::default(),
        }
    }

    /// The options a runtime configuration's `imus.<imu>` gives, for the port `port` (the
    /// configured one, or the simulated device's).
    pub fn from_config(config: &ImuConfig, port: impl Into<String>) -> ImuOptions {
        // A serial port without a baud is refused by the configuration's check; were it not, 0
        // is refused by `on_init`, naming the IMU.
        let baud = config.baud().unwrap_or(0);
        let mut options = ImuOptions::new(port, baud, config.rate());
        options.configure_device = config.configure_device;
        if let Some(ms) = config.max_age_ms {
            options.max_age = Duration::from_millis(u64::from(ms));
        }
        options
    }

    /// The device's rate code for [`ImuOptions::rate_hz`], if it has one.
    pub fn output_rate(&self) -> Option<OutputRate> {
        OutputRate::ALL
            .into_iter()
            .find(|r| r.hertz() == Some(self.rate_hz as f32))
    }
}
