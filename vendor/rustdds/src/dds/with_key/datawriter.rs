use std::{
  marker::PhantomData,
  pin::Pin,
  task::{Context, Poll},
  time::{Duration, Instant},
};

use futures::Future;
#[allow(unused_imports)]
use log::{debug, error, info, trace, warn};

use crate::{
  dds::{
    adapters::with_key::SerializerAdapter,
    ddsdata::DDSData,
    pubsub::Publisher,
    qos::{
      policy::{Liveliness, Reliability},
      HasQoSPolicy, QosPolicies,
    },
    result::{CreateResult, WriteError, WriteResult},
    statusevents::*,
    topic::Topic,
  },
  discovery::{discovery::DiscoveryCommand, sedp_messages::SubscriptionBuiltinTopicData},
  messages::submessages::elements::serialized_payload::SerializedPayload,
  polling::{Doorbell, WakeSender},
  rtps::writer_send_buffer::{Admission, WriterSendBuffer},
  serialization::CDRSerializerAdapter,
  structure::{
    cache_change::ChangeKind, entity::RTPSEntity, guid::GUID, rpc::SampleIdentity,
    sequence_number::SequenceNumber, time::Timestamp,
  },
  Keyed, TopicDescription,
};

// TODO: Move the write options and the builder type to some lower-level module
// to avoid circular dependencies.
#[derive(Debug, Default)]
pub struct WriteOptionsBuilder {
  related_sample_identity: Option<SampleIdentity>,
  source_timestamp: Option<Timestamp>,
  to_single_reader: Option<GUID>,
  best_effort_may_block: bool,
}

impl WriteOptionsBuilder {
  pub fn new() -> Self {
    Self::default()
  }

  pub fn build(self) -> WriteOptions {
    WriteOptions {
      related_sample_identity: self.related_sample_identity,
      source_timestamp: self.source_timestamp,
      to_single_reader: self.to_single_reader,
      best_effort_may_block: self.best_effort_may_block,
    }
  }

  #[must_use]
  pub fn related_sample_identity(mut self, related_sample_identity: SampleIdentity) -> Self {
    self.related_sample_identity = Some(related_sample_identity);
    self
  }

  #[must_use]
  pub fn related_sample_identity_opt(
    mut self,
    related_sample_identity_opt: Option<SampleIdentity>,
  ) -> Self {
    self.related_sample_identity = related_sample_identity_opt;
    self
  }

  #[must_use]
  pub fn source_timestamp(mut self, source_timestamp: Timestamp) -> Self {
    self.source_timestamp = Some(source_timestamp);
    self
  }

  #[must_use]
  pub fn to_single_reader(mut self, reader: GUID) -> Self {
    self.to_single_reader = Some(reader);
    self
  }

  /// Whether a best-effort `write` call is allowed to block under send-socket
  /// congestion.
  ///
  /// This option only affects **best-effort** DataWriters and has no effect on
  /// reliable ones (reliable writers always apply back-pressure bounded by
  /// their `max_blocking_time`).
  ///
  /// - `false` (the default): the `write` call never blocks for a best-effort
  ///   writer. If the outgoing network socket is congested, the sample is
  ///   dropped rather than retained. This matches the DDS specification v1.4
  ///   section 2.2.2.4.2.11 ("write"), which does not permit `write` to block
  ///   for best-effort reliability.
  /// - `true`: the nonblocking-transmit back-pressure is extended to this
  ///   best-effort write, so the `write` call may block while the send socket
  ///   is congested (until it drains), instead of dropping the sample.
  #[must_use]
  pub fn best_effort_may_block(mut self, may_block: bool) -> Self {
    self.best_effort_may_block = may_block;
    self
  }
}

/// Type to be used with write_with_options.
/// Use WriteOptionsBuilder to construct this.
#[derive(Clone, Eq, PartialEq, Ord, PartialOrd, Debug, Default)]
pub struct WriteOptions {
  related_sample_identity: Option<SampleIdentity>, // for DDS-RPC
  source_timestamp: Option<Timestamp>,             // from DDS spec
  to_single_reader: Option<GUID>,                  /* try to send to one Reader only
                                                    * future extension room fo other fields. */
  // nonblocking-transmit: opt-in blocking back-pressure for best-effort writers.
  // Defaults to `false` (DDS v1.4 section 2.2.2.4.2.11: `write` must not block
  // for best-effort reliability). See `WriteOptionsBuilder::best_effort_may_block`.
  best_effort_may_block: bool,
}

