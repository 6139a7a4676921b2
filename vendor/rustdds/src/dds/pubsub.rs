use std::{
  fmt::Debug,
  sync::{Arc, Mutex, MutexGuard, RwLock},
  time::Duration,
};

use serde::{Deserialize, Serialize};
use byteorder::LittleEndian;
#[allow(unused_imports)]
use log::{debug, error, info, trace, warn};

use crate::{
  create_error_dropped, create_error_poisoned,
  dds::{
    adapters,
    key::Keyed,
    no_key,
    no_key::{
      datareader::DataReader as NoKeyDataReader, datawriter::DataWriter as NoKeyDataWriter,
    },
    participant::*,
    qos::*,
    result::{CreateError, CreateResult, WaitResult},
    statusevents::{sync_status_channel, DataReaderStatus},
    topic::*,
    with_key,
    with_key::{
      datareader::DataReader as WithKeyDataReader, datawriter::DataWriter as WithKeyDataWriter,
    },
  },
  discovery::{
    discovery::DiscoveryCommand, discovery_db::DiscoveryDB, sedp_messages::DiscoveredWriterData,
  },
  mio_source,
  polling::{wake_channel, BoundSender, Doorbell, ReadySender, WakeSender},
  rtps::{
    constant::DEFAULT_WRITER_MAX_SAMPLES, reader::ReaderIngredients, writer::WriterIngredients,
    writer_send_buffer::WriterSendBuffer,
  },
  serialization::{CDRDeserializerAdapter, CDRSerializerAdapter},
  structure::{
    entity::RTPSEntity,
    guid::{EntityId, EntityKind, GUID},
  },
};
use super::{
  no_key::wrappers::{DAWrapper, NoKeyWrapper, SAWrapper},
  with_key::simpledatareader::ReaderCommand,
};
#[cfg(feature = "security")]
use crate::{
  create_error_internal, create_error_not_allowed_by_security,
  security::{security_plugins::SecurityPluginsHandle, EndpointSecurityInfo},
};
#[cfg(not(feature = "security"))]
use crate::no_security::{security_plugins::SecurityPluginsHandle, EndpointSecurityInfo};

// -------------------------------------------------------------------

/// DDS Publisher
///
/// The Publisher and Subscriber structures are collections of DataWriters
/// and, respectively, DataReaders. They can contain DataWriters or DataReaders
/// of different types, and attached to different Topics.
///
/// They can act as a domain of sample ordering or atomicity, if such QoS
/// policies are used. For example, DDS participants could agree via QoS
/// policies that data samples must be presented to readers in the same order as
/// writers have written them, and the ordering applies also between several
/// writers/readers, but within one publisher/subscriber. Analogous arrangement
/// can be set up w.r.t. coherency: All the samples in a transaction are
/// delivered to the readers, or none are. The transaction can span several
/// readers, writers, and topics in a single publisher/subscriber.
///
///
/// # Examples
///
/// ```
/// # use rustdds::DomainParticipant;
/// # use rustdds::qos::QosPolicyBuilder;
/// use rustdds::Publisher;
///
/// let domain_participant = DomainParticipant::new(0).unwrap();
/// let qos = QosPolicyBuilder::new().build();
///
/// let publisher = domain_participant.create_publisher(&qos);
/// ```
///
/// # Panics
///
/// Panics if an internal mutex is poisoned (a prior panic occurred while
/// holding the lock). This indicates a RustDDS internal defect, not user
/// misuse.
#[derive(Clone)]
pub struct Publisher {
  inner: Arc<Mutex<InnerPublisher>>,
}

