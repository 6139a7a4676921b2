//! QoS profiles as rclcpp names them, mapped to the DDS policies.

use rustdds::policy::{Durability, History, Reliability};
use rustdds::{QosPolicies, QosPolicyBuilder};

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

    /// The DDS policies.
    pub(crate) fn policies(&self) -> QosPolicies {
        let reliability = match self.reliability {
            ReliabilityKind::Reliable => Reliability::Reliable {
                // rmw's default: a writer never blocks long on a full history.
                max_blocking_time: rustdds::Duration::from_millis(100),
            },
            ReliabilityKind::BestEffort => Reliability::BestEffort,
        };
        QosPolicyBuilder::new()
            .reliability(reliability)
            .history(History::KeepLast {
                depth: i32::from(self.depth),
            })
            .durability(if self.transient_local {
                Durability::TransientLocal
            } else {
                Durability::Volatile
            })
            .build()
    }
}
