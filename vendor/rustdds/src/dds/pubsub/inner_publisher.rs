#[derive(Clone)]
struct InnerPublisher {
  id: EntityId,
  domain_participant: DomainParticipantWeak,
  discovery_db: Arc<RwLock<DiscoveryDB>>,
  my_qos_policies: QosPolicies,
  default_datawriter_qos: QosPolicies, // used when creating a new DataWriter
  add_writer_sender: WakeSender<WriterIngredients>,
  remove_writer_sender: WakeSender<GUID>,
  discovery_command: WakeSender<DiscoveryCommand>,
  security_plugins_handle: Option<SecurityPluginsHandle>,
  writer_ready: ReadySender<EntityId>,
}

// public interface for Publisher
impl InnerPublisher {
  #[allow(clippy::too_many_arguments)]
  fn new(
    dp: DomainParticipantWeak,
    discovery_db: Arc<RwLock<DiscoveryDB>>,
    qos: QosPolicies,
    default_dw_qos: QosPolicies,
    add_writer_sender: WakeSender<WriterIngredients>,
    remove_writer_sender: WakeSender<GUID>,
    discovery_command: WakeSender<DiscoveryCommand>,
    writer_ready: ReadySender<EntityId>,
    security_plugins_handle: Option<SecurityPluginsHandle>,
  ) -> Self {
    // We generate an arbitrary but unique id to distinguish Publishers from each
    // other. EntityKind is just some value, since we do not show it to anyone.
    let id = EntityId::MAX;
    // dp.clone().upgrade().unwrap().new_entity_id(EntityKind::UNKNOWN_BUILT_IN);

    Self {
      id,
      domain_participant: dp,
      discovery_db,
      my_qos_policies: qos,
      default_datawriter_qos: default_dw_qos,
      add_writer_sender,
      remove_writer_sender,
      discovery_command,
      security_plugins_handle,
      writer_ready,
    }
  }

