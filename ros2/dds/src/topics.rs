//! Topics: the control side of a publisher and of a subscription, and what each does on the
//! DDS thread ([`crate::participant`] says how the two sides meet).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rustdds::mio1::{Interest, Poll, Token};
use rustdds::no_key::{DataReader, DataWriter};
use rustdds::{DataWriterStatus, StatusEvented};

use ros2_msg::cdr::Payload;
use ros2_msg::msg::Time;
use ros2_msg::{Message, QosProfile, TopicName, TypeHash};

use crate::adapters::{RawCdr, RosCdr};
use crate::error::WireError;
use crate::nodes::{Direction, NodeToken};
use crate::participant::{Doorbell, EndpointCounters, OUTBOX_DEPTH, Participant, Pump};
use crate::qos::policies;

/// A writer's or reader's policies for message type `M`: the profile's, and in USER_DATA the
/// type's REP-2011 hash as Jazzy's RMWs announce it (`typehash=RIHS01_…;`), so their graph
/// shows the type hash and rmw_zenoh-style matching by hash can work. rustdds sends USER_DATA
/// only as patched in `vendor/rustdds` (its PATCHED.md).
fn endpoint_policies<M: Message>(qos: &QosProfile) -> rustdds::QosPolicies {
    policies(qos).with_user_data(TypeHash::of::<M>().user_data().into_bytes())
}

/// The control side of a topic we publish.
pub struct Publisher<M: Message> {
    topic: TopicName,
    outbox: crate::outbox::Outbox<M>,
    doorbell: Arc<Doorbell>,
    counters: Arc<EndpointCounters>,
    /// Keeps its node announced.
    _node: Option<Arc<NodeToken>>,
}

impl<M: Message> std::fmt::Debug for Publisher<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Publisher")
            .field("topic", &self.topic)
            .field("counters", &self.counters)
            .finish_non_exhaustive()
    }
}

impl<M: Message> Publisher<M> {
    /// The message to fill in place: one of the preallocated buffers, holding whatever was
    /// published some messages ago, so overwrite every field that matters.
    pub fn message_mut(&mut self) -> &mut M {
        self.outbox.message_mut()
    }

    /// Queues the message for the DDS thread and wakes it if it sleeps. Never blocks or
    /// allocates. With [`OUTBOX_DEPTH`] messages already waiting, the message is dropped, and
    /// counted (`overwritten`).
    pub fn publish(&mut self) {
        if !self.outbox.publish() {
            self.counters.overwritten.fetch_add(1, Ordering::Relaxed);
        }
        self.doorbell.ring();
    }

    /// The topic.
    pub fn topic(&self) -> &TopicName {
        &self.topic
    }

    /// Its counts.
    pub fn counters(&self) -> &EndpointCounters {
        &self.counters
    }
}

/// A message as it arrived, with when.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Received<M> {
    /// The message.
    pub message: M,
    /// The wall clock when the DDS thread took it.
    pub received: Time,
    /// How many messages had arrived on this subscription, this one included.
    pub arrival: u64,
}

/// The control side of a topic we subscribe to.
pub struct Subscription<M: Message> {
    topic: TopicName,
    output: triple_buffer::Output<Received<M>>,
    last_seen: u64,
    counters: Arc<EndpointCounters>,
    /// Keeps its node announced.
    _node: Option<Arc<NodeToken>>,
}

impl<M: Message> std::fmt::Debug for Subscription<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("topic", &self.topic)
            .field("counters", &self.counters)
            .finish_non_exhaustive()
    }
}

impl<M: Message> Subscription<M> {
    /// The newest message, if one arrived since the last call. Never blocks or allocates.
    pub fn take_latest(&mut self) -> Option<&Received<M>> {
        self.output.update();
        let received = self.output.output_buffer();
        if received.arrival == self.last_seen {
            return None;
        }
        let skipped = received.arrival - self.last_seen - 1;
        if skipped > 0 {
            self.counters
                .overwritten
                .fetch_add(skipped, Ordering::Relaxed);
        }
        self.last_seen = received.arrival;
        Some(received)
    }

    /// The topic.
    pub fn topic(&self) -> &TopicName {
        &self.topic
    }

    /// Its counts.
    pub fn counters(&self) -> &EndpointCounters {
        &self.counters
    }
}

struct WriterPump<M: Message> {
    writer: DataWriter<M, RosCdr>,
    outgoing: crate::outbox::Outgoing<M>,
    counters: Arc<EndpointCounters>,
    gid: [u8; 16],
}

impl<M: Message> Pump for WriterPump<M> {
    fn register(&mut self, _poll: &Poll, _token: Token) -> std::io::Result<()> {
        Ok(())
    }

    fn pump(&mut self) {
        let (writer, counters) = (&self.writer, &self.counters);
        self.outgoing.drain(|message| {
            // DDS takes the sample by value: the clone is made here, off the control thread.
            match writer.write(message.clone(), None) {
                Ok(()) => counters.transferred.fetch_add(1, Ordering::Relaxed),
                Err(_) => counters.failed.fetch_add(1, Ordering::Relaxed),
            };
        });
    }

    fn pending(&self) -> bool {
        self.outgoing.pending()
    }