impl WriteOptions {
  pub fn related_sample_identity(&self) -> Option<SampleIdentity> {
    self.related_sample_identity
  }

  pub fn source_timestamp(&self) -> Option<Timestamp> {
    self.source_timestamp
  }

  pub fn to_single_reader(&self) -> Option<GUID> {
    self.to_single_reader
  }

  /// Whether a best-effort `write` call is allowed to block under send-socket
  /// congestion (see [`WriteOptionsBuilder::best_effort_may_block`]).
  ///
  /// Only meaningful for best-effort DataWriters; reliable writers always apply
  /// back-pressure regardless of this flag. Defaults to `false`, so by default
  /// a best-effort `write` never blocks and drops samples under congestion,
  /// as required by DDS v1.4 section 2.2.2.4.2.11.
  pub fn best_effort_may_block(&self) -> bool {
    self.best_effort_may_block
  }
}

impl From<Option<Timestamp>> for WriteOptions {
  fn from(source_timestamp: Option<Timestamp>) -> Self {
    Self {
      related_sample_identity: None,
      source_timestamp,
      to_single_reader: None,
      best_effort_may_block: false,
    }
  }
}

/// Simplified type for CDR encoding
pub type DataWriterCdr<D> = DataWriter<D, CDRSerializerAdapter<D>>;

/// DDS DataWriter for keyed topics
///
/// # Examples
///
/// ```
/// use serde::{Serialize, Deserialize};
/// use rustdds::*;
/// use rustdds::with_key::DataWriter;
/// use rustdds::serialization::CDRSerializerAdapter;
///
/// let domain_participant = DomainParticipant::new(0).unwrap();
/// let qos = QosPolicyBuilder::new().build();
/// let publisher = domain_participant.create_publisher(&qos).unwrap();
///
/// #[derive(Serialize, Deserialize, Debug)]
/// struct SomeType { a: i32 }
/// impl Keyed for SomeType {
///   type K = i32;
///
///   fn key(&self) -> Self::K {
///     self.a
///   }
/// }
///
/// // WithKey is important
/// let topic = domain_participant.create_topic("some_topic".to_string(), "SomeType".to_string(), &qos, TopicKind::WithKey).unwrap();
/// let data_writer = publisher.create_datawriter::<SomeType, CDRSerializerAdapter<_>>(&topic, None);
/// ```
pub struct DataWriter<D: Keyed, SA: SerializerAdapter<D> = CDRSerializerAdapter<D>> {
  data_phantom: PhantomData<D>,
  ser_phantom: PhantomData<SA>,
  my_publisher: Publisher,
  my_topic: Topic,
  qos_policy: QosPolicies,
  my_guid: GUID,
  /// Shared, flow-controlled send buffer. Admission allocates the sequence
  /// number and stores the sample only when the reliable window has room.
  send_buffer: WriterSendBuffer,
  /// Rung after a successful admission so the event loop wakes and transmits.
  doorbell: Doorbell,
  discovery_command: WakeSender<DiscoveryCommand>,
  status_receiver: StatusChannelReceiver<DataWriterStatus>,
}

impl<D, SA> Drop for DataWriter<D, SA>
where
  D: Keyed,
  SA: SerializerAdapter<D>,
{
  fn drop(&mut self) {
    // Tell Publisher to drop the corresponding RTPS Writer
    self.my_publisher.remove_writer(self.my_guid);

    // Notify Discovery that we are no longer
    match self
      .discovery_command
      .send(DiscoveryCommand::RemoveLocalWriter { guid: self.guid() })
    {
      Ok(_) => {}

      // This is fairly normal at shutdown, as the other end is down already.
      Err(_) => {
        debug!("Failed to send REMOVE_LOCAL_WRITER DiscoveryCommand: Disconnected.");
      }
    }
  }
}

include!("datawriter/writer.rs");
include!("datawriter/events_and_tests.rs");
