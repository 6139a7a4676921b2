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

use rustdds::mio1::{Events, Poll, Token, Waker};
use rustdds::{DomainParticipant, QosPolicyBuilder, TopicKind};

use ros2_msg::{Message, NodeName, QosProfile, TopicName};

use crate::discovery::{Discovery, DiscoveryRange};
use crate::error::WireError;
use crate::node::Node;
use crate::nodes::{NodeRegistry, NodeToken};
use crate::qos::policies;
use crate::topics::{Publisher, Subscription};

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
    pub(crate) fn topic(
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
pub(crate) struct Shared {
    domain_id: u16,
    /// The nodes made so far: asking for a node of the same name again gives the same node
    /// while it lives (a process has one node of a name, as ROS tools expect).
    nodes: Mutex<Vec<std::sync::Weak<NodeToken>>>,
    pub(crate) doorbell: Arc<Doorbell>,
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
    pub(crate) shared: Arc<Shared>,
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

    /// Wakes the DDS thread (a client queued a call).
    pub(crate) fn wake(&self) {
        self.shared.doorbell.ring();
    }

    /// Has the DDS thread make an endpoint with `make`, and waits for it.
    pub(crate) fn request(
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
