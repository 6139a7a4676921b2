//! The nodes of a process, as ROS tools see them.
//!
//! A ROS 2 process is one DDS participant; its nodes exist only in what it announces on the
//! `ros_discovery_info` topic: one `rmw_dds_common/msg/ParticipantEntitiesInfo` sample (the
//! participant's GUID, and each node's namespace, name and the GUIDs of its readers and
//! writers), reliable, transient-local, keep-last 1, sent again whenever a node or an endpoint
//! comes or goes, as Jazzy's RMWs do it (`rmw_dds_common`'s graph cache). `ros2 node list`
//! lists those nodes, and `ros2 topic info -v` names the node of an endpoint from them; an
//! endpoint no node claims shows as `_CREATED_BY_BARE_DDS_APP_`.

use std::sync::{Arc, Weak};

use ros2_msg::msg::{Gid, NodeEntitiesInfo, ParticipantEntitiesInfo};
use ros2_msg::{BoundedString, Message, NodeName, QosProfile, TypeHash};
use rustdds::no_key::DataWriter;
use rustdds::{DomainParticipant, TopicKind};

use crate::adapters::RosCdr;
use crate::error::WireError;
use crate::qos::policies;

/// rmw_dds_common's topic, named without ROS's `rt/` prefix.
const DISCOVERY_TOPIC: &str = "ros_discovery_info";

/// rmw_dds_common's QoS for it: a late joiner gets the newest announcement.
const DISCOVERY_QOS: QosProfile = QosProfile {
    reliability: ros2_msg::ReliabilityKind::Reliable,
    depth: 1,
    transient_local: true,
};

/// What identifies a node while anything of it lives: its [`crate::Node`] handles and its
/// endpoints each hold one.
#[derive(Debug)]
pub(crate) struct NodeToken {
    pub(crate) name: NodeName,
}

/// Whether an endpoint reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Reader,
    Writer,
}

/// One announced node, on the DDS thread.
struct Registered {
    token: Weak<NodeToken>,
    name: NodeName,
    readers: Vec<[u8; 16]>,
    writers: Vec<[u8; 16]>,
}

/// The nodes of the participant and the writer that announces them; lives on the DDS thread.
pub(crate) struct NodeRegistry {
    participant: [u8; 16],
    nodes: Vec<Registered>,
    writer: DataWriter<ParticipantEntitiesInfo, RosCdr>,
    /// Reused for every announcement.
    announcement: ParticipantEntitiesInfo,
    changed: bool,
}

impl NodeRegistry {
    /// The registry of `participant`, which announces it has no nodes yet.
    pub(crate) fn new(
        participant: &DomainParticipant,
        publisher: &rustdds::Publisher,
    ) -> Result<NodeRegistry, WireError> {
        let type_name = ParticipantEntitiesInfo::DESCRIPTION.dds_type_name();
        let topic = participant
            .create_topic(
                DISCOVERY_TOPIC.to_string(),
                type_name,
                &policies(&DISCOVERY_QOS),
                TopicKind::NoKey,
            )
            .map_err(|e| WireError::dds(format!("cannot create topic `{DISCOVERY_TOPIC}`"), e))?;
        let qos = policies(&DISCOVERY_QOS).with_user_data(
            TypeHash::of::<ParticipantEntitiesInfo>()
                .user_data()
                .into_bytes(),
        );
        let writer = publisher
            .create_datawriter_no_key::<ParticipantEntitiesInfo, RosCdr>(&topic, Some(qos))
            .map_err(|e| {
                WireError::dds(format!("cannot create a writer on `{DISCOVERY_TOPIC}`"), e)
            })?;
        let mut registry = NodeRegistry {
            participant: rustdds::RTPSEntity::guid(participant).to_bytes(),
            nodes: Vec::new(),
            writer,
            announcement: ParticipantEntitiesInfo::default(),
            changed: true,
        };
        registry.announce_if_changed();
        Ok(registry)
    }

    /// Announces node `token` (once, however often it is asked).
    pub(crate) fn add_node(&mut self, token: &Arc<NodeToken>) {
        self.entry(token);
    }

    /// Announces endpoint `gid` as `token`'s.
    pub(crate) fn add_endpoint(
        &mut self,
        token: &Arc<NodeToken>,
        gid: [u8; 16],
        direction: Direction,
    ) {
        let entry = self.entry(token);
        match direction {
            Direction::Reader => entry.readers.push(gid),
            Direction::Writer => entry.writers.push(gid),
        }
        self.changed = true;
    }

    /// Stops announcing endpoint `gid` (deleted).
    pub(crate) fn forget_endpoint(&mut self, gid: [u8; 16]) {
        for node in &mut self.nodes {
            let before = node.readers.len() + node.writers.len();
            node.readers.retain(|g| *g != gid);
            node.writers.retain(|g| *g != gid);
            self.changed |= node.readers.len() + node.writers.len() != before;
        }
    }

    /// Forgets the nodes nothing holds any more, and announces what changed.
    pub(crate) fn housekeeping(&mut self) {
        let before = self.nodes.len();
        self.nodes.retain(|n| n.token.strong_count() > 0);
        self.changed |= self.nodes.len() != before;
        self.announce_if_changed();
    }

    /// Writes the announcement if anything changed since the last.
    pub(crate) fn announce_if_changed(&mut self) {
        if !std::mem::take(&mut self.changed) {
            return;
        }
        let announcement = &mut self.announcement;
        announcement.gid = Gid {
            data: self.participant,
        };
        announcement.node_entities_info_seq = self
            .nodes
            .iter()
            .map(|node| NodeEntitiesInfo {
                node_namespace: BoundedString(node.name.namespace().to_string()),
                node_name: BoundedString(node.name.name().to_string()),
                reader_gid_seq: node.readers.iter().map(|&data| Gid { data }).collect(),
                writer_gid_seq: node.writers.iter().map(|&data| Gid { data }).collect(),
            })
            .collect();
        // A failed write is tried again at the next change; there is no one to tell.
        if self.writer.write(announcement.clone(), None).is_err() {
            self.changed = true;
        }
    }

    fn entry(&mut self, token: &Arc<NodeToken>) -> &mut Registered {
        let at = match (self.nodes.iter())
            .position(|n| std::ptr::eq(n.token.as_ptr(), Arc::as_ptr(token)))
        {
            Some(at) => at,
            None => {
                self.nodes.push(Registered {
                    token: Arc::downgrade(token),
                    name: token.name.clone(),
                    readers: Vec::new(),
                    writers: Vec::new(),
                });
                self.changed = true;
                self.nodes.len() - 1
            }
        };
        &mut self.nodes[at]
    }
}
