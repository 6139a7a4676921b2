//! A DDS participant and its endpoints, every DDS call on one background thread.
//!
//! The participant is built on the caller's thread (opening sockets may block), its endpoints
//! declared, then [`ParticipantBuilder::start`] moves them all to a thread of their own. From
//! then on the caller only touches [`Publisher`]s and [`Subscription`]s, which exchange whole
//! preallocated messages with that thread, wait-free and allocation-free: a publisher through a
//! queue ([`crate::outbox`]: every message goes out, in order, unless the thread is
//! [`OUTBOX_DEPTH`] behind), a subscription through a triple buffer (the newest message
//! wins, as for a keep-last reader the loop reads once a cycle). A publish wakes the thread with an eventfd write
//! ([`rustdds::mio1::Waker`]), which does not block, and only when the thread is asleep: a loop
//! faster than the network makes no system call. The thread sleeps in `epoll` on the readers and
//! that waker, so a command goes out, and a state comes in, without polling delay.
//!
//! Stopping (or dropping) the [`Participant`] stops and joins the thread, which drops the DDS
//! entities there.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};
use std::thread::JoinHandle;
use std::time::Duration;

use rustdds::mio1::{Events, Interest, Poll, Token, Waker};
use rustdds::no_key::{DataReader, DataWriter};
use rustdds::{
    DataWriterStatus, DomainParticipant, DomainParticipantBuilder, QosPolicyBuilder, StatusEvented,
    TopicKind,
};

use crate::cdr::{Payload, RawCdr, RosCdr};
use crate::error::WireError;
use crate::message::Message;
use crate::msg::Time;
use crate::name::TopicName;
use crate::qos::QosProfile;
use crate::type_hash::TypeHash;

const WAKE: Token = Token(usize::MAX);
/// How many published messages may wait for the DDS thread (16 ms of a 1 kHz loop); past
/// that, a publish is dropped and counted.
pub const OUTBOX_DEPTH: usize = 16;
/// How often the thread looks at matches and the stop flag when nothing else wakes it.
const HOUSEKEEPING: Duration = Duration::from_millis(50);

/// Counts one endpoint keeps; read from any thread.
#[derive(Debug, Default)]
pub struct EndpointCounters {
    /// Messages handed to or taken from DDS.
    pub transferred: AtomicU64,
    /// Publisher: published on the control side but dropped, [`OUTBOX_DEPTH`] messages
    /// already waiting for the DDS thread (the network was slower than the loop).
    /// Subscription: samples that arrived but were replaced by a newer one before the reader
    /// looked.
    pub overwritten: AtomicU64,
    /// Samples DDS refused to write, or could not decode.
    pub failed: AtomicU64,
    /// Remote endpoints matched (publisher: subscriptions; refreshed every 50 ms).
    pub matched: AtomicU64,
}

/// What one endpoint does on the DDS thread.
trait Pump: Send {
    /// Registers a reader with the poll; a writer has nothing to register.
    fn register(&mut self, poll: &Poll, token: Token) -> std::io::Result<()>;
    /// Sends what the control side published, takes what arrived.
    fn pump(&mut self);
    /// Refreshes the match count.
    fn housekeeping(&mut self) {}
    /// Whether the control side published something not yet sent (readers: never; their
    /// sockets wake the poll).
    fn pending(&self) -> bool {
        false
    }
}

/// How the control side wakes the DDS thread: an eventfd write, made only when the thread is
/// asleep or about to be.
///
/// The thread sets `sleeping`, then looks for pending work, then sleeps; a publisher makes its
/// message visible, then clears `sleeping` and wakes the thread if it was set. With a SeqCst
/// fence between the two steps on each side, either the thread sees the message or the
/// publisher sees the flag (Dekker's pattern), so no message waits for the next wake.
#[derive(Debug)]
struct Doorbell {
    waker: Waker,
    sleeping: AtomicBool,
}

impl Doorbell {
    fn ring(&self) {
        fence(Ordering::SeqCst);
        if self.sleeping.swap(false, Ordering::SeqCst) {
            // If the write failed, the message goes out at the next housekeeping tick.
            let _ = self.waker.wake();
        }
    }
}

/// Builds a participant: declare the endpoints, then [`start`](Self::start) it.
pub struct ParticipantBuilder {
    participant: DomainParticipant,
    publisher: rustdds::Publisher,
    subscriber: rustdds::Subscriber,
    poll: Poll,
    doorbell: Arc<Doorbell>,
    pumps: Vec<Box<dyn Pump>>,
    domain_id: u16,
}

