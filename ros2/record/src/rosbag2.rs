//! What rosbag2's MCAP storage plugin (Jazzy, bag format version 9) writes besides the messages:
//! each channel's `offered_qos_profiles` (YAML, so `ros2 bag play` offers the same QoS) and
//! `topic_type_hash`, and at the end a metadata record `rosbag2` whose `serialized_metadata` is
//! the bag's `metadata.yaml` content, so `ros2 bag info` needs no `metadata.yaml` beside it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcap::records::Metadata;

use ros2_msg::{QosProfile, ReliabilityKind};

/// The ROS distribution whose rosbag2 this matches.
pub const ROS_DISTRO: &str = "jazzy";
/// rosbag2's bag format version in Jazzy.
pub const BAG_VERSION: u32 = 9;

/// RMW_DURATION_INFINITE as rosbag2 writes it: no deadline, lifespan or lease.
const INFINITE: &str = "\n    sec: 9223372036\n    nsec: 854775807";

/// A channel's `offered_qos_profiles`: the one profile its publisher offers, as a YAML list.
pub fn offered_qos_profiles(qos: &QosProfile) -> String {
    let reliability = match qos.reliability {
        ReliabilityKind::Reliable => "reliable",
        ReliabilityKind::BestEffort => "best_effort",
    };
    let durability = if qos.transient_local {
        "transient_local"
    } else {
        "volatile"
    };
    format!(
        "- history: keep_last\n  depth: {depth}\n  reliability: {reliability}\n  \
         durability: {durability}\n  deadline:{INFINITE}\n  lifespan:{INFINITE}\n  \
         liveliness: automatic\n  liveliness_lease_duration:{INFINITE}\n  \
         avoid_ros_namespace_conventions: false",
        depth = qos.depth,
    )
}

/// `offered_qos_profiles` as the value of a mapping key `indent` spaces deep: each line
/// indented, or `[]` when the channel offers none.
fn qos_value(offered: &str, indent: usize) -> String {
    if offered.trim().is_empty() {
        return " []\n".to_string();
    }
    let pad = " ".repeat(indent);
    let lines = offered.lines().map(|line| format!("{pad}{line}\n"));
    std::iter::once("\n".to_string()).chain(lines).collect()
}

/// One topic of the bag, for [`serialized_metadata`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicSummary {
    /// `/joint_states`.
    pub name: String,
    /// `sensor_msgs/msg/JointState`.
    pub type_name: String,
    /// `RIHS01_…`.
    pub type_hash: String,
    /// What its publisher offers: the channel's `offered_qos_profiles`
    /// ([`offered_qos_profiles`]).
    pub offered_qos_profiles: String,
    /// Messages recorded.
    pub message_count: u64,
}

/// The bag as a whole, for [`serialized_metadata`].
#[derive(Debug, Clone, PartialEq)]
pub struct BagSummary<'a> {
    /// The file's name (no folder), as `relative_file_paths` has it.
    pub file_name: &'a str,
    /// The first message's log time, ns since the epoch.
    pub start_ns: u64,
    /// From the first message's log time to the last's, ns.
    pub duration_ns: u64,
    /// Every channel, recorded or not.
    pub topics: &'a [TopicSummary],
}

/// rosbag2's `BagMetadata` as its YAML converter writes it (the `rosbag2_bagfile_information`
/// mapping of a `metadata.yaml`).
pub fn serialized_metadata(bag: &BagSummary<'_>) -> String {
    let count: u64 = bag.topics.iter().map(|t| t.message_count).sum();
    let mut out = String::new();
    let _ = write!(
        out,
        "version: {BAG_VERSION}\nstorage_identifier: mcap\nduration:\n  nanoseconds: {duration}\n\
         starting_time:\n  nanoseconds_since_epoch: {start}\nmessage_count: {count}\n\
         topics_with_message_count:\n",
        duration = bag.duration_ns,
        start = bag.start_ns,
    );
    for topic in bag.topics {
        let _ = write!(
            out,
            "  - topic_metadata:\n      name: {}\n      type: {}\n      \
             serialization_format: cdr\n      offered_qos_profiles:{}      \
             type_description_hash: {}\n    message_count: {}\n",
            topic.name,
            topic.type_name,
            qos_value(&topic.offered_qos_profiles, 8),
            topic.type_hash,
            topic.message_count,
        );
    }
    let _ = write!(
        out,
        "compression_format: \"\"\ncompression_mode: \"\"\nrelative_file_paths:\n  - {file}\n\
         files:\n  - path: {file}\n    starting_time:\n      nanoseconds_since_epoch: {start}\n    \
         duration:\n      nanoseconds: {duration}\n    message_count: {count}\n\
         custom_data: ~\nros_distro: {ROS_DISTRO}\n",
        file = bag.file_name,
        start = bag.start_ns,
        duration = bag.duration_ns,
    );
    out
}

/// The name of the metadata record holding [`serialized_metadata`].
pub const METADATA_NAME: &str = "rosbag2";

/// The metadata record rosbag2 writes at the end of a bag: `serialized_metadata` (the bag's
/// `metadata.yaml` content) and `ROS_DISTRO`.
pub fn metadata_record(bag: &BagSummary<'_>) -> Metadata {
    Metadata {
        name: METADATA_NAME.to_string(),
        metadata: BTreeMap::from([
            ("serialized_metadata".to_string(), serialized_metadata(bag)),
            ("ROS_DISTRO".to_string(), ROS_DISTRO.to_string()),
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qos_is_rosbag2_jazzy_yaml() {
        let text = offered_qos_profiles(&QosProfile::reliable(10));
        assert!(
            text.starts_with("- history: keep_last\n  depth: 10\n  reliability: reliable\n  durability: volatile\n  deadline:\n    sec: 9223372036\n    nsec: 854775807\n"),
            "{text}"
        );
        assert!(
            text.ends_with("  avoid_ros_namespace_conventions: false"),
            "{text}"
        );
    }

    #[test]
    fn the_metadata_lists_every_topic_with_its_count() {
        let topics = [TopicSummary {
            name: "/joint_states".into(),
            type_name: "sensor_msgs/msg/JointState".into(),
            type_hash: "RIHS01_00".into(),
            offered_qos_profiles: offered_qos_profiles(&QosProfile::SENSOR_DATA),
            message_count: 7,
        }];
        let text = serialized_metadata(&BagSummary {
            file_name: "run.mcap",
            start_ns: 5,
            duration_ns: 10,
            topics: &topics,
        });
        assert!(text.contains("message_count: 7\ntopics_with_message_count:\n  - topic_metadata:\n      name: /joint_states\n"), "{text}");
        assert!(text.contains("        - history: keep_last\n          depth: 5\n          reliability: best_effort\n"), "{text}");
        assert!(
            text.ends_with("custom_data: ~\nros_distro: jazzy\n"),
            "{text}"
        );
    }

    #[test]
    fn a_topic_without_qos_profiles_offers_an_empty_list() {
        let topics = [TopicSummary {
            name: "/notes".into(),
            type_name: "std_msgs/msg/String".into(),
            type_hash: "RIHS01_00".into(),
            offered_qos_profiles: String::new(),
            message_count: 1,
        }];
        let text = serialized_metadata(&BagSummary {
            file_name: "run.mcap",
            start_ns: 5,
            duration_ns: 0,
            topics: &topics,
        });
        assert!(
            text.contains(
                "      offered_qos_profiles: []\n      type_description_hash: RIHS01_00\n"
            ),
            "{text}"
        );
    }
}
