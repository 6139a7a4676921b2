// -----------------------------------------------------------------------
// -----------------------------------------------------------------------
// -----------------------------------------------------------------------
// -----------------------------------------------------------------------

#[cfg(test)]
mod tests {
  use std::net::SocketAddr;

  use chrono::Utc;
  use speedy::{Endianness, Writable};

  use super::*;
  use crate::{
    dds::{adapters::no_key::DeserializerAdapter, ddsdata::DDSData},
    discovery::sedp_messages::TopicBuiltinTopicData,
    messages::submessages::submessages::{InterpreterSubmessage, WriterSubmessage},
    network::{constant::*, udp_listener::UDPListener, udp_sender::UDPSender},
    rtps::submessage::*,
    structure::cache_change::ChangeKind,
    test::{
      shape_type::ShapeType,
      test_data::{
        create_cdr_pl_rtps_data_message, spdp_participant_msg_mod, spdp_publication_msg,
        spdp_subscription_msg,
      },
      test_domain::test_domain_id,
    },
    RepresentationIdentifier, SerializedPayload,
  };

  #[test]
  fn sedp_topic_caches_get_sedp_reader_limits() {
    let participant = DomainParticipant::new(test_domain_id(47)).expect("participant creation");
    let dds_cache = participant.dds_cache();
    let max_samples = |topic: &str| {
      dds_cache
        .read()
        .unwrap()
        .get_existing_topic_cache(topic)
        .unwrap()
        .lock()
        .unwrap()
        .max_keep_samples()
    };

    for topic in [
      builtin_topic_names::DCPS_PUBLICATION,
      builtin_topic_names::DCPS_SUBSCRIPTION,
      builtin_topic_names::DCPS_TOPIC,
    ] {
      assert_eq!(max_samples(topic), 4096, "{topic} cache limit");
    }
    #[cfg(feature = "security")]
    for topic in [
      builtin_topic_names::DCPS_PUBLICATIONS_SECURE,
      builtin_topic_names::DCPS_SUBSCRIPTIONS_SECURE,
    ] {
      assert_eq!(max_samples(topic), 4096, "{topic} cache limit");
    }
    assert_eq!(
      max_samples(builtin_topic_names::DCPS_PARTICIPANT),
      64,
      "SPDP keeps the default cache limit"
    );
  }

  #[test]
  fn discovery_participant_data_test() {
    let mut poll = mio1::Poll::new().unwrap();
    let listener_port = spdp_well_known_unicast_port(test_domain_id(12), 0);

    let mut udp_listener =
      UDPListener::new_unicast("127.0.0.1", listener_port).expect("udp listener creation");
    poll
      .registry()
      .register(
        udp_listener.mio_socket(),
        mio1::Token(0),
        mio1::Interest::READABLE,
      )
      .unwrap();

    // sending participant data to discovery
    let udp_sender = UDPSender::new_with_random_port().expect("failed to create UDPSender");
    let addresses = vec![SocketAddr::new("127.0.0.1".parse().unwrap(), listener_port)];

    let tdata = spdp_participant_msg_mod(11000);
    let msg_data = tdata
      .write_to_vec_with_ctx(Endianness::LittleEndian)
      .expect("Failed to write msg data");

    udp_sender.send_to_all(&msg_data, &addresses);

    let mut events = mio1::Events::with_capacity(10);
    poll
      .poll(&mut events, Some(StdDuration::from_secs(1)))
      .unwrap();

    let _data2 = udp_listener.get_message();
    // TODO: we should have received our own participants info decoding the
    // actual message might be good idea
  }

