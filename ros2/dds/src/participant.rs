//! A process's DDS participant and its endpoints, every DDS call on one background thread.
//!
//! [`Participant::join`] joins a domain on the caller's thread (opening sockets may block) and
//! moves the DDS entities to a thread of their own at once. A ROS 2 process is one participant,
//! whatever its nodes: the participant is a handle, cloned to everything in the process that
//! speaks ROS 2, and each makes its endpoints on it when it needs them, before or while the loop
//! runs: a request the DDS thread carries out ([`Participant::publisher`],
//! [`Participant::subscription`]). The caller then only touches [`Publisher`]s and
//! [`Subscription`]s, which exchange whole preallocated messages with that thread, wait-free and
//! allocation-free: a publisher through a queue ([`crate::outbox`]: every message goes out, in order, unless the thread is
//! [`OUTBOX_DEPTH`] behind), a subscription through a triple buffer (the newest message
//! wins, as for a keep-last reader the loop reads once a cycle). A publish wakes the thread with an eventfd write
//! ([`rustdds::mio1::Waker`]), which does not block, and only when the thread is asleep: a loop
//! faster than the network makes no system call. The thread sleeps in `epoll` on the readers and
//! that waker, so a command goes out, and a state comes in, without polling delay.
//!
//! An endpoint whose handle is dropped is deleted on the DDS thread at its next housekeeping tick
//! (its writer or reader leaves the graph); the last handle of the participant dropped stops and
//! joins the thread, which drops the DDS entities there.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use rustdds::mio1::{Events, Interest, Poll, Token, Waker};
use rustdds::no_key::{DataReader, DataWriter};
use rustdds::{DataWriterStatus, DomainParticipant, QosPolicyBuilder, StatusEvented, TopicKind};

use ros2_msg::cdr::Payload;
use ros2_msg::msg::Time;
use ros2_msg::{Message, NodeName, QosProfile, Service, TopicName, TypeHash};

use crate::adapters::{RawCdr, RosCdr};
use crate::client::ServiceClient;
use crate::discovery::{Discovery, DiscoveryRange};
use crate::error::WireError;
use crate::nodes::{Direction, NodeRegistry, NodeToken};
use crate::qos::policies;
use crate::service::{Reply, ServiceCounters, ServiceServer};

const WAKE: Token = Token(usize::MAX);
/// How many published messages may wait for the DDS thread (16 ms of a 1 kHz loop); past
/// that, a publish is dropped and counted.
pub const OUTBOX_DEPTH: usize = 16;
/// How often the thread looks at matches, dropped endpoints and the stop flag when nothing else
/// wakes it.
const HOUSEKEEPING: Duration = Duration::from_millis(50);
/// How long making an endpoint may take the DDS thread before the request is given up.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

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

/// What one endpoint (or a service server's pair of them) does on the DDS thread.
pub(crate) trait Pump: Send {
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
    /// Whether the control side dropped its handle: the endpoint is then deleted.
    fn abandoned(&self) -> bool;
    /// The GUIDs of its DDS endpoints, as its node announces them.
    fn gids(&self) -> &[[u8; 16]];
    /// Takes a reader out of the poll before it is dropped; a writer has nothing registered.
    fn deregister(&mut self, _poll: &Poll) {}
}

/// How the control side wakes the DDS thread: an eventfd write, made only when the thread is
/// asleep or about to be.
///
/// The thread sets `sleeping`, then looks for pending work, then sleeps; a publisher makes its
/// message visible, then clears `sleeping` and wakes the thread if it was set. With a SeqCst
/// fence between the two steps on each side, either the thread sees the message or the
/// publisher sees the flag (Dekker's pattern), so no message waits for the next wake.
#[derive(Debug)]
pub(crate) struct Doorbell {
    waker: Waker,
    sleeping: AtomicBool,
}

impl Doorbell {
    pub(crate) fn ring(&self) {
        fence(Ordering::SeqCst);
        if self.sleeping.swap(false, Ordering::SeqCst) {
            // If the write failed, the message goes out at the next housekeeping tick.
            let _ = self.waker.wake();
        }
    }
}

