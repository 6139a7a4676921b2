//! A [`QosProfile`]'s DDS policies.

use ros2_msg::{QosProfile, ReliabilityKind};
use rustdds::policy::{Durability, History, Reliability};
use rustdds::{QosPolicies, QosPolicyBuilder};

/// The DDS policies of `profile`.
pub(crate) fn policies(profile: &QosProfile) -> QosPolicies {
    let reliability = match profile.reliability {
        ReliabilityKind::Reliable => Reliability::Reliable {
            // rmw's default: a writer never blocks long on a full history.
            max_blocking_time: rustdds::Duration::from_millis(100),
        },
        ReliabilityKind::BestEffort => Reliability::BestEffort,
    };
    QosPolicyBuilder::new()
        .reliability(reliability)
        .history(History::KeepLast {
            depth: i32::from(profile.depth),
        })
        .durability(if profile.transient_local {
            Durability::TransientLocal
        } else {
            Durability::Volatile
        })
        .build()
}