  #[test]
  fn discovery_reader_data_test() {
    use crate::{
      serialization::pl_cdr_adapters::PlCdrSerialize, structure::locator::Locator, TopicKind,
    };

    let participant = DomainParticipant::new(test_domain_id(0)).expect("participant creation");

    let topic = participant
      .create_topic(
        "Square".to_string(),
        "ShapeType".to_string(),
        &QosPolicies::qos_none(),
        TopicKind::WithKey,
      )
      .unwrap();

    let publisher = participant
      .create_publisher(&QosPolicies::qos_none())
      .unwrap();
    let _writer = publisher
      .create_datawriter_cdr::<ShapeType>(&topic, None)
      .unwrap();

    let subscriber = participant
      .create_subscriber(&QosPolicies::qos_none())
      .unwrap();
    let _reader =
      subscriber.create_datareader::<ShapeType, CDRDeserializerAdapter<ShapeType>>(&topic, None);

    let mut poll = mio1::Poll::new().unwrap();
    let listener_port = spdp_well_known_unicast_port(test_domain_id(14), 0);

    let mut udp_listener = UDPListener::new_unicast("127.0.0.1", listener_port).unwrap();
    poll
      .registry()
      .register(
        udp_listener.mio_socket(),
        mio1::Token(0),
        mio1::Interest::READABLE,
      )
      .unwrap();

    let udp_sender: UDPSender =
      UDPSender::new_with_random_port().expect("failed to create UDPSender");
    let addresses: Vec<SocketAddr> =
      vec![SocketAddr::new("127.0.0.1".parse().unwrap(), listener_port)];

    let mut tdata: crate::rtps::Message = spdp_subscription_msg();
    let mut data: bytes::Bytes;
    for submsg in &mut tdata.submessages {
      match &mut submsg.body {
        SubmessageBody::Writer(WriterSubmessage::Data(d, _)) => {
          let mut drd: DiscoveredReaderData = PlCdrDeserializerAdapter::from_bytes(
            &d.unwrap_serialized_payload_value(),
            RepresentationIdentifier::PL_CDR_LE,
          )
          .unwrap();
          drd.reader_proxy.unicast_locator_list.clear();
          drd
            .reader_proxy
            .unicast_locator_list
            .push(Locator::from(SocketAddr::new(
              "127.0.0.1".parse().unwrap(),
              11001,
            )));
          drd.reader_proxy.multicast_locator_list.clear();

          data = drd
            .to_pl_cdr_bytes(RepresentationIdentifier::PL_CDR_LE)
            .unwrap();
          d.update_serialized_payload_value(data.clone());
        }
        SubmessageBody::Interpreter(_) => (),
        _ => continue,
      }
    }

    let msg_data: Vec<u8> = tdata
      .write_to_vec_with_ctx(Endianness::LittleEndian)
      .expect("Failed to write msg data");

    udp_sender.send_to_all(&msg_data, &addresses);

    let mut events = mio1::Events::with_capacity(10);
    poll
      .poll(&mut events, Some(StdDuration::from_secs(1)))
      .unwrap();

    let _data2: Vec<u8> = udp_listener.get_message();
  }

  #[test]
  fn discovery_writer_data_test() {
    use crate::TopicKind;
    let participant =
      DomainParticipant::new(test_domain_id(0)).expect("Failed to create participant");

    let topic = participant
      .create_topic(
        "Square".to_string(),
        "ShapeType".to_string(),
        &QosPolicies::qos_none(),
        TopicKind::WithKey,
      )
      .unwrap();

    let publisher = participant
      .create_publisher(&QosPolicies::qos_none())
      .unwrap();
    let _writer = publisher
      .create_datawriter_cdr::<ShapeType>(&topic, None)
      .unwrap();

    let subscriber = participant
      .create_subscriber(&QosPolicies::qos_none())
      .unwrap();
    let _reader =
      subscriber.create_datareader::<ShapeType, CDRDeserializerAdapter<ShapeType>>(&topic, None);

    let mut poll = mio1::Poll::new().unwrap();
    let mut udp_listener = UDPListener::new_unicast("127.0.0.1", 0).unwrap();
    poll
      .registry()
      .register(
        udp_listener.mio_socket(),
        mio1::Token(0),
        mio1::Interest::READABLE,
      )
      .unwrap();

    let udp_sender = UDPSender::new_with_random_port().expect("failed to create UDPSender");
    let addresses = vec![SocketAddr::new(
      "127.0.0.1".parse().unwrap(),
      spdp_well_known_unicast_port(test_domain_id(15), 0),
    )];

    let mut tdata = spdp_publication_msg();
    for submsg in &mut tdata.submessages {
      match &mut submsg.body {
        SubmessageBody::Interpreter(v) => match v {
          InterpreterSubmessage::InfoDestination(dst, _flags) => {
            dst.guid_prefix = participant.guid_prefix();
          }
          _ => continue,
        },
        SubmessageBody::Writer(_) => (),
        SubmessageBody::Reader(_) => (),
        #[cfg(feature = "security")]
        SubmessageBody::Security(_) => (),
      }
    }

    let par_msg_data = spdp_participant_msg_mod(udp_listener.port())
      .write_to_vec_with_ctx(Endianness::LittleEndian)
      .expect("Failed to write participant data.");

    let msg_data = tdata
      .write_to_vec_with_ctx(Endianness::LittleEndian)
      .expect("Failed to write msg data");

    udp_sender.send_to_all(&par_msg_data, &addresses);
    udp_sender.send_to_all(&msg_data, &addresses);

    let mut events = Events::with_capacity(10);
    poll
      .poll(&mut events, Some(StdDuration::from_secs(1)))
      .unwrap();

    for _ in udp_listener.messages_bounded(usize::MAX) {
      info!("Message received");
    }
  }