/// The DDS entities, which live and die on the DDS thread.
pub(crate) struct Dds {
    participant: DomainParticipant,
    pub(crate) publisher: rustdds::Publisher,
    pub(crate) subscriber: rustdds::Subscriber,
    pub(crate) nodes: NodeRegistry,
}

impl Dds {
    fn topic(
        &self,
        name: &TopicName,
        type_name: String,
        qos: &QosProfile,
    ) -> Result<rustdds::Topic, WireError> {
        self.raw_topic(name.dds_name(), type_name, qos, TopicKind::NoKey)
    }

    /// A topic by its DDS name (`rq/controller_manager/get_parametersRequest`).
    pub(crate) fn raw_topic(
        &self,
        dds_name: String,
        type_name: String,
        qos: &QosProfile,
        kind: TopicKind,
    ) -> Result<rustdds::Topic, WireError> {
        self.participant
            .create_topic(dds_name.clone(), type_name, &policies(qos), kind)
            .map_err(|e| WireError::dds(format!("cannot create topic `{dds_name}`"), e))
    }
}

/// How an endpoint (or a node, which has no pump) is made from the DDS entities, on their
/// thread.
type Make = Box<dyn FnOnce(&mut Dds) -> Result<Option<Box<dyn Pump>>, WireError> + Send>;

/// What the DDS thread is asked to make: an endpoint or a node, from its entities; the answer
/// goes back to the caller, who waits for it.
struct Request {
    make: Make,
    answer: mpsc::SyncSender<Result<(), WireError>>,
}

/// What the handles and the DDS thread share.
struct Shared {
    domain_id: u16,
    /// The nodes made so far: asking for a node of the same name again gives the same node
    /// while it lives (a process has one node of a name, as ROS tools expect).
    nodes: Mutex<Vec<std::sync::Weak<NodeToken>>>,
    doorbell: Arc<Doorbell>,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Drop for Shared {
    /// The last handle gone: stops the thread and waits for it; what it owned (the DDS
    /// entities) is dropped there.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // Always, asleep or not; a failed wake only delays the stop to the next housekeeping tick.
        let _ = self.doorbell.waker.wake();
        let thread = self
            .thread
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

/// A process's participant in one DDS domain: a handle, cloned to everything that speaks ROS 2
/// here; the thread runs until the last handle is dropped.
#[derive(Clone)]
pub struct Participant {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Participant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Participant")
            .field("domain_id", &self.shared.domain_id)
            .finish_non_exhaustive()
    }
}

impl Participant {
    /// Joins DDS domain `domain_id` (ROS_DOMAIN_ID; 0 to 232) on every interface the network
    /// namespace has, and starts the participant's thread.
    pub fn join(domain_id: u16) -> Result<Participant, WireError> {
        let discovery = Discovery::from_env().map_err(WireError::Environment)?;
        Participant::join_with(domain_id, &discovery)
    }

