#[derive(Clone)]
pub struct InnerSubscriber {
  domain_participant: DomainParticipantWeak,
  discovery_db: Arc<RwLock<DiscoveryDB>>,
  qos: QosPolicies,
  sender_add_reader: WakeSender<ReaderIngredients>,
  sender_remove_reader: WakeSender<GUID>,
  discovery_command: WakeSender<DiscoveryCommand>,
  security_plugins_handle: Option<SecurityPluginsHandle>,
  reader_ready: ReadySender<EntityId>,
  discovery_samples: ReadySender<mio1::Token>,
}

impl InnerSubscriber {
  #[allow(clippy::too_many_arguments)]
  pub(super) fn new(
    domain_participant: DomainParticipantWeak,
    discovery_db: Arc<RwLock<DiscoveryDB>>,
    qos: QosPolicies,
    sender_add_reader: WakeSender<ReaderIngredients>,
    sender_remove_reader: WakeSender<GUID>,
    discovery_command: WakeSender<DiscoveryCommand>,
    security_plugins_handle: Option<SecurityPluginsHandle>,
    reader_ready: ReadySender<EntityId>,
    discovery_samples: ReadySender<mio1::Token>,
  ) -> Self {
    Self {
      domain_participant,
      discovery_db,
      qos,
      sender_add_reader,
      sender_remove_reader,
      discovery_command,
      security_plugins_handle,
      reader_ready,
      discovery_samples,
    }
  }

  fn create_datareader_internal<D, SA>(
    &self,
    outer: &Subscriber,
    entity_id_opt: Option<EntityId>,
    topic: &Topic,
    optional_qos: Option<QosPolicies>,
    reader_like_stateless: bool, // Create a stateless-like RTPS reader? Usually false
  ) -> CreateResult<WithKeyDataReader<D, SA>>
  where
    D: 'static + Keyed,
    SA: adapters::with_key::DeserializerAdapter<D>,
  {
    let simple_dr = self.create_simple_datareader_internal(
      outer,
      entity_id_opt,
      topic,
      optional_qos,
      reader_like_stateless,
    )?;
    Ok(with_key::DataReader::<D, SA>::from_simple_data_reader(
      simple_dr,
    ))
  }