    fn abandoned(&self) -> bool {
        Arc::strong_count(&self.counters) == 1
    }

    fn gids(&self) -> &[[u8; 16]] {
        std::slice::from_ref(&self.gid)
    }

    fn housekeeping(&mut self) {
        while let Some(status) = self.writer.try_recv_status() {
            if let DataWriterStatus::PublicationMatched { current, .. } = status {
                let matched = u64::try_from(current.count()).unwrap_or(0);
                self.counters.matched.store(matched, Ordering::Relaxed);
            }
        }
    }
}

struct ReaderPump<M: Message> {
    /// Samples as bodies, decoded here into the buffer the control side gets next.
    reader: DataReader<Payload, RawCdr>,
    input: triple_buffer::Input<Received<M>>,
    arrivals: u64,
    counters: Arc<EndpointCounters>,
    gid: [u8; 16],
}

impl<M: Message> Pump for ReaderPump<M> {
    fn register(&mut self, poll: &Poll, token: Token) -> std::io::Result<()> {
        poll.registry()
            .register(&mut self.reader, token, Interest::READABLE)
    }

    fn abandoned(&self) -> bool {
        Arc::strong_count(&self.counters) == 1
    }

    fn gids(&self) -> &[[u8; 16]] {
        std::slice::from_ref(&self.gid)
    }

    fn deregister(&mut self, poll: &Poll) {
        let _ = poll.registry().deregister(&mut self.reader);
    }

    fn pump(&mut self) {
        let mut newest = None;
        loop {
            match self.reader.take_next_sample() {
                Ok(Some(sample)) => {
                    self.arrivals += 1;
                    self.counters.transferred.fetch_add(1, Ordering::Relaxed);
                    newest = Some(sample.into_value());
                }
                Ok(None) => break,
                Err(_) => {
                    self.counters.failed.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            }
        }
        let Some(payload) = newest else { return };
        // Decoded into the buffer the control side gets next, reusing its strings and arrays.
        let slot = self.input.input_buffer_mut();
        if payload.decode_into(&mut slot.message).is_err() {
            self.counters.failed.fetch_add(1, Ordering::Relaxed);
            return;
        }
        slot.received = Time::now();
        slot.arrival = self.arrivals;
        self.input.publish();
    }
}

impl Participant {
    pub(crate) fn make_publisher<M: Message>(
        &self,
        node: Option<&Arc<NodeToken>>,
        topic: &TopicName,
        qos: QosProfile,
        template: M,
    ) -> Result<Publisher<M>, WireError> {
        let (outbox, outgoing) = crate::outbox::outbox(&template, OUTBOX_DEPTH);
        let counters = Arc::new(EndpointCounters::default());
        let (name, pump_counters, owner) = (topic.clone(), counters.clone(), node.cloned());
        self.request(move |dds| {
            let dds_topic = dds.topic(&name, M::DESCRIPTION.dds_type_name(), &qos)?;
            let writer = dds
                .publisher
                .create_datawriter_no_key::<M, RosCdr>(
                    &dds_topic,
                    Some(endpoint_policies::<M>(&qos)),
                )
                .map_err(|e| WireError::dds(format!("cannot create a writer on `{name}`"), e))?;
            let gid = rustdds::RTPSEntity::guid(&writer).to_bytes();
            if let Some(owner) = &owner {
                dds.nodes.add_endpoint(owner, gid, Direction::Writer);
            }
            Ok(Some(Box::new(WriterPump {
                writer,
                outgoing,
                counters: pump_counters,
                gid,
            })))
        })?;
        Ok(Publisher {
            topic: topic.clone(),
            outbox,
            doorbell: self.shared.doorbell.clone(),
            counters,
            _node: node.cloned(),
        })
    }

    pub(crate) fn make_subscription<M: Message>(
        &self,
        node: Option<&Arc<NodeToken>>,
        topic: &TopicName,
        qos: QosProfile,
    ) -> Result<Subscription<M>, WireError> {
        let (input, output) = triple_buffer::triple_buffer(&Received::<M>::default());
        let counters = Arc::new(EndpointCounters::default());
        let (name, pump_counters, owner) = (topic.clone(), counters.clone(), node.cloned());
        self.request(move |dds| {
            let dds_topic = dds.topic(&name, M::DESCRIPTION.dds_type_name(), &qos)?;
            let reader = dds
                .subscriber
                .create_datareader_no_key::<Payload, RawCdr>(
                    &dds_topic,
                    Some(endpoint_policies::<M>(&qos)),
                )
                .map_err(|e| WireError::dds(format!("cannot create a reader on `{name}`"), e))?;
            let gid = rustdds::RTPSEntity::guid(&reader).to_bytes();
            if let Some(owner) = &owner {
                dds.nodes.add_endpoint(owner, gid, Direction::Reader);
            }
            Ok(Some(Box::new(ReaderPump {
                reader,
                input,
                arrivals: 0,
                counters: pump_counters,
                gid,
            })))
        })?;
        Ok(Subscription {
            topic: topic.clone(),
            output,
            last_seen: 0,
            counters,
            _node: node.cloned(),
        })
    }
}