    /// Joins DDS domain `domain_id`, discovering others in `discovery`'s range
    /// ([`crate::discovery`]). Static peers are `ROS_STATIC_PEERS`'s, which the DDS stack reads
    /// itself.
    pub fn join_with(domain_id: u16, discovery: &Discovery) -> Result<Participant, WireError> {
        if domain_id > MAX_DOMAIN_ID {
            return Err(WireError::DomainId(domain_id));
        }
        crate::ports::check_shared_ports(domain_id)?;
        if discovery.range != DiscoveryRange::Off {
            crate::ports::check_discovery_route(domain_id, discovery.range)?;
        }
        let participant = discovery
            .builder(domain_id)
            .build()
            .map_err(|e| WireError::dds(format!("cannot join DDS domain {domain_id}"), e))?;
        let qos = QosPolicyBuilder::new().build();
        let publisher = participant
            .create_publisher(&qos)
            .map_err(|e| WireError::dds("cannot create a DDS publisher", e))?;
        let subscriber = participant
            .create_subscriber(&qos)
            .map_err(|e| WireError::dds("cannot create a DDS subscriber", e))?;
        let nodes = NodeRegistry::new(&participant, &publisher)?;
        let dds = Dds {
            participant,
            publisher,
            subscriber,
            nodes,
        };
        let poll = Poll::new().map_err(WireError::Poll)?;
        let doorbell = Arc::new(Doorbell {
            waker: Waker::new(poll.registry(), WAKE).map_err(WireError::Poll)?,
            sleeping: AtomicBool::new(false),
        });
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (stop, doorbell, requests) = (stop.clone(), doorbell.clone(), requests.clone());
            std::thread::Builder::new()
                .name(format!("dds-domain-{domain_id}"))
                .spawn(move || {
                    // Owned here, dropped here: DDS lives and dies on this thread.
                    let mut thread = DdsThread {
                        dds,
                        poll,
                        pumps: Vec::new(),
                        requests,
                    };
                    thread.run(&stop, &doorbell);
                })
                .map_err(WireError::Thread)?
        };
        Ok(Participant {
            shared: Arc::new(Shared {
                domain_id,
                nodes: Mutex::new(Vec::new()),
                doorbell,
                requests,
                stop,
                thread: Mutex::new(Some(thread)),
            }),
        })
    }

    /// The domain it joined.
    pub fn domain_id(&self) -> u16 {
        self.shared.domain_id
    }

    /// Whether the thread is still running.
    pub fn is_running(&self) -> bool {
        self.shared
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|t| !t.is_finished())
    }

    /// Node `name` in `namespace` (`/` for the root), which ROS tools list once the DDS
    /// thread has announced it; its endpoints are made on it ([`Node::publisher`],
    /// [`Node::subscription`], [`Node::service`]). It is announced while a handle of it or one
    /// of its endpoints lives; asked for again meanwhile, it is the same node.
    pub fn node(&self, namespace: &str, name: &str) -> Result<Node, WireError> {
        let name = NodeName::new(namespace, name)?;
        let mut nodes = self
            .shared
            .nodes
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        nodes.retain(|n| n.strong_count() > 0);
        if let Some(token) = nodes
            .iter()
            .filter_map(std::sync::Weak::upgrade)
            .find(|t| t.name == name)
        {
            return Ok(Node {
                participant: self.clone(),
                token,
            });
        }
        let token = Arc::new(NodeToken { name });
        nodes.push(Arc::downgrade(&token));
        drop(nodes);
        let registered = token.clone();
        self.request(move |dds| {
            dds.nodes.add_node(&registered);
            Ok(None)
        })?;
        Ok(Node {
            participant: self.clone(),
            token,
        })
    }

    /// A publisher of `M` on `topic` that no node owns (ROS tools show it as a bare DDS
    /// application's, `_CREATED_BY_BARE_DDS_APP_`): for a test standing in for another process.
    /// A node's endpoints come from [`Node::publisher`].
    ///
    /// `template` is what each of its [`OUTBOX_DEPTH`]` + 1` buffers starts as (a clone of it:
    /// give it the lengths it will need, so filling a buffer never allocates). Made on the DDS
    /// thread; waits for it.
    pub fn publisher<M: Message>(
        &self,
        topic: &TopicName,
        qos: QosProfile,
        template: M,
    ) -> Result<Publisher<M>, WireError> {
        self.make_publisher(None, topic, qos, template)
    }

    /// A subscription to `M` on `topic` that no node owns; see [`Participant::publisher`].
    pub fn subscription<M: Message>(
        &self,
        topic: &TopicName,
        qos: QosProfile,
    ) -> Result<Subscription<M>, WireError> {
        self.make_subscription(None, topic, qos)
    }

    fn make_publisher<M: Message>(
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

    fn make_subscription<M: Message>(
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

    /// Wakes the DDS thread (a client queued a call).
    pub(crate) fn wake(&self) {
        self.shared.doorbell.ring();
    }

    /// Has the DDS thread make an endpoint with `make`, and waits for it.
    fn request(
        &self,
        make: impl FnOnce(&mut Dds) -> Result<Option<Box<dyn Pump>>, WireError> + Send + 'static,
    ) -> Result<(), WireError> {
        let (answer, answered) = mpsc::sync_channel(1);
        self.shared
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Request {
                make: Box::new(make),
                answer,
            });
        self.shared.doorbell.ring();
        answered
            .recv_timeout(REQUEST_TIMEOUT)
            .unwrap_or(Err(WireError::Stopped))
    }
}

