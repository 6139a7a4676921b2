//! Interface kinds and their ros2_control names.
//!
//! The MIT command surface of a RobStride joint is `position`, `velocity`, `effort` (feed-forward),
//! `stiffness` and `damping`; every backend applies
//! `τ = stiffness·(q* − q) + damping·(v* − v) + τ_ff`, clamped to the torque limit. Gains are never
//! called `kp`/`kd`/`p`/`d`/`i`: some MujocoSystem forks read those as PID gains.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A joint interface, as ros2_control names it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum InterfaceKind {
    /// Position, rad or m.
    Position,
    /// Velocity, rad/s or m/s.
    Velocity,
    /// Acceleration, rad/s² or m/s².
    Acceleration,
    /// Effort: torque (N·m) or force (N); as a command, the MIT feed-forward term.
    Effort,
    /// MIT stiffness (Kp), N·m/rad; command only.
    Stiffness,
    /// MIT damping (Kd), N·m·s/rad; command only.
    Damping,
    /// Motor current, A.
    Current,
    /// Winding temperature, °C; state only.
    Temperature,
}

impl InterfaceKind {
    /// Every kind, in the order above.
    pub const ALL: [InterfaceKind; 8] = [
        InterfaceKind::Position,
        InterfaceKind::Velocity,
        InterfaceKind::Acceleration,
        InterfaceKind::Effort,
        InterfaceKind::Stiffness,
        InterfaceKind::Damping,
        InterfaceKind::Current,
        InterfaceKind::Temperature,
    ];

    /// The ros2_control interface name, `position`.
    pub const fn name(self) -> &'static str {
        match self {
            InterfaceKind::Position => "position",
            InterfaceKind::Velocity => "velocity",
            InterfaceKind::Acceleration => "acceleration",
            InterfaceKind::Effort => "effort",
            InterfaceKind::Stiffness => "stiffness",
            InterfaceKind::Damping => "damping",
            InterfaceKind::Current => "current",
            InterfaceKind::Temperature => "temperature",
        }
    }

    /// The kind named so.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether a joint can accept it as a command.
    pub const fn is_command(self) -> bool {
        !matches!(self, InterfaceKind::Temperature)
    }

    /// Whether a joint can report it as a state.
    pub const fn is_state(self) -> bool {
        !matches!(self, InterfaceKind::Stiffness | InterfaceKind::Damping)
    }

    /// Unit of a rotational joint's interface, for tables.
    pub const fn unit(self) -> &'static str {
        match self {
            InterfaceKind::Position => "rad",
            InterfaceKind::Velocity => "rad/s",
            InterfaceKind::Acceleration => "rad/s²",
            InterfaceKind::Effort => "N·m",
            InterfaceKind::Stiffness => "N·m/rad",
            InterfaceKind::Damping => "N·m·s/rad",
            InterfaceKind::Current => "A",
            InterfaceKind::Temperature => "°C",
        }
    }
}

impl std::fmt::Display for InterfaceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The state interfaces of an IMU, in the order ros2_control's `imu_sensor_broadcaster` reads them
/// and in the order of the IMU's slots in a state vector.
pub const IMU_STATE_INTERFACES: [&str; 10] = [
    "orientation.x",
    "orientation.y",
    "orientation.z",
    "orientation.w",
    "angular_velocity.x",
    "angular_velocity.y",
    "angular_velocity.z",
    "linear_acceleration.x",
    "linear_acceleration.y",
    "linear_acceleration.z",
];

/// The state interfaces of a force/torque sensor, in the order ros2_control's
/// `force_torque_sensor_broadcaster` reads them: the wrench on the sensor's link in its frame.
pub const FORCE_TORQUE_STATE_INTERFACES: [&str; 6] = [
    "force.x", "force.y", "force.z", "torque.x", "torque.y", "torque.z",
];

/// The state interfaces of a contact sensor: `contact` (1 when the normal force reaches the
/// sensor's threshold, else 0) and `normal_force` (N, summed over the contacts it senses).
pub const CONTACT_STATE_INTERFACES: [&str; 2] = ["contact", "normal_force"];
