  // When Discovery sees a participant for the first time, it reads the SEDP
  // readers again for that participant ("rediscovery"). SEDP samples of other
  // participants that are pending at that moment must not be lost: reading takes
  // them out of the reader, and the reliable SEDP writer will not send them
  // again.
  #[test]
  fn rediscovery_keeps_pending_sedp_samples_of_other_participants() {
    use crate::{
      dds::statusevents::{DataReaderStatus, DataWriterStatus},
      discovery::sedp_messages::{
        PublicationBuiltinTopicData, ReaderProxy, SubscriptionBuiltinTopicData, WriterProxy,
      },
      structure::guid::EntityKind,
      StatusEvented, TopicKind,
    };

    // Status events reported so far by the observer and its local endpoints
    #[derive(Default)]
    struct Reported {
      writer: Vec<DataWriterStatus>,
      reader: Vec<DataReaderStatus>,
      participant: Vec<DomainParticipantStatusEvent>,
    }
    impl Reported {
      fn publication_matched(&self, remote_reader: GUID, current_change: i32) -> bool {
        self.writer.iter().any(|s| {
          matches!(s, DataWriterStatus::PublicationMatched { reader, current, .. }
            if *reader == remote_reader && current.count_change() == current_change)
        })
      }
      fn subscription_matched(&self, remote_writer: GUID, current_change: i32) -> bool {
        self.reader.iter().any(|s| {
          matches!(s, DataReaderStatus::SubscriptionMatched { writer, current, .. }
            if *writer == remote_writer && current.count_change() == current_change)
        })
      }
      fn disposed(&self, endpoint: GUID) -> bool {
        self.participant.iter().any(|e| {
          matches!(e,
            DomainParticipantStatusEvent::ReaderLost { guid, reason: LostReason::Disposed }
            | DomainParticipantStatusEvent::WriterLost { guid, reason: LostReason::Disposed }
            if *guid == endpoint)
        })
      }
    }

    const DOMAIN_ID: u16 = 47; // not used by other tests
    const TOPIC: &str = "pending";

    let observer = DomainParticipant::new(DOMAIN_ID).expect("participant creation");
    let observer_status = observer.status_listener();

    // Readers and writers of some other participant, on the topic of the
    // observer's local endpoints
    let other = GuidPrefix::new(b"otherpartcpt");
    let endpoint = |key, kind| GUID::new(other, EntityId::new([0, 0, key], kind));
    let reader_guid = endpoint(1, EntityKind::READER_WITH_KEY_USER_DEFINED);
    let writer_guid = endpoint(2, EntityKind::WRITER_WITH_KEY_USER_DEFINED);
    let disposed_reader_guid = endpoint(3, EntityKind::READER_WITH_KEY_USER_DEFINED);
    let disposed_writer_guid = endpoint(4, EntityKind::WRITER_WITH_KEY_USER_DEFINED);
    let reader_data = |guid| DiscoveredReaderData {
      reader_proxy: ReaderProxy::new(guid, false, vec![], vec![]),
      subscription_topic_data: SubscriptionBuiltinTopicData::new(
        guid,
        None,
        TOPIC.to_string(),
        "ShapeType".to_string(),
        &QosPolicies::qos_none(),
        None,
      ),
      content_filter: None,
      user_data: Vec::new(),
    };
    let writer_data = |guid| DiscoveredWriterData {
      last_updated: std::time::Instant::now(),
      writer_proxy: WriterProxy::new(guid, vec![], vec![]),
      publication_topic_data: PublicationBuiltinTopicData::new(
        guid,
        None,
        TOPIC.to_string(),
        "ShapeType".to_string(),
        None,
      ),
      user_data: Vec::new(),
    };
    let subscriptions_writer = GUID::new(other, EntityId::SEDP_BUILTIN_SUBSCRIPTIONS_WRITER);
    let publications_writer = GUID::new(other, EntityId::SEDP_BUILTIN_PUBLICATIONS_WRITER);

    // A reader and a writer that the observer knows and matches before the
    // new participant appears. Their dispose is pending below.
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_SUBSCRIPTION,
      subscriptions_writer,
      1,
      sedp_value(&reader_data(disposed_reader_guid)),
    );
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_PUBLICATION,
      publications_writer,
      1,
      sedp_value(&writer_data(disposed_writer_guid)),
    );
    // The observer's own SEDP announcements of its local endpoints come back
    // through its SEDP readers. That wakes Discovery, which then processes the
    // two samples above as well.
    let topic = observer
      .create_topic(
        TOPIC.to_string(),
        "ShapeType".to_string(),
        &QosPolicies::qos_none(),
        TopicKind::WithKey,
      )
      .unwrap();
    let publisher = observer.create_publisher(&QosPolicies::qos_none()).unwrap();
    let local_writer = publisher
      .create_datawriter_cdr::<ShapeType>(&topic, None)
      .unwrap();
    let subscriber = observer
      .create_subscriber(&QosPolicies::qos_none())
      .unwrap();
    let local_reader = subscriber
      .create_datareader_cdr::<ShapeType>(&topic, None)
      .unwrap();

    let reader_known = |guid| {
      observer
        .discovered_readers()
        .iter()
        .any(|d| d.reader_proxy.remote_reader_guid == guid)
    };
    let writer_known = |guid| {
      observer
        .discovered_writers()
        .iter()
        .any(|d| d.writer_proxy.remote_writer_guid == guid)
    };
    let mut reported = Reported::default();
    // Polls the condition, collecting status events, until it holds or the
    // timeout expires
    let mut wait_until = |timeout: StdDuration, condition: &dyn Fn(&Reported) -> bool| {
      let deadline = std::time::Instant::now() + timeout;
      loop {
        reported
          .writer
          .extend(std::iter::from_fn(|| local_writer.try_recv_status()));
        reported
          .reader
          .extend(std::iter::from_fn(|| local_reader.try_recv_status()));
        reported
          .participant
          .extend(std::iter::from_fn(|| observer_status.try_recv_status()));
        if condition(&reported) || std::time::Instant::now() >= deadline {
          return condition(&reported);
        }
        std::thread::sleep(StdDuration::from_millis(20));
      }
    };
    // Once the observer's own endpoints are in its DiscoveryDB, its own
    // announcements have been processed, and nothing else wakes its SEDP
    // readers until the new participant appears.
    assert!(
      wait_until(StdDuration::from_secs(10), &|r| {
        reader_known(local_reader.guid())
          && writer_known(local_writer.guid())
          && r.publication_matched(disposed_reader_guid, 1)
          && r.subscription_matched(disposed_writer_guid, 1)
      }),
      "the observer did not match its local endpoints with the other participant's endpoints"
    );

    // A new reader and writer, and the dispose of the ones above, received by
    // the observer's SEDP readers but not yet processed by its Discovery.
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_SUBSCRIPTION,
      subscriptions_writer,
      2,
      sedp_value(&reader_data(reader_guid)),
    );
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_SUBSCRIPTION,
      subscriptions_writer,
      3,
      sedp_dispose(disposed_reader_guid),
    );
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_PUBLICATION,
      publications_writer,
      2,
      sedp_value(&writer_data(writer_guid)),
    );
    add_pending_sedp_sample(
      &observer,
      builtin_topic_names::DCPS_PUBLICATION,
      publications_writer,
      3,
      sedp_dispose(disposed_writer_guid),
    );

    // A new participant appears. The observer's Discovery processes its SPDP
    // sample while the SEDP samples above are still pending.
    let newcomer = DomainParticipant::new(DOMAIN_ID).expect("participant creation");

    let observer_db = observer.discovery_db();
    assert!(
      wait_until(StdDuration::from_secs(10), &|_| {
        discovery_db_read(&observer_db)
          .find_participant_proxy(newcomer.guid_prefix())
          .is_some()
      }),
      "the observer did not discover the new participant"
    );
    wait_until(StdDuration::from_secs(2), &|r| {
      reader_known(reader_guid)
        && writer_known(writer_guid)
        && !reader_known(disposed_reader_guid)
        && !writer_known(disposed_writer_guid)
        && r.publication_matched(reader_guid, 1)
        && r.subscription_matched(writer_guid, 1)
        && r.publication_matched(disposed_reader_guid, -1)
        && r.subscription_matched(disposed_writer_guid, -1)
        && r.disposed(disposed_reader_guid)
        && r.disposed(disposed_writer_guid)
    });
    assert!(
      reader_known(reader_guid) && writer_known(writer_guid),
      "the pending SEDP samples were dropped when the new participant was discovered"
    );
    assert!(
      !reader_known(disposed_reader_guid) && !writer_known(disposed_writer_guid),
      "the pending SEDP disposes were dropped when the new participant was discovered"
    );
    assert!(
      reported.publication_matched(reader_guid, 1) && reported.subscription_matched(writer_guid, 1),
      "the local endpoints were not matched with the pending reader and writer"
    );
    assert!(
      reported.publication_matched(disposed_reader_guid, -1)
        && reported.subscription_matched(disposed_writer_guid, -1),
      "the local endpoints are still matched with the disposed reader and writer"
    );
    assert!(
      reported.disposed(disposed_reader_guid) && reported.disposed(disposed_writer_guid),
      "the disposed reader and writer were not reported lost"
    );
  }
