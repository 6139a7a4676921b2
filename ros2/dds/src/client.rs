//! A node's service clients, the other half of [`crate::service`]: a request on
//! `rq/<service>Request`, its reply on `rr/<service>Reply`, paired the way Jazzy's default RMW
//! (rmw_fastrtps_cpp) pairs them. The request carries, as `related_sample_identity`, this
//! client's reply reader's GUID (where a Fast DDS server sends the reply); the reply carries
//! the request's sequence number with that GUID (or the request writer's, from a server that
//! does not redirect), and is matched to its call by them.
//!
//! A call blocks its caller (never call from the control thread); the DDS work happens on the
//! participant's thread, which the caller wakes.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use ros2_msg::cdr::Payload;
use ros2_msg::{Service, TopicName};
use rustdds::mio1::{Interest, Poll, Token};
use rustdds::no_key::{DataReader, DataWriter};
use rustdds::{
    DataReaderStatus, DataWriterStatus, GUID, SampleIdentity, SequenceNumber, StatusEvented,
    WriteOptionsBuilder,
};

use crate::adapters::{RawCdr, RosCdr};
use crate::error::WireError;
use crate::nodes::NodeToken;
use crate::participant::{Dds, Pump};

/// Why a call got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No reply within the time given.
    #[error("no reply from `{service}` within {timeout:?}")]
    Timeout {
        /// The service.
        service: String,
        /// How long it waited.
        timeout: Duration,
    },
    /// DDS refused to send the request.
    #[error("`{0}`: DDS refused to send the request")]
    NotSent(String),
    /// The participant's thread is gone.
    #[error("the participant's thread has stopped")]
    Stopped,
}

/// One call waiting for its request to go out, or for its reply.
struct Call<S: Service> {
    request: S::Request,
    answer: mpsc::SyncSender<Result<S::Response, CallError>>,
    /// When its caller stops waiting.
    deadline: Instant,
}

/// What the caller and the DDS thread share.
pub(crate) struct Shared<S: Service> {
    queue: Mutex<VecDeque<Call<S>>>,
    /// Servers' request readers the request writer is matched with.
    servers: AtomicU64,
    /// Servers' reply writers the reply reader is matched with.
    repliers: AtomicU64,
}

/// A client of service `S`: it calls while this handle lives.
pub struct ServiceClient<S: Service> {
    name: TopicName,
    shared: Arc<Shared<S>>,
    participant: crate::Participant,
    _node: Arc<NodeToken>,
}

impl<S: Service> std::fmt::Debug for ServiceClient<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceClient")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<S: Service> ServiceClient<S> {
    /// The service's name.
    pub fn name(&self) -> &TopicName {
        &self.name
    }

    /// Whether a server is there: matched both ways (its request reader and its reply writer),
    /// as rclpy's `service_is_ready`.
    pub fn is_ready(&self) -> bool {
        self.shared.servers.load(Ordering::Acquire) > 0
            && self.shared.repliers.load(Ordering::Acquire) > 0
    }

    /// Waits at most `timeout` for a server ([`ServiceClient::is_ready`]).
    pub fn wait_for_service(&self, timeout: Duration) -> bool {
        let started = Instant::now();
        while !self.is_ready() {
            if started.elapsed() > timeout {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    /// Sends `request` and waits at most `timeout` for its reply. Blocks: not for the control
    /// thread. A request sent while no server is matched is lost, as with any RMW: wait for
    /// the service first.
    pub fn call(&self, request: S::Request, timeout: Duration) -> Result<S::Response, CallError> {
        let (answer, answered) = mpsc::sync_channel(1);
        self.shared
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(Call {
                request,
                answer,
                deadline: Instant::now() + timeout,
            });
        self.participant.wake();
        match answered.recv_timeout(timeout) {
            Ok(result) => result,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(CallError::Timeout {
                service: self.name.to_string(),
                timeout,
            }),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(CallError::Stopped),
        }
    }
}

impl<S: Service> Shared<S> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            servers: AtomicU64::new(0),
            repliers: AtomicU64::new(0),
        })
    }
}

impl<S: Service> ServiceClient<S> {
    pub(crate) fn new(
        name: TopicName,
        shared: Arc<Shared<S>>,
        participant: crate::Participant,
        node: Arc<NodeToken>,
    ) -> Self {
        ServiceClient {
            name,
            shared,
            participant,
            _node: node,
        }
    }
}

