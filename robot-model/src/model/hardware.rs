//! How the definition wires a joint to hardware: the actuator behind it (model, bus, CAN id,
//! mounting sense), the buses, the sensors and the hardware parameters.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{List, Str, is_empty};
use crate::fourbar::FourBar;
use robot_actuator::RobstrideModel;

/// The RobStride actuator behind an actuated joint, and how it is wired to the joint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Actuator {
    /// The bus the actuator is on, by name.
    pub bus: BusName,
    /// CAN id of the actuator on its bus.
    pub can_id: CanId,
    /// The RobStride model, which fixes the protocol scaling and what the motor can do.
    pub model: RobstrideModel,
    /// `1` when positive motor rotation is positive joint motion, `-1` when mounted opposite.
    pub direction: Direction,
    /// Motor angle, rad, at which the joint (or the four-bar's input crank at `alpha_zero`) is at zero.
    #[serde(default)]
    pub zero_offset: f64,
    /// The linkage between motor and joint, where the joint is not driven directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub four_bar: Option<FourBar>,
    /// A prismatic joint's travel per motor revolution, m: a lead screw's lead, or 2π times a
    /// pinion's pitch radius. A prismatic joint needs it, a rotary one cannot have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<f64>,
}

impl Actuator {
    /// `dq/dθ` of a lead (travel per motor radian, m/rad): `lead / 2π`. The whole mapping
    /// between joint and motor is [`crate::transmission::Transmission`].
    pub fn lead_ratio(&self) -> Option<f64> {
        self.lead.map(|lead| lead / std::f64::consts::TAU)
    }
}

/// The name of a bus, as a joint's actuator refers to it.
pub type BusName = Str;

/// A CAN id of an actuator: RobStride ids are 8 bits; 0 is reserved for broadcast and ids above
/// 127 are not assignable with the private protocol's type-7 frame.
///
/// The only way to one is [`CanId::new`], which checks the range; `robot!` calls it too, in a
/// `const` that fails to compile if the id were out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub struct CanId(u8);

impl CanId {
    /// The smallest assignable id.
    pub const MIN: u8 = 1;
    /// The largest assignable id.
    pub const MAX: u8 = 127;

    /// A validated id.
    pub const fn new(raw: u16) -> Result<Self, CanIdError> {
        if raw >= Self::MIN as u16 && raw <= Self::MAX as u16 {
            Ok(CanId(raw as u8))
        } else {
            Err(CanIdError(raw))
        }
    }

    /// The id as a byte.
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// A CAN id outside `1..=127`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("CAN id {0} is out of range {min}..={max}", min = CanId::MIN, max = CanId::MAX)]
pub struct CanIdError(pub u16);

impl TryFrom<u16> for CanId {
    type Error = CanIdError;
    fn try_from(raw: u16) -> Result<Self, CanIdError> {
        CanId::new(raw)
    }
}

impl From<CanId> for u16 {
    fn from(id: CanId) -> u16 {
        u16::from(id.0)
    }
}

impl JsonSchema for CanId {
    fn schema_name() -> Cow<'static, str> {
        "CanId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "CAN id of an actuator on its bus",
            "type": "integer",
            "minimum": CanId::MIN,
            "maximum": CanId::MAX,
        })
    }
}

impl std::fmt::Display for CanId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Mounting sense of a motor relative to its joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "i8", into = "i8")]
pub enum Direction {
    /// Positive motor rotation is positive joint motion (`1`).
    Forward,
    /// Positive motor rotation is negative joint motion (`-1`).
    Reversed,
}

impl Direction {
    /// `1.0` or `-1.0`.
    pub const fn sign(self) -> f64 {
        match self {
            Direction::Forward => 1.0,
            Direction::Reversed => -1.0,
        }
    }
}

impl TryFrom<i8> for Direction {
    type Error = String;
    fn try_from(raw: i8) -> Result<Self, String> {
        match raw {
            1 => Ok(Direction::Forward),
            -1 => Ok(Direction::Reversed),
            other => Err(format!("direction must be 1 or -1, not {other}")),
        }
    }
}

impl From<Direction> for i8 {
    fn from(d: Direction) -> i8 {
        match d {
            Direction::Forward => 1,
            Direction::Reversed => -1,
        }
    }
}

impl JsonSchema for Direction {
    fn schema_name() -> Cow<'static, str> {
        "Direction".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "1 when positive motor rotation is positive joint motion, -1 when mounted opposite",
            "type": "integer",
            "enum": [1, -1],
        })
    }
}

/// A field bus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bus {
    /// Bus name, unique in the robot. The OS interface (`can0`) is runtime configuration.
    pub name: Str,
    /// What kind of bus.
    pub kind: BusKind,
    /// The share of its bit rate the bus may fill each cycle, above 0 and at most 1; without it,
    /// 0.8 (80 %), the default ceiling of `robot_core::bus_load`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_load: Option<f64>,
}

/// The share of its bit rate a bus may fill each cycle unless its definition raises it: 80 %
/// (the module docs of `robot_core::bus_load` say why).
pub const DEFAULT_MAX_LOAD: f64 = 0.8;