impl std::fmt::Debug for ParticipantBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParticipantBuilder")
            .field("domain_id", &self.domain_id)
            .field("endpoints", &self.pumps.len())
            .finish_non_exhaustive()
    }
}

/// A running participant: its thread, until stopped or dropped.
#[derive(Debug)]
pub struct Participant {
    stop: Arc<AtomicBool>,
    doorbell: Arc<Doorbell>,
    thread: Option<JoinHandle<()>>,
}

impl Participant {
    /// A participant on DDS domain `domain_id` (ROS_DOMAIN_ID; 0 to 232), on every interface
    /// its namespace has.
    pub fn builder(domain_id: u16) -> Result<ParticipantBuilder, WireError> {
        if domain_id > MAX_DOMAIN_ID {
            return Err(WireError::DomainId(domain_id));
        }
        crate::ports::check_shared_ports(domain_id)?;
        crate::ports::check_discovery_route(domain_id)?;
        let participant = DomainParticipantBuilder::new(domain_id)
            .build()
            .map_err(|e| WireError::dds(format!("cannot join DDS domain {domain_id}"), e))?;
        let qos = QosPolicyBuilder::new().build();
        let publisher = participant
            .create_publisher(&qos)
            .map_err(|e| WireError::dds("cannot create a DDS publisher", e))?;
        let subscriber = participant
            .create_subscriber(&qos)
            .map_err(|e| WireError::dds("cannot create a DDS subscriber", e))?;
        let poll = Poll::new().map_err(WireError::Poll)?;
        let doorbell = Arc::new(Doorbell {
            waker: Waker::new(poll.registry(), WAKE).map_err(WireError::Poll)?,
            sleeping: AtomicBool::new(false),
        });
        Ok(ParticipantBuilder {
            participant,
            publisher,
            subscriber,
            poll,
            doorbell,
            pumps: Vec::new(),
            domain_id,
        })
    }