impl Publisher {
  #[allow(clippy::too_many_arguments)]
  pub(super) fn new(
    dp: DomainParticipantWeak,
    discovery_db: Arc<RwLock<DiscoveryDB>>,
    qos: QosPolicies,
    default_dw_qos: QosPolicies,
    add_writer_sender: WakeSender<WriterIngredients>,
    remove_writer_sender: WakeSender<GUID>,
    discovery_command: WakeSender<DiscoveryCommand>,
    security_plugins_handle: Option<SecurityPluginsHandle>,
    writer_ready: ReadySender<EntityId>,
  ) -> Self {
    Self {
      inner: Arc::new(Mutex::new(InnerPublisher::new(
        dp,
        discovery_db,
        qos,
        default_dw_qos,
        add_writer_sender,
        remove_writer_sender,
        discovery_command,
        writer_ready,
        security_plugins_handle,
      ))),
    }
  }

  fn inner_lock(&self) -> MutexGuard<'_, InnerPublisher> {
    self.inner.lock().unwrap_or_else(|e| {
      panic!("RustDDS internal bug: InnerPublisher lock poisoned after a prior panic: {e:?}")
    })
  }

  /// Creates DDS [DataWriter](struct.With_Key_DataWriter.html) for Keyed topic
  ///
  /// # Arguments
  ///
  /// * `entity_id` - Custom entity id if necessary for the user to define it
  /// * `topic` - Reference to DDS Topic this writer is created to
  /// * `qos` - Not currently in use
  ///
  /// # Examples
  ///
  /// ```
  /// # use rustdds::*;
  /// use rustdds::serialization::CDRSerializerAdapter;
  /// use serde::Serialize;
  ///
  /// let domain_participant = DomainParticipant::new(0).unwrap();
  /// let qos = QosPolicyBuilder::new().build();
  ///
  /// let publisher = domain_participant.create_publisher(&qos).unwrap();
  ///
  /// #[derive(Serialize)]
  /// struct SomeType { a: i32 }
  /// impl Keyed for SomeType {
  ///   type K = i32;
  ///
  ///   fn key(&self) -> Self::K {
  ///     self.a
  ///   }
  /// }
  ///
  /// let topic = domain_participant.create_topic("some_topic".to_string(), "SomeType".to_string(), &qos, TopicKind::WithKey).unwrap();
  /// let data_writer = publisher.create_datawriter::<SomeType, CDRSerializerAdapter<_>>(&topic, None);
  /// ```
  pub fn create_datawriter<D, SA>(
    &self,
    topic: &Topic,
    qos: Option<QosPolicies>,
  ) -> CreateResult<WithKeyDataWriter<D, SA>>
  where
    D: Keyed,
    SA: adapters::with_key::SerializerAdapter<D>,
  {
    self
      .inner_lock()
      .create_datawriter(self, None, topic, qos, false)
  }

  /// Shorthand for crate_datawriter with Common Data Representation Little
  /// Endian
  pub fn create_datawriter_cdr<D>(
    &self,
    topic: &Topic,
    qos: Option<QosPolicies>,
  ) -> CreateResult<WithKeyDataWriter<D, CDRSerializerAdapter<D, LittleEndian>>>
  where
    D: Keyed + serde::Serialize,
    <D as Keyed>::K: Serialize,
  {
    self.create_datawriter::<D, CDRSerializerAdapter<D, LittleEndian>>(topic, qos)
  }

  /// Creates DDS [DataWriter](struct.DataWriter.html) for Nokey Topic
  ///
  /// # Arguments
  ///
  /// * `entity_id` - Custom entity id if necessary for the user to define it
  /// * `topic` - Reference to DDS Topic this writer is created to
  /// * `qos` - QoS policies for this DataWriter
  ///
  /// # Examples
  ///
  /// ```
  /// # use rustdds::*;
  /// use rustdds::serialization::CDRSerializerAdapter;
  /// use serde::Serialize;
  ///
  /// let domain_participant = DomainParticipant::new(0).unwrap();
  /// let qos = QosPolicyBuilder::new().build();
  ///
  /// let publisher = domain_participant.create_publisher(&qos).unwrap();
  ///
  /// #[derive(Serialize)]
  /// struct SomeType {}
  ///
  /// let topic = domain_participant.create_topic("some_topic".to_string(), "SomeType".to_string(), &qos, TopicKind::WithKey).unwrap();
  /// let data_writer = publisher.create_datawriter_no_key::<SomeType, CDRSerializerAdapter<_>>(&topic, None);
  /// ```
  pub fn create_datawriter_no_key<D, SA>(
    &self,
    topic: &Topic,
    qos: Option<QosPolicies>,
  ) -> CreateResult<NoKeyDataWriter<D, SA>>
  where
    SA: adapters::no_key::SerializerAdapter<D>,
  {
    self
      .inner_lock()
      .create_datawriter_no_key(self, None, topic, qos, false)
  }

  pub fn create_datawriter_no_key_cdr<D>(
    &self,
    topic: &Topic,
    qos: Option<QosPolicies>,
  ) -> CreateResult<NoKeyDataWriter<D, CDRSerializerAdapter<D, LittleEndian>>>
  where
    D: serde::Serialize,
  {
    self.create_datawriter_no_key::<D, CDRSerializerAdapter<D, LittleEndian>>(topic, qos)
  }

  // Versions with callee-specified EntityId. These are for Discovery use only.

  pub(crate) fn create_datawriter_with_entity_id_with_key<D, SA>(
    &self,
    entity_id: EntityId,
    topic: &Topic,
    qos: Option<QosPolicies>,
    writer_like_stateless: bool, // Create a stateless-like RTPS writer?
  ) -> CreateResult<WithKeyDataWriter<D, SA>>
  where
    D: Keyed,
    SA: adapters::with_key::SerializerAdapter<D>,
  {
    self
      .inner_lock()
      .create_datawriter(self, Some(entity_id), topic, qos, writer_like_stateless)
  }

  #[cfg(feature = "security")] // to avoid "never used" warning
  pub(crate) fn create_datawriter_with_entity_id_no_key<D, SA>(
    &self,
    entity_id: EntityId,
    topic: &Topic,
    qos: Option<QosPolicies>,
    writer_like_stateless: bool, // Create a stateless-like RTPS writer?
  ) -> CreateResult<NoKeyDataWriter<D, SA>>
  where
    SA: crate::no_key::SerializerAdapter<D>,
  {
    self.inner_lock().create_datawriter_no_key(
      self,
      Some(entity_id),
      topic,
      qos,
      writer_like_stateless,
    )
  }

  // delete_datawriter should not be needed. The DataWriter object itself should
  // be deleted to accomplish this.

  // lookup datawriter: maybe not necessary? App should remember datawriters it
  // has created.

  // Suspend and resume publications are performance optimization methods.
  // The minimal correct implementation is to do nothing. See DDS spec 2.2.2.4.1.8
  // and .9
  /// Placeholder only — not implemented. **Will panic if called.**
  ///
  /// # Panics
  ///
  /// Always panics. This method is a placeholder and is not implemented.
  #[deprecated(note = "placeholder only; will panic if called")]
  pub fn suspend_publications(&self) {
    unreachable!("suspend_publications is a placeholder only and must not be called")
  }

  /// Placeholder only — not implemented. **Will panic if called.**
  ///
  /// # Panics
  ///
  /// Always panics. This method is a placeholder and is not implemented.
  #[deprecated(note = "placeholder only; will panic if called")]
  pub fn resume_publications(&self) {
    unreachable!("resume_publications is a placeholder only and must not be called")
  }

  // coherent change set
  // In case such QoS is not supported, these should be no-ops.
  // TODO: Implement these when coherent change-sets are supported.
  // Coherent set not implemented and currently does nothing
  /// **NOT IMPLEMENTED. DO NOT USE**
  #[deprecated(note = "unimplemented")]
  pub fn begin_coherent_changes(&self) {}

  // Coherent set not implemented and currently does nothing
  /// **NOT IMPLEMENTED. DO NOT USE**
  #[deprecated(note = "unimplemented")]
  pub fn end_coherent_changes(&self) {}

  // Wait for all matched reliable DataReaders acknowledge data written so far,
  // or timeout.
  /// Placeholder only — not implemented. **Will panic if called.**
  ///
  /// Use [`WithKeyDataWriter::wait_for_acknowledgments`](crate::with_key::DataWriter::wait_for_acknowledgments)
  /// on individual writers instead.
  ///
  /// # Panics
  ///
  /// Always panics. This method is a placeholder and is not implemented.
  #[deprecated(note = "placeholder only; will panic if called")]
  pub fn wait_for_acknowledgments(&self, _max_wait: Duration) -> WaitResult<()> {
    unreachable!("wait_for_acknowledgments is a placeholder only and must not be called")
  }

  // What is the use case for this? (is it useful in Rust style of programming?
  // Should it be public?)
  /// Gets [DomainParticipant](struct.DomainParticipant.html) if it has not
  /// disappeared from all scopes.
  ///
  /// # Example
  ///
  /// ```
  /// # use rustdds::*;
  ///
  /// let domain_participant = DomainParticipant::new(0).unwrap();
  /// let qos = QosPolicyBuilder::new().build();
  ///
  /// let publisher = domain_participant.create_publisher(&qos).unwrap();
  /// assert_eq!(domain_participant, publisher.participant().unwrap());
  /// ```
  pub fn participant(&self) -> Option<DomainParticipant> {
    self.inner_lock().domain_participant.clone().upgrade()
  }

  // delete_contained_entities: We should not need this. Contained DataWriters
  // should dispose themselves and notify publisher.

  /// Returns default DataWriter qos.
  ///
  /// # Example
  ///
  /// ```
  /// # use rustdds::*;
  ///
  /// let domain_participant = DomainParticipant::new(0).unwrap();
  /// let qos = QosPolicyBuilder::new().build();
  ///
  /// let publisher = domain_participant.create_publisher(&qos).unwrap();
  /// assert_eq!(qos, publisher.get_default_datawriter_qos());
  /// ```
  pub fn get_default_datawriter_qos(&self) -> QosPolicies {
    self.inner_lock().get_default_datawriter_qos().clone()
  }

  /// Sets default DataWriter qos.
  ///
  /// # Example
  ///
  /// ```
  /// # use rustdds::*;
  ///
  /// let domain_participant = DomainParticipant::new(0).unwrap();
  /// let qos = QosPolicyBuilder::new().build();
  ///
  /// let mut publisher = domain_participant.create_publisher(&qos).unwrap();
  /// let qos2 =
  /// QosPolicyBuilder::new().durability(policy::Durability::Transient).build();
  /// publisher.set_default_datawriter_qos(&qos2);
  ///
  /// assert_ne!(qos, publisher.get_default_datawriter_qos());
  /// assert_eq!(qos2, publisher.get_default_datawriter_qos());
  /// ```
  pub fn set_default_datawriter_qos(&mut self, q: &QosPolicies) {
    self.inner_lock().set_default_datawriter_qos(q);
  }

  // This is used on DataWriter .drop()
  pub(crate) fn remove_writer(&self, guid: GUID) {
    self.inner_lock().remove_writer(guid);
  }
} // impl

impl PartialEq for Publisher {
  fn eq(&self, other: &Self) -> bool {
    let id_self = { self.inner_lock().identity() };
    let id_other = { other.inner_lock().identity() };
    id_self == id_other
  }
}

impl Debug for Publisher {
  fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    self.inner_lock().fmt(f)
  }
}

// "Inner" struct

// The rest of this module, split into files of under 600 lines (text unchanged: PATCHED.md).
include!("pubsub/inner_publisher.rs");
include!("pubsub/subscriber.rs");
include!("pubsub/inner_subscriber.rs");