  pub fn create_datawriter<D, SA>(
    &self,
    outer: &Publisher,
    entity_id_opt: Option<EntityId>,
    topic: &Topic,
    optional_qos: Option<QosPolicies>,
    writer_like_stateless: bool, // Create a stateless-like RTPS writer? Usually false
  ) -> CreateResult<WithKeyDataWriter<D, SA>>
  where
    D: Keyed,
    SA: adapters::with_key::SerializerAdapter<D>,
  {
    // Status reports back from Writer to DataWriter.
    let (status_sender, status_receiver) = sync_status_channel(4)?;

    // DDS Spec 2.2.2.4.1.5 create_datawriter:
    // If no QoS is specified, we should take the Publisher default
    // QoS, modify it to match any QoS settings (that are set) in the
    // Topic QoS and use that.

    // Use Publisher QoS as basis, modify by Topic settings, and modify by specified
    // QoS.
    let writer_qos = self
      .default_datawriter_qos
      .modify_by(&topic.qos())
      .modify_by(&optional_qos.unwrap_or_else(QosPolicies::qos_none));

    let entity_id =
      self.unwrap_or_new_entity_id(entity_id_opt, EntityKind::WRITER_WITH_KEY_USER_DEFINED)?;
    let dp = self
      .participant()
      .ok_or("upgrade fail")
      .or_else(|e| create_error_dropped!("Where is my DomainParticipant? {}", e))?;

    let guid = GUID::new_with_prefix_and_id(dp.guid().prefix, entity_id);

    // Shared, flow-controlled send buffer between the DataWriter (producer) and
    // the RTPS Writer (consumer). The reliable send window is derived from the
    // writer's History / ResourceLimits QoS.
    let resource_max = writer_qos
      .resource_limits()
      .map(|rl| rl.max_samples)
      .filter(|&m| m > 0)
      .map(|m| m as usize);
    // The reliable send window bounds how many *unacknowledged* samples may be
    // outstanding before a write is back-pressured. This is a flow-control
    // quantity governed by RESOURCE_LIMITS (max_samples), NOT by the History
    // depth: `KeepLast{depth}` controls how many samples are *retained*
    // (newest-wins, see `max_retain` below), not how many may be in flight.
    // Deriving the window from a small KeepLast depth (e.g. the ubiquitous
    // ROS 2 default `KeepLast{1}`) collapses reliable delivery into strict
    // stop-and-wait -- every write must await the previous sample's ACK -- and
    // spuriously returns `WouldBlock` when an ACK is slower than
    // `max_blocking_time` (e.g. under the normal discovery race). Use the
    // resource limit when set, otherwise the default.
    let window_limit = resource_max.unwrap_or(DEFAULT_WRITER_MAX_SAMPLES);
    // nonblocking-transmit: the unsent-backlog limit bounds how many admitted
    // samples may await transmission when the network socket is congested. We
    // reuse the same capacity as the reliable window.
    let backlog_limit = window_limit;
    // KeepLast-style hard cap on retained samples for best-effort (non-blocking)
    // writes, which are not throttled at admission, and for reliable writers
    // before a reader matches. This is where the History depth applies.
    let max_retain = match writer_qos.history() {
      Some(policy::History::KeepLast { depth }) => {
        let d = (depth as usize).max(1);
        resource_max.map_or(d, |r| d.min(r))
      }
      _ => resource_max.unwrap_or(DEFAULT_WRITER_MAX_SAMPLES),
    };
    // Default durability is VOLATILE (DDS v1.4 2.2.3). Only VOLATILE reliable
    // writers may trim KeepLast before a reader matches; durable writers must
    // retain samples for late joiners.
    let volatile = matches!(
      writer_qos
        .durability()
        .unwrap_or(policy::Durability::Volatile),
      policy::Durability::Volatile
    );
    let send_buffer = WriterSendBuffer::new(
      guid,
      topic.name(),
      writer_qos.is_reliable(),
      guid.entity_id.entity_kind.is_built_in(),
      volatile,
      window_limit,
      backlog_limit,
      max_retain,
    );
    // Doorbell: enqueue this writer's entity id and wake the participant poll.
    let doorbell = Doorbell::new(guid.entity_id, self.writer_ready.clone());

    #[cfg(feature = "security")]
    if let Some(sec_handle) = self.security_plugins_handle.as_ref() {
      // Security is enabled.
      // Check are we allowed to create the DataWriter from Access control
      let check_res = sec_handle.get_plugins().check_create_datawriter(
        guid.prefix,
        dp.domain_id(),
        topic.name(),
        &writer_qos,
      );
      match check_res {
        Ok(check_passed) => {
          if !check_passed {
            return create_error_not_allowed_by_security!(
              "Not allowed to create a DataWriter to topic {}",
              topic.name()
            );
          }
        }
        Err(e) => {
          // Something went wrong in the check
          return create_error_internal!(
            "Failed to check DataWriter rights from Access control: {}",
            e.msg
          );
        }
      };

      // Register Writer to crypto plugin
      if let Err(e) = {
        let writer_security_attributes = sec_handle
          .get_plugins()
          .get_writer_sec_attributes(guid, topic.name()); // Release lock
        writer_security_attributes.and_then(|attributes| {
          sec_handle
            .get_plugins()
            .register_local_writer(guid, writer_qos.property(), attributes)
        })
      } {
        return create_error_internal!(
          "Failed to register writer to crypto plugin: {} . GUID: {:?}",
          e,
          guid
        );
      } else {
        info!("Registered local writer to crypto plugin. GUID: {guid:?}");
      }
    }

    // Construct the data writer
    let data_writer = WithKeyDataWriter::<D, SA>::new(
      outer.clone(),
      topic.clone(),
      writer_qos.clone(),
      guid,
      send_buffer.clone(),
      doorbell.clone(),
      self.discovery_command.clone(),
      status_receiver,
    )?;

    // Construct security info if needed
    #[cfg(not(feature = "security"))]
    let security_info = None;
    #[cfg(feature = "security")]
    let security_info = if let Some(sec_handle) = self.security_plugins_handle.as_ref() {
      // Security enabled
      if guid.entity_id.entity_kind.is_user_defined() {
        match sec_handle
          .get_plugins()
          .get_writer_sec_attributes(guid, topic.name())
        {
          Ok(attr) => EndpointSecurityInfo::from(attr).into(),
          Err(e) => {
            return create_error_internal!(
              "Failed to get security info for writer: {}. Guid: {:?}",
              e,
              guid
            );
          }
        }
      } else {
        None // For the built-in topics
      }
    } else {
      // No security enabled
      None
    };

    // Build the discovery record before taking the Discovery DB lock:
    // `DiscoveredWriterData::new` locks the participant (`dpi`) for its domain
    // id, participant id, networks and GUID. This keeps the two locks from
    // overlapping. Taking `dpi` while holding `discovery_db` could deadlock
    // against `DomainParticipant::find_topic()`, which holds `dpi` while
    // reading the DB.
    let dwd = DiscoveredWriterData::new(&data_writer, topic, &dp, security_info);

    // Add the topic & writer to Discovery DB. The write guard is scoped so
    // that it is released before the blocking `add_writer_sender.send` below:
    // that channel is bounded and drained by the DP event loop, which itself
    // takes `discovery_db` for reading, so holding the guard across the send
    // could deadlock against it (the reader path below already scopes its
    // guard the same way).
    {
      let mut db = self
        .discovery_db
        .write()
        .map_err(|e| CreateError::Poisoned {
          reason: format!("Discovery DB: {e}"),
        })?;

      db.update_local_topic_writer(dwd);
      db.update_topic_data_p(topic);

      // Inform Discovery about the topic
      if let Err(e) = self.discovery_command.try_send(DiscoveryCommand::AddTopic {
        topic_name: topic.name(),
      }) {
        // Log the error but don't quit, failing to inform Discovery about the topic
        // shouldn't be that serious
        error!(
          "Failed send DiscoveryCommand::AddTopic about topic {}: {}",
          topic.name(),
          e
        );
      }
    }

    // Note: notifying Discovery about the new writer is no longer done here.
    // Instead, it's done by the DP event loop once it has actually created the new
    // writer. This is done to avoid data races.

    // Send writer ingredients to DP event loop, where the actual writer will be
    // constructed
    let new_writer = WriterIngredients {
      guid,
      send_buffer,
      topic_name: topic.name(),
      like_stateless: writer_like_stateless,
      qos_policies: writer_qos,
      status_sender,
      security_plugins: self.security_plugins_handle.clone(),
    };

    self
      .add_writer_sender
      .send(new_writer)
      .or_else(|e| create_error_poisoned!("Adding a new writer failed: {}", e))?;

    // Return the DataWriter to user
    Ok(data_writer)
  }