/// What the DDS thread owns.
struct DdsThread {
    dds: Dds,
    poll: Poll,
    /// Each endpoint by its poll token; `None` where one was deleted, for the next to take.
    pumps: Vec<Option<Box<dyn Pump>>>,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl DdsThread {
    /// Sleeps until woken, makes what was asked, pumps, until stopped.
    fn run(&mut self, stop: &AtomicBool, doorbell: &Doorbell) {
        let mut events = Events::with_capacity(64);
        let mut next_housekeeping = std::time::Instant::now();
        while !stop.load(Ordering::Acquire) {
            doorbell.sleeping.store(true, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            let pending = self.pumps.iter().flatten().any(|p| p.pending());
            if !pending && self.lock_requests().is_empty() {
                // EINTR and the like return early: the loop comes round again.
                let _ = self.poll.poll(&mut events, Some(HOUSEKEEPING));
            }
            doorbell.sleeping.store(false, Ordering::SeqCst);
            let asked = std::mem::take(&mut *self.lock_requests());
            for request in asked {
                let made = (request.make)(&mut self.dds).and_then(|pump| match pump {
                    Some(pump) => self.add(pump),
                    None => Ok(()),
                });
                // The caller may have given up waiting; then nobody is told.
                let _ = request.answer.send(made);
            }
            self.dds.nodes.announce_if_changed();
            // Every endpoint is pumped on any wake: the readers' readiness is edge-triggered
            // and a writer has no event of its own; pumping an idle endpoint costs an atomic
            // load.
            for pump in self.pumps.iter_mut().flatten() {
                pump.pump();
            }
            let now = std::time::Instant::now();
            if now >= next_housekeeping {
                self.housekeeping();
                next_housekeeping = now + HOUSEKEEPING;
            }
        }
    }

    fn lock_requests(&self) -> std::sync::MutexGuard<'_, Vec<Request>> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers `pump` under a free token.
    fn add(&mut self, mut pump: Box<dyn Pump>) -> Result<(), WireError> {
        let index = match self.pumps.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                self.pumps.push(None);
                self.pumps.len() - 1
            }
        };
        pump.register(&self.poll, Token(index))
            .map_err(WireError::Poll)?;
        self.pumps[index] = Some(pump);
        Ok(())
    }

    /// Match counts refreshed; endpoints whose handles were dropped deleted.
    fn housekeeping(&mut self) {
        for slot in &mut self.pumps {
            let Some(pump) = slot else { continue };
            if pump.abandoned() {
                pump.deregister(&self.poll);
                for &gid in pump.gids() {
                    self.dds.nodes.forget_endpoint(gid);
                }
                *slot = None;
            } else {
                pump.housekeeping();
            }
        }
        self.dds.nodes.housekeeping();
    }
}

/// A writer's or reader's policies for message type `M`: the profile's, and in USER_DATA the
/// type's REP-2011 hash as Jazzy's RMWs announce it (`typehash=RIHS01_…;`), so their graph
/// shows the type hash and rmw_zenoh-style matching by hash can work. rustdds sends USER_DATA
/// only as patched in `vendor/rustdds` (its PATCHED.md).
fn endpoint_policies<M: Message>(qos: &QosProfile) -> rustdds::QosPolicies {
    policies(qos).with_user_data(TypeHash::of::<M>().user_data().into_bytes())
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

/// A node of this process: a name in a namespace that ROS tools list (`ros2 node list`), and
/// the endpoints made on it, which `ros2 topic info -v` names it for. A handle: clone it
/// freely; it stays announced while a clone or one of its endpoints lives.
#[derive(Clone)]
pub struct Node {
    participant: Participant,
    token: Arc<NodeToken>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Node").field(&self.token.name).finish()
    }
}