    /// Stops the thread and waits for it; what it owned (the DDS entities) is dropped there.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // Always, asleep or not; a failed wake only delays the stop to the next housekeeping tick.
        let _ = self.doorbell.waker.wake();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Whether the thread is still running.
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for Participant {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A writer's or reader's policies for message type `M`: the profile's, and in USER_DATA the
/// type's REP-2011 hash as Jazzy's RMWs announce it (`typehash=RIHS01_…;`), so their graph
/// shows the type hash and rmw_zenoh-style matching by hash can work. rustdds sends USER_DATA
/// only as patched in `vendor/rustdds` (its PATCHED.md).
fn endpoint_policies<M: Message>(qos: &QosProfile) -> rustdds::QosPolicies {
    qos.policies()
        .with_user_data(TypeHash::of::<M>().user_data().into_bytes())
}

/// The domain ROS 2 tools use here: `ROS_DOMAIN_ID`, 0 when unset or empty.
pub fn domain_from_env() -> Result<u16, String> {
    match std::env::var("ROS_DOMAIN_ID") {
        Ok(value) if !value.trim().is_empty() => value.trim().parse().map_err(|_| {
            format!("ROS_DOMAIN_ID is `{value}`, not a domain id (a whole number, 0 to 232)")
        }),
        _ => Ok(0),
    }
}

/// ROS 2's highest domain id on Linux (the port arithmetic of the DDS spec overflows above).
pub const MAX_DOMAIN_ID: u16 = 232;

impl ParticipantBuilder {
    fn topic(
        &self,
        name: &TopicName,
        type_name: String,
        qos: &QosProfile,
    ) -> Result<rustdds::Topic, WireError> {
        self.participant
            .create_topic(
                name.dds_name(),
                type_name,
                &qos.policies(),
                TopicKind::NoKey,
            )
            .map_err(|e| WireError::dds(format!("cannot create topic `{name}`"), e))
    }

    /// A publisher of `M` on `topic`; `template` is what each of its [`OUTBOX_DEPTH`]` + 1`
    /// buffers starts as (a clone of it: give it the lengths it will need, so filling a buffer
    /// never allocates).
    pub fn publisher<M: Message>(
        &mut self,
        topic: &TopicName,
        qos: QosProfile,
        template: M,
    ) -> Result<Publisher<M>, WireError> {
        let dds_topic = self.topic(topic, M::DESCRIPTION.dds_type_name(), &qos)?;
        let writer = self
            .publisher
            .create_datawriter_no_key::<M, RosCdr>(&dds_topic, Some(endpoint_policies::<M>(&qos)))
            .map_err(|e| WireError::dds(format!("cannot create a writer on `{topic}`"), e))?;
        let (outbox, outgoing) = crate::outbox::outbox(&template, OUTBOX_DEPTH);
        let counters = Arc::new(EndpointCounters::default());
        self.pumps.push(Box::new(WriterPump {
            writer,
            outgoing,
            counters: counters.clone(),
        }));
        Ok(Publisher {
            topic: topic.clone(),
            outbox,
            doorbell: self.doorbell.clone(),
            counters,
        })
    }

    /// A subscription to `M` on `topic`.
    pub fn subscription<M: Message>(
        &mut self,
        topic: &TopicName,
        qos: QosProfile,
    ) -> Result<Subscription<M>, WireError> {
        let dds_topic = self.topic(topic, M::DESCRIPTION.dds_type_name(), &qos)?;
        let reader = self
            .subscriber
            .create_datareader_no_key::<Payload, RawCdr>(
                &dds_topic,
                Some(endpoint_policies::<M>(&qos)),
            )
            .map_err(|e| WireError::dds(format!("cannot create a reader on `{topic}`"), e))?;
        let (input, output) = triple_buffer::triple_buffer(&Received::<M>::default());
        let counters = Arc::new(EndpointCounters::default());
        self.pumps.push(Box::new(ReaderPump {
            reader,
            input,
            arrivals: 0,
            counters: counters.clone(),
        }));
        Ok(Subscription {
            topic: topic.clone(),
            output,
            last_seen: 0,
            counters,
        })
    }

    /// Starts the participant's thread with every endpoint declared so far.
    pub fn start(self) -> Result<Participant, WireError> {
        let ParticipantBuilder {
            participant,
            publisher,
            subscriber,
            mut poll,
            doorbell,
            mut pumps,
            domain_id,
        } = self;
        for (index, pump) in pumps.iter_mut().enumerate() {
            pump.register(&poll, Token(index))
                .map_err(WireError::Poll)?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let thread_doorbell = doorbell.clone();
        let thread = std::thread::Builder::new()
            .name(format!("dds-domain-{domain_id}"))
            .spawn(move || {
                // Owned here, dropped here: DDS lives and dies on this thread.
                let _entities = (participant, publisher, subscriber);
                run(&mut poll, &mut pumps, &thread_stop, &thread_doorbell);
            })
            .map_err(WireError::Thread)?;
        Ok(Participant {
            stop,
            doorbell,
            thread: Some(thread),
        })
    }
}

/// The DDS thread: sleep until woken, pump, until stopped.
fn run(poll: &mut Poll, pumps: &mut [Box<dyn Pump>], stop: &AtomicBool, doorbell: &Doorbell) {
    let mut events = Events::with_capacity(64);
    let mut next_housekeeping = std::time::Instant::now();
    while !stop.load(Ordering::Acquire) {
        doorbell.sleeping.store(true, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        if !pumps.iter().any(|p| p.pending()) {
            // EINTR and the like return early: the loop comes round again.
            let _ = poll.poll(&mut events, Some(HOUSEKEEPING));
        }
        doorbell.sleeping.store(false, Ordering::SeqCst);
        // Every endpoint is pumped on any wake: the readers' readiness is edge-triggered
        // and a writer has no event of its own; pumping an idle endpoint costs an atomic load.
        for pump in pumps.iter_mut() {
            pump.pump();
        }
        let now = std::time::Instant::now();
        if now >= next_housekeeping {
            for pump in pumps.iter_mut() {
                pump.housekeeping();
            }
            next_housekeeping = now + HOUSEKEEPING;
        }
    }
}

/// The control side of a topic we publish.
pub struct Publisher<M: Message> {
    topic: TopicName,
    outbox: crate::outbox::Outbox<M>,
    doorbell: Arc<Doorbell>,
    counters: Arc<EndpointCounters>,
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
}

impl<M: Message> Pump for ReaderPump<M> {
    fn register(&mut self, poll: &Poll, token: Token) -> std::io::Result<()> {
        poll.registry()
            .register(&mut self.reader, token, Interest::READABLE)
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