impl Bus {
    /// The share of its bit rate the bus may fill each cycle: its own `max_load`, else 80 %.
    pub fn max_load(&self) -> f64 {
        self.max_load.unwrap_or(DEFAULT_MAX_LOAD)
    }
}

/// Kinds of field bus.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BusKind {
    /// Classic CAN 2.0.
    Can {
        /// Bit rate, bit/s.
        #[serde(default = "default_bitrate")]
        bitrate: u32,
    },
}

impl BusKind {
    /// The bus bit rate, bit/s.
    pub const fn bitrate(self) -> u32 {
        match self {
            BusKind::Can { bitrate } => bitrate,
        }
    }
}

/// 1 Mbit/s, the RobStride factory default.
pub const DEFAULT_CAN_BITRATE: u32 = 1_000_000;

fn default_bitrate() -> u32 {
    DEFAULT_CAN_BITRATE
}

/// A sensor mounted on a link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sensor {
    /// Sensor name, unique in the robot; also the ros2_control `<sensor>` name.
    pub name: Str,
    /// What the sensor measures.
    pub kind: SensorKind,
    /// The link the sensor is fixed to.
    pub link: Str,
    /// The ros2_control plugin that drives the sensor on real hardware.
    pub plugin: Str,
    /// Hardware parameters of that plugin.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub params: List<Param>,
    /// Contact sensors only: the normal force, N, from which `contact` reads 1 (1 N when
    /// absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
}

/// A contact sensor's threshold when the definition gives none, N: above the noise of a
/// resting contact, well below a foot's share of a small robot's weight.
pub const DEFAULT_CONTACT_THRESHOLD: f64 = 1.0;

impl Sensor {
    /// The state interfaces this sensor provides, in slot order.
    pub fn state_interfaces(&self) -> &'static [&'static str] {
        self.kind.state_interfaces()
    }

    /// A contact sensor's threshold, N.
    pub fn contact_threshold(&self) -> f64 {
        self.threshold.unwrap_or(DEFAULT_CONTACT_THRESHOLD)
    }

    /// Prefix of the MJCF sensor names (`<prefix>_quat`, `<prefix>_gyro`, `<prefix>_accel`): the
    /// sensor name without a trailing `_imu`, so `base_imu` reads `base_quat`, as MujocoSystem expects.
    pub fn mujoco_prefix(&self) -> &str {
        self.name.strip_suffix("_imu").unwrap_or(&self.name)
    }
}

/// Kinds of sensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SensorKind {
    /// Orientation quaternion, angular velocity and linear acceleration.
    Imu,
    /// Force and torque that the link's parent exerts on it, in the link's frame (an ankle or
    /// wrist force/torque sensor).
    ForceTorque,
    /// Whether the link's collision geometry touches something, and how hard (a foot switch).
    Contact,
}

impl SensorKind {
    /// The state interfaces of a sensor of this kind, in slot order.
    pub const fn state_interfaces(self) -> &'static [&'static str] {
        match self {
            SensorKind::Imu => &crate::interface::IMU_STATE_INTERFACES,
            SensorKind::ForceTorque => &crate::interface::FORCE_TORQUE_STATE_INTERFACES,
            SensorKind::Contact => &crate::interface::CONTACT_STATE_INTERFACES,
        }
    }

    /// What messages call a sensor of this kind: `IMU`, `force/torque sensor`, `contact sensor`.
    pub const fn noun(self) -> &'static str {
        match self {
            SensorKind::Imu => "IMU",
            SensorKind::ForceTorque => "force/torque sensor",
            SensorKind::Contact => "contact sensor",
        }
    }

    /// The `robot!` keyword that declares a sensor of this kind.
    pub const fn keyword(self) -> &'static str {
        match self {
            SensorKind::Imu => "imu",
            SensorKind::ForceTorque => "force_torque",
            SensorKind::Contact => "contact",
        }
    }
}

/// A named hardware parameter, emitted as `<param name="...">value</param>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// Parameter name.
    pub name: Str,
    /// Parameter value, as ros2_control reads it: text.
    pub value: Str,
}

/// Parameters of `mock_components/GenericSystem`, as its source reads them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MockParams {
    /// Integrate the highest commanded derivative into the lower states (`calculate_dynamics`).
    #[serde(default)]
    pub calculate_dynamics: bool,
    /// Added to a mirrored position command to give the position state
    /// (`position_state_following_offset`).
    #[serde(default)]
    pub position_state_following_offset: f64,
    /// Sensor states take their values from same-named command interfaces
    /// (`mock_sensor_commands`).
    #[serde(default)]
    pub mock_sensor_commands: bool,
    /// States are not updated from commands at all (`disable_commands`).
    #[serde(default)]
    pub disable_commands: bool,
}

impl Default for MockParams {
    fn default() -> Self {
        MockParams::DEFAULT
    }
}

impl MockParams {
    /// GenericSystem's defaults.
    pub const DEFAULT: MockParams = MockParams {
        calculate_dynamics: false,
        position_state_following_offset: 0.0,
        mock_sensor_commands: false,
        disable_commands: false,
    };
}