  pub fn create_datawriter_no_key<D, SA>(
    &self,
    outer: &Publisher,
    entity_id_opt: Option<EntityId>,
    topic: &Topic,
    qos: Option<QosPolicies>,
    writer_like_stateless: bool, // Create a stateless-like RTPS writer? Usually false
  ) -> CreateResult<NoKeyDataWriter<D, SA>>
  where
    SA: adapters::no_key::SerializerAdapter<D>,
  {
    let entity_id =
      self.unwrap_or_new_entity_id(entity_id_opt, EntityKind::WRITER_NO_KEY_USER_DEFINED)?;
    let d = self.create_datawriter::<NoKeyWrapper<D>, SAWrapper<SA>>(
      outer,
      Some(entity_id),
      topic,
      qos,
      writer_like_stateless,
    )?;
    Ok(NoKeyDataWriter::<D, SA>::from_keyed(d))
  }

  pub fn participant(&self) -> Option<DomainParticipant> {
    self.domain_participant.clone().upgrade()
  }

  pub fn get_default_datawriter_qos(&self) -> &QosPolicies {
    &self.default_datawriter_qos
  }

  pub fn set_default_datawriter_qos(&mut self, q: &QosPolicies) {
    self.default_datawriter_qos = q.clone();
  }

  fn unwrap_or_new_entity_id(
    &self,
    entity_id_opt: Option<EntityId>,
    entity_kind: EntityKind,
  ) -> CreateResult<EntityId> {
    let dp = self
      .participant()
      .ok_or("upgrade fail")
      .or_else(|e| create_error_dropped!("Where is my DomainParticipant? {}", e))?;
    Ok(entity_id_opt.unwrap_or_else(|| dp.new_entity_id(entity_kind)))
  }

  pub(crate) fn remove_writer(&self, guid: GUID) {
    self
      .remove_writer_sender
      .try_send_timeout(guid, std::time::Duration::from_millis(20))
      .unwrap_or_else(|e| error!("Cannot remove Writer {guid:?} : {e:?}"));
  }

  pub(crate) fn identity(&self) -> EntityId {
    self.id
  }
}

impl Debug for InnerPublisher {
  fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    f.write_fmt(format_args!("{:?}", self.participant()))?;
    f.write_fmt(format_args!("Publisher QoS: {:?}", self.my_qos_policies))?;
    f.write_fmt(format_args!(
      "Publishers default Writer QoS: {:?}",
      self.default_datawriter_qos
    ))
  }
}