impl Node {
    /// Its namespace and name.
    pub fn name(&self) -> &NodeName {
        &self.token.name
    }

    /// The participant it is announced by.
    pub fn participant(&self) -> &Participant {
        &self.participant
    }

    /// A publisher of `M` on `topic`, this node's; see [`Participant::publisher`] for the
    /// template. Made on the DDS thread; waits for it.
    pub fn publisher<M: Message>(
        &self,
        topic: &TopicName,
        qos: QosProfile,
        template: M,
    ) -> Result<Publisher<M>, WireError> {
        self.participant
            .make_publisher(Some(&self.token), topic, qos, template)
    }

    /// A subscription to `M` on `topic`, this node's. Made on the DDS thread; waits for it.
    pub fn subscription<M: Message>(
        &self,
        topic: &TopicName,
        qos: QosProfile,
    ) -> Result<Subscription<M>, WireError> {
        self.participant
            .make_subscription(Some(&self.token), topic, qos)
    }

    /// `~/<name>`: a name in this node's own namespace (`/robot1/controller_manager/list_parameters`),
    /// as rcl expands a private name.
    pub fn private_name(&self, name: &str) -> Result<TopicName, WireError> {
        TopicName::new(&format!("{}/{name}", self.token.name.fully_qualified())).map_err(|e| {
            WireError::Name {
                name: name.to_string(),
                source: e,
            }
        })
    }

    /// A client of service `S` on `name`, this node's ([`crate::client`] says how replies are
    /// paired with requests). Made on the DDS thread; waits for it.
    pub fn client<S: Service>(&self, name: &TopicName) -> Result<ServiceClient<S>, WireError> {
        let shared = crate::client::Shared::<S>::new();
        let (owner, service, pump_shared) = (self.token.clone(), name.clone(), shared.clone());
        self.participant.request(move |dds| {
            crate::client::make::<S>(dds, &owner, &service, pump_shared).map(Some)
        })?;
        Ok(ServiceClient::new(
            name.clone(),
            shared,
            self.participant.clone(),
            self.token.clone(),
        ))
    }

    /// A server of service `S` on `name`, this node's: `handler` answers each request, on the
    /// participant's thread ([`crate::service`] says how replies are paired with requests).
    /// It serves while the returned handle lives. Made on the DDS thread; waits for it.
    pub fn service<S: Service>(
        &self,
        name: &TopicName,
        mut handler: impl FnMut(&S::Request) -> S::Response + Send + 'static,
    ) -> Result<ServiceServer, WireError> {
        self.deferred_service::<S>(name, move |request, reply| {
            reply.send(handler(request));
        })
    }

    /// A server of service `S` on `name` whose `handler` answers through the [`Reply`] it is
    /// given, at once or later from any thread (an action's `get_result`, answered when its goal
    /// ends). The handler runs on the participant's thread and must not wait there.
    pub fn deferred_service<S: Service>(
        &self,
        name: &TopicName,
        handler: impl FnMut(&S::Request, Reply<S>) + Send + 'static,
    ) -> Result<ServiceServer, WireError> {
        let counters = Arc::new(ServiceCounters::default());
        let (owner, service, pump_counters) = (self.token.clone(), name.clone(), counters.clone());
        let handler: crate::service::Handler<S> = Box::new(handler);
        let doorbell = self.participant.shared.doorbell.clone();
        self.participant.request(move |dds| {
            crate::service::make::<S>(dds, &owner, &service, handler, pump_counters, doorbell)
                .map(Some)
        })?;
        Ok(ServiceServer::new(
            name.clone(),
            counters,
            self.token.clone(),
        ))
    }
}