  #[test]
  fn discovery_topic_data_test() {
    let _participant = DomainParticipant::new(test_domain_id(0));

    let topic_data = DiscoveredTopicData::new(
      Utc::now(),
      TopicBuiltinTopicData {
        key: None,
        name: String::from("Square"),
        type_name: String::from("ShapeType"),
        durability: None,
        deadline: None,
        latency_budget: None,
        liveliness: None,
        reliability: None,
        lifespan: None,
        destination_order: None,
        presentation: None,
        history: None,
        resource_limits: None,
        ownership: None,
      },
    );

    let rtps_message = create_cdr_pl_rtps_data_message(
      &topic_data,
      EntityId::SEDP_BUILTIN_TOPIC_READER,
      EntityId::SEDP_BUILTIN_TOPIC_WRITER,
    );

    let udp_sender = UDPSender::new_with_random_port().expect("failed to create UDPSender");
    let addresses = vec![SocketAddr::new(
      "127.0.0.1".parse().unwrap(),
      spdp_well_known_unicast_port(test_domain_id(16), 0),
    )];

    let rr = rtps_message
      .write_to_vec_with_ctx(Endianness::LittleEndian)
      .unwrap();

    udp_sender.send_to_all(&rr, &addresses);
  }

  // Stores sample sn of an SEDP writer in a built-in reader's topic cache as the
  // RTPS Reader does for reliably received DATA, but without notifying the
  // DataReader. The sample stays pending until Discovery reads that DataReader
  // for some other reason.
  fn add_pending_sedp_sample(
    participant: &DomainParticipant,
    topic_name: &str,
    writer_guid: GUID,
    sn: i64,
    data: DDSData,
  ) {
    use crate::{
      structure::{cache_change::CacheChange, sequence_number::SequenceNumber},
      WriteOptions,
    };

    let topic_cache = participant
      .dds_cache()
      .read()
      .unwrap()
      .get_existing_topic_cache(topic_name)
      .unwrap();
    let mut topic_cache = topic_cache.lock().unwrap();
    let sn = SequenceNumber::new(sn);
    topic_cache.add_change(
      &Timestamp::now(),
      CacheChange::new(writer_guid, sn, WriteOptions::default(), data),
    );
    topic_cache.mark_reliably_received_before(writer_guid, sn.plus_1());
  }

  // SEDP sample announcing an endpoint
  fn sedp_value(endpoint_data: &impl PlCdrSerialize) -> DDSData {
    DDSData::new(SerializedPayload::new_from_bytes(
      RepresentationIdentifier::PL_CDR_LE,
      endpoint_data
        .to_pl_cdr_bytes(RepresentationIdentifier::PL_CDR_LE)
        .unwrap(),
    ))
  }

  // SEDP sample disposing an endpoint
  fn sedp_dispose(endpoint: GUID) -> DDSData {
    DDSData::new_disposed_by_key(
      ChangeKind::NotAliveDisposed,
      SerializedPayload::new_from_bytes(
        RepresentationIdentifier::PL_CDR_LE,
        Endpoint_GUID(endpoint)
          .to_pl_cdr_bytes(RepresentationIdentifier::PL_CDR_LE)
          .unwrap(),
      ),
    )
  }
  include!("tests_2.rs");
}