  fn create_simple_datareader_internal<D, SA>(
    &self,
    outer: &Subscriber,
    entity_id_opt: Option<EntityId>,
    topic: &Topic,
    optional_qos: Option<QosPolicies>,
    reader_like_stateless: bool, // Create a stateless-like RTPS reader? Usually false
  ) -> CreateResult<with_key::SimpleDataReader<D, SA>>
  where
    D: 'static + Keyed,
    SA: adapters::with_key::DeserializerAdapter<D>,
  {
    // incoming data notification channel from Reader to DataReader
    let (send, rec) = crate::mio_source::notification_channel(4);
    // status change channel from Reader to DataReader
    let (status_sender, status_receiver) = sync_status_channel::<DataReaderStatus>(4)?;

    // reader command channel from Datareader to Reader.
    // Capacity 0 is a rendezvous, matching the previous mio-extras channel: the
    // sender and the event loop meet at send/receive so a waker handoff cannot
    // race a missed notification. The ready queue records which reader to drain.
    // The receiver is built here; the sender is bound to the entity id below.
    let (reader_command_tx, reader_command_receiver) =
      wake_channel::<ReaderCommand>(0, &self.reader_ready.waker());
    // The buffer length is zero, i.e. sender and receiver must rendezvous at
    // send/receive. This is needed to synchronize sending of wakers from
    // DataReader to Reader. If the capacity is increased, then some data
    // available for reading notifications may be missed.

    // Use subscriber QoS as basis, modify by Topic settings, and modify by
    // specified QoS.
    let qos = self
      .qos
      .modify_by(&topic.qos())
      .modify_by(&optional_qos.unwrap_or_else(QosPolicies::qos_none));

    let entity_id =
      self.unwrap_or_new_entity_id(entity_id_opt, EntityKind::READER_WITH_KEY_USER_DEFINED)?;
    let reader_command_sender =
      BoundSender::new(reader_command_tx, self.reader_ready.clone(), entity_id);
    let discovery_notify = crate::rtps::constant::discovery_reader_data_token(entity_id)
      .map(|token| (self.discovery_samples.clone(), token));

    let dp = match self.participant() {
      Some(dp) => dp,
      None => return create_error_dropped!("DomainParticipant doesn't exist anymore."),
    };

    // Get a handle to the topic cache
    let topic_cache_handle = match dp.dds_cache().read() {
      Ok(dds_cache) => dds_cache.get_existing_topic_cache(&topic.name())?,
      Err(e) => return create_error_poisoned!("Cannot lock DDScache. Error: {}", e),
    };
    // Update topic cache with DataReader's Qos
    match topic_cache_handle.lock() {
      Ok(mut tc) => tc.update_keep_limits(&qos),
      Err(e) => return create_error_poisoned!("Cannot lock topic cache. Error: {}", e),
    };

    let reader_guid = GUID::new_with_prefix_and_id(dp.guid_prefix(), entity_id);

    #[cfg(feature = "security")]
    if let Some(sec_handle) = self.security_plugins_handle.as_ref() {
      // Security is enabled.
      // Check are we allowed to create the DataReader from Access control
      let check_res = sec_handle.get_plugins().check_create_datareader(
        reader_guid.prefix,
        dp.domain_id(),
        topic.name(),
        &qos,
      );
      match check_res {
        Ok(check_passed) => {
          if !check_passed {
            return create_error_not_allowed_by_security!(
              "Not allowed to create a DataReader to topic {}",
              topic.name()
            );
          }
        }
        Err(e) => {
          // Something went wrong in the check
          return create_error_internal!(
            "Failed to check DataReader rights from Access control: {}",
            e.msg
          );
        }
      };

      // Register Reader to crypto plugin
      if let Err(e) = {
        let reader_security_attributes = sec_handle
          .get_plugins()
          .get_reader_sec_attributes(reader_guid, topic.name()); // Release lock
        reader_security_attributes.and_then(|attributes| {
          sec_handle
            .get_plugins()
            .register_local_reader(reader_guid, qos.property(), attributes)
        })
      } {
        return create_error_internal!(
          "Failed to register reader to crypto plugin: {} . GUID: {:?}",
          e,
          reader_guid
        );
      } else {
        info!("Registered local reader to crypto plugin. GUID: {reader_guid:?}");
      }
    }

    // Construct the ReaderIngredients
    let data_reader_waker = Arc::new(Mutex::new(None));

    let (poll_event_source, poll_event_sender) = mio_source::make_poll_channel()?;

    let new_reader = ReaderIngredients {
      guid: reader_guid,
      notification_sender: send,
      status_sender,
      topic_name: topic.name(),
      topic_cache_handle: topic_cache_handle.clone(),
      like_stateless: reader_like_stateless,
      qos_policy: qos.clone(),
      data_reader_command_receiver: reader_command_receiver,
      data_reader_waker: data_reader_waker.clone(),
      poll_event_sender,
      security_plugins: self.security_plugins_handle.clone(),
      discovery_notify,
    };

    // Construct security info if needed
    #[cfg(not(feature = "security"))]
    let security_info: Option<EndpointSecurityInfo> = None;
    #[cfg(feature = "security")]
    let security_info = if let Some(sec_handle) = self.security_plugins_handle.as_ref() {
      // Security enabled
      if reader_guid.entity_id.entity_kind.is_user_defined() {
        match sec_handle
          .get_plugins()
          .get_reader_sec_attributes(reader_guid, topic.name())
        {
          Ok(attr) => EndpointSecurityInfo::from(attr).into(),
          Err(e) => {
            return create_error_internal!(
              "Failed to get security info for reader: {}. Guid: {:?}",
              e,
              reader_guid
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

    // Build the discovery record before taking the Discovery DB lock: it locks
    // the participant (`dpi`) for its locators and GUID. Keeping the two locks
    // from overlapping avoids the reverse of `DomainParticipant::find_topic()`'s
    // nested `dpi` -> `discovery_db` order.
    let drd = DiscoveryDB::local_topic_reader_data(&dp, topic, &new_reader, security_info);

    // Add the topic & reader to Discovery DB
    {
      let mut db = self
        .discovery_db
        .write()
        .or_else(|e| create_error_poisoned!("Cannot lock discovery_db. {}", e))?;
      db.update_local_topic_reader(drd);
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

    // Note: notifying Discovery about the new reader is no longer done here.
    // Instead, it's done by the DP event loop once it has actually created the new
    // reader. This is done to avoid data races.

    // Construct the data reader
    let datareader = with_key::SimpleDataReader::<D, SA>::new(
      outer.clone(),
      entity_id,
      topic.clone(),
      qos,
      rec,
      topic_cache_handle,
      self.discovery_command.clone(),
      status_receiver,
      reader_command_sender,
      data_reader_waker,
      poll_event_source,
    )?;

    // Send reader ingredients to DP event loop, where the actual reader will be
    // constructed
    self
      .sender_add_reader
      .try_send(new_reader)
      .or_else(|e| create_error_poisoned!("Cannot add DataReader. Error: {}", e))?;

    // Return the DataReader to user
    Ok(datareader)
  }

  pub fn create_datareader<D, SA>(
    &self,
    outer: &Subscriber,
    topic: &Topic,
    entity_id: Option<EntityId>,
    qos: Option<QosPolicies>,
    reader_like_stateless: bool, // Create a stateless-like RTPS reader? Usually false
  ) -> CreateResult<WithKeyDataReader<D, SA>>
  where
    D: 'static + Keyed,
    SA: adapters::with_key::DeserializerAdapter<D>,
  {
    if topic.kind() != TopicKind::WithKey {
      return Err(CreateError::TopicKind(TopicKind::WithKey));
    }
    self.create_datareader_internal(outer, entity_id, topic, qos, reader_like_stateless)
  }

  pub fn create_datareader_no_key<D: 'static, SA>(
    &self,
    outer: &Subscriber,
    topic: &Topic,
    entity_id_opt: Option<EntityId>,
    qos: Option<QosPolicies>,
    reader_like_stateless: bool, // Create a stateless-like RTPS reader? Usually false
  ) -> CreateResult<NoKeyDataReader<D, SA>>
  where
    SA: adapters::no_key::DeserializerAdapter<D>,
  {
    if topic.kind() != TopicKind::NoKey {
      return Err(CreateError::TopicKind(TopicKind::NoKey));
    }

    let entity_id =
      self.unwrap_or_new_entity_id(entity_id_opt, EntityKind::READER_NO_KEY_USER_DEFINED)?;

    let d = self.create_datareader_internal::<NoKeyWrapper<D>, DAWrapper<SA>>(
      outer,
      Some(entity_id),
      topic,
      qos,
      reader_like_stateless,
    )?;

    Ok(NoKeyDataReader::<D, SA>::from_keyed(d))
  }

  pub fn create_simple_datareader_no_key<D: 'static, SA>(
    &self,
    outer: &Subscriber,
    topic: &Topic,
    entity_id_opt: Option<EntityId>,
    qos: Option<QosPolicies>,
  ) -> CreateResult<no_key::SimpleDataReader<D, SA>>
  where
    SA: adapters::no_key::DeserializerAdapter<D> + 'static,
  {
    if topic.kind() != TopicKind::NoKey {
      return Err(CreateError::TopicKind(TopicKind::NoKey));
    }

    let entity_id =
      self.unwrap_or_new_entity_id(entity_id_opt, EntityKind::READER_NO_KEY_USER_DEFINED)?;

    let d = self.create_simple_datareader_internal::<NoKeyWrapper<D>, DAWrapper<SA>>(
      outer,
      Some(entity_id),
      topic,
      qos,
      false,
    )?;

    Ok(no_key::SimpleDataReader::<D, SA>::from_keyed(d))
  }

  pub fn participant(&self) -> Option<DomainParticipant> {
    self.domain_participant.clone().upgrade()
  }

  pub(crate) fn remove_reader(&self, guid: GUID) {
    self
      .sender_remove_reader
      .try_send_timeout(guid, std::time::Duration::from_millis(20))
      .unwrap_or_else(|e| error!("Cannot remove Reader {guid:?} : {e:?}"));
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
}

// -------------------------------------------------------------------

#[cfg(test)]
mod tests {}