/// Makes the client's endpoints on the DDS thread; the node registry learns them.
pub(crate) fn make<S: Service>(
    dds: &mut Dds,
    node: &Arc<NodeToken>,
    name: &TopicName,
    shared: Arc<Shared<S>>,
) -> Result<Box<dyn Pump>, WireError> {
    let crate::service::Topics {
        qos,
        request: request_topic,
        reply: reply_topic,
    } = crate::service::topics::<S>(dds, name)?;
    let requests = dds
        .publisher
        .create_datawriter_no_key::<S::Request, RosCdr>(&request_topic, Some(qos.clone()))
        .map_err(|e| WireError::dds(format!("cannot create the request writer of `{name}`"), e))?;
    let replies = dds
        .subscriber
        .create_datareader_no_key::<Payload, RawCdr>(&reply_topic, Some(qos))
        .map_err(|e| WireError::dds(format!("cannot create the reply reader of `{name}`"), e))?;
    let writer = rustdds::RTPSEntity::guid(&requests);
    let reader = rustdds::RTPSEntity::guid(&replies);
    let gids = vec![writer.to_bytes(), reader.to_bytes()];
    dds.nodes
        .add_endpoint(node, gids[0], crate::nodes::Direction::Writer);
    dds.nodes
        .add_endpoint(node, gids[1], crate::nodes::Direction::Reader);
    Ok(Box::new(ClientPump::<S> {
        requests,
        replies,
        shared,
        waiting: Vec::new(),
        writer,
        reader,
        response: S::Response::default(),
        gids,
    }))
}

/// A call whose request went out: its sequence number, its caller, when the caller gives up.
type Sent<S> = (
    SequenceNumber,
    mpsc::SyncSender<Result<<S as Service>::Response, CallError>>,
    Instant,
);

struct ClientPump<S: Service> {
    requests: DataWriter<S::Request, RosCdr>,
    replies: DataReader<Payload, RawCdr>,
    shared: Arc<Shared<S>>,
    /// Calls sent, by the sequence number of their request.
    waiting: Vec<Sent<S>>,
    writer: GUID,
    reader: GUID,
    /// Each reply is decoded into this one.
    response: S::Response,
    gids: Vec<[u8; 16]>,
}

impl<S: Service> ClientPump<S> {
    fn follow_matches(&mut self) {
        while let Some(status) = self.requests.try_recv_status() {
            if let DataWriterStatus::PublicationMatched { current, .. } = status {
                let count = u64::try_from(current.count()).unwrap_or(0);
                self.shared.servers.store(count, Ordering::Release);
            }
        }
        while let Some(status) = self.replies.try_recv_status() {
            if let DataReaderStatus::SubscriptionMatched { current, .. } = status {
                let count = u64::try_from(current.count()).unwrap_or(0);
                self.shared.repliers.store(count, Ordering::Release);
            }
        }
    }

    fn send_queued(&mut self) {
        let queued: Vec<Call<S>> = self
            .shared
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
            .collect();
        for call in queued {
            // The reply goes to this client's reply reader (rmw_fastrtps' convention).
            let options = WriteOptionsBuilder::new()
                .related_sample_identity(SampleIdentity {
                    writer_guid: self.reader,
                    sequence_number: SequenceNumber::from(0),
                })
                .build();
            match self.requests.write_with_options(call.request, options) {
                Ok(identity) => {
                    self.waiting
                        .push((identity.sequence_number, call.answer, call.deadline));
                }
                Err(_) => {
                    let _ = call
                        .answer
                        .send(Err(CallError::NotSent(String::from("request"))));
                }
            }
        }
    }

    fn take_replies(&mut self) {
        while let Ok(Some(sample)) = self.replies.take_next_sample() {
            let Some(related) = sample.sample_info().related_sample_identity() else {
                continue;
            };
            // Ours: redirected to our reader (Fast DDS), or naming our writer.
            if related.writer_guid != self.reader && related.writer_guid != self.writer {
                continue;
            }
            let Some(at) = (self.waiting.iter())
                .position(|(sequence, ..)| *sequence == related.sequence_number)
            else {
                continue;
            };
            let (_, answer, _) = self.waiting.swap_remove(at);
            if sample.value().decode_into(&mut self.response).is_ok() {
                let _ = answer.send(Ok(std::mem::take(&mut self.response)));
            }
        }
    }
}

impl<S: Service> Pump for ClientPump<S> {
    fn register(&mut self, poll: &Poll, token: Token) -> std::io::Result<()> {
        poll.registry()
            .register(&mut self.replies, token, Interest::READABLE)
    }

    fn deregister(&mut self, poll: &Poll) {
        let _ = poll.registry().deregister(&mut self.replies);
    }

    fn pump(&mut self) {
        self.follow_matches();
        self.send_queued();
        self.take_replies();
    }

    fn housekeeping(&mut self) {
        self.follow_matches();
        // Calls whose callers stopped waiting: a late reply has no one to go to.
        let now = Instant::now();
        self.waiting.retain(|(_, _, deadline)| *deadline > now);
    }

    fn pending(&self) -> bool {
        !self
            .shared
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    fn abandoned(&self) -> bool {
        Arc::strong_count(&self.shared) == 1
    }

    fn gids(&self) -> &[[u8; 16]] {
        &self.gids
    }
}
