//! QoS profiles as rclcpp names them (`ros2-dds` maps them to the DDS policies).

/// Whether samples are resent until acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReliabilityKind {
    /// Resent until acknowledged.
    Reliable,
    /// Sent once.
    BestEffort,
}

/// The few QoS policies ROS 2 profiles set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QosProfile {
    /// Reliable or best effort.
    pub reliability: ReliabilityKind,
    /// Keep-last depth.
    pub depth: u16,
    /// Transient-local (late joiners get the last samples) rather than volatile.
    pub transient_local: bool,
}

impl QosProfile {
    /// `rclcpp::QoS(depth)`: reliable, keep-last `depth`, volatile.
    pub const fn reliable(depth: u16) -> QosProfile {
        QosProfile {
            reliability: ReliabilityKind::Reliable,
            depth,
            transient_local: false,
        }
    }

    /// `rclcpp::SensorDataQoS()`: best effort, keep-last 5, volatile.
    pub const SENSOR_DATA: QosProfile = QosProfile {
        reliability: ReliabilityKind::BestEffort,
        depth: 5,
        transient_local: false,
    };
}
