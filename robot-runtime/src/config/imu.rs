//! The `imus:` section of a runtime configuration: the serial port and settings of each IMU of
//! the definition, for the real backend.
//!
//! ```yaml
//! imus:
//!   base_imu:
//!     port: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0   # or /dev/ttyUSB0, or `sim`
//!     baud: 460800          # required for a serial port; `sim` runs at 460800 without it
//!     rate_hz: 200            # what the device streams at (default 200)
//!     configure_device: false # write content and rate at configure (default: keep the saved ones)
//!     max_age_ms: 40          # the oldest sample `read` accepts (default: 5 periods, at least 40 ms)
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The reserved port of a simulated IMU: a simulated device on a pseudo-terminal, speaking the
/// protocol over the real serial path (lying still and level), one per IMU that names it.
pub const SIMULATED_IMU: &str = "sim";

/// The baud rate of a simulated IMU whose configuration gives none: the shipped robot's.
pub const SIMULATED_IMU_BAUD: u32 = 460_800;

/// The baud rates an IMU port may be set to: those WitMotion's devices offer (`BAUD` register
/// codes 1 to 9, `docs/witmotion-protocol.md` §7), all of them standard termios rates.
pub const IMU_BAUD_RATES: [u32; 9] = [
    4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
];

/// The output rates an IMU may be expected at, Hz (WitMotion's RRATE codes from 1 Hz; 125 Hz
/// only on a WT931).
pub const IMU_RATES_HZ: [u32; 9] = [1, 2, 5, 10, 20, 50, 100, 125, 200];

/// The rate an IMU is expected to stream at when the file does not say: the shipped robot's loop
/// rate, so that every cycle has a fresh sample.
pub const DEFAULT_IMU_RATE_HZ: u32 = 200;

/// Settings of one IMU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImuConfig {
    /// The serial port: `/dev/serial/by-id/...` (stable across reboots; `ls /dev/serial/by-id`
    /// lists them), `/dev/ttyUSB0`, or `sim`, a simulated device on a pseudo-terminal.
    #[schemars(extend("examples" = ["/dev/ttyUSB0", "sim"]))]
    pub port: String,
    /// The baud rate the device is set to (its saved setting; `robot imu scan` finds it).
    /// Required for a serial port; the simulated device (`port: sim`) runs at 460800 when it is
    /// not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = IMU_BAUD_RATES))]
    pub baud: Option<u32>,
    /// The rate the device streams every needed frame at, Hz; 200 when not given. Configure
    /// fails when frames come slower or faster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = IMU_RATES_HZ))]
    pub rate_hz: Option<u32>,
    /// Whether configure writes the output content and rate to the device (to RAM, not saved).
    /// By default the device's saved settings are kept and only checked.
    #[serde(default, skip_serializing_if = "is_false")]
    pub configure_device: bool,
    /// The oldest sample `read` accepts, ms: an older one stops the robot as a silent motor
    /// does. By default five periods at `rate_hz`, at least 40 ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 10_000))]
    pub max_age_ms: Option<u32>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl ImuConfig {
    /// The rate the device is expected at, Hz.
    pub fn rate(&self) -> u32 {
        self.rate_hz.unwrap_or(DEFAULT_IMU_RATE_HZ)
    }

    /// Whether the port is the simulated device.
    pub fn is_simulated(&self) -> bool {
        self.port == SIMULATED_IMU
    }

    /// The baud rate: as given, or 460800 for the simulated device. `None` only
    /// for a serial port without one, which the configuration's check refuses.
    pub fn baud(&self) -> Option<u32> {
        self.baud
            .or_else(|| self.is_simulated().then_some(SIMULATED_IMU_BAUD))
    }
}
