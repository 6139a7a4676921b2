//! A node's service servers, served on the participant's thread.
//!
//! A ROS 2 service is two DDS topics: requests on `rq/<service>Request`, replies on
//! `rr/<service>Reply`, reliable, keep-last 10, volatile (`rmw_qos_profile_services_default`).
//! A reply is paired with its request the way Jazzy's default RMW (rmw_fastrtps_cpp) pairs
//! them: the reply carries the request's sample identity (its writer's GUID and sequence
//! number) in the `related_sample_identity` inline QoS. When the request itself carries a
//! related sample identity (Fast DDS clients put their reply reader's GUID there), that GUID
//! replaces the writer's, as rmw_fastrtps's server does, and the reply waits for that reader to
//! be matched (a request can arrive before discovery has matched the client's reply reader,
//! and a volatile reply sent then is lost). rmw_cyclonedds pairs requests and replies
//! differently (a header in the payload); this server does not speak that.
//!
//! A handler runs on the participant's thread, never the control thread: it may allocate and
//! take locks, but should answer quickly (every endpoint of the process waits for it).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ros2_msg::cdr::Payload;
use ros2_msg::{QosProfile, Service, TopicName, TypeHash};
use rustdds::mio1::{Interest, Poll, Token};
use rustdds::no_key::{DataReader, DataWriter};
use rustdds::{
    DataWriterStatus, GUID, SampleIdentity, StatusEvented, TopicKind, WriteOptionsBuilder,
};

use crate::adapters::{RawCdr, RosCdr};
use crate::error::WireError;
use crate::nodes::NodeToken;
use crate::participant::{Dds, Pump};
use crate::qos::policies;

/// `rmw_qos_profile_services_default`.
const SERVICE_QOS: QosProfile = QosProfile::reliable(10);

/// How long a reply waits for the client's reply reader to be matched before it is sent anyway.
const MATCH_WAIT: Duration = Duration::from_secs(5);

/// Counts a server keeps; read from any thread.
#[derive(Debug, Default)]
pub struct ServiceCounters {
    /// Requests answered.
    pub served: AtomicU64,
    /// Requests that could not be decoded, or replies DDS refused to write.
    pub failed: AtomicU64,
}

/// A service server: it serves while this handle lives.
pub struct ServiceServer {
    name: TopicName,
    counters: Arc<ServiceCounters>,
    _node: Arc<NodeToken>,
}

impl std::fmt::Debug for ServiceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceServer")
            .field("name", &self.name)
            .field("counters", &self.counters)
            .finish_non_exhaustive()
    }
}

impl ServiceServer {
    /// The service's name.
    pub fn name(&self) -> &TopicName {
        &self.name
    }

    /// Its counts.
    pub fn counters(&self) -> &ServiceCounters {
        &self.counters
    }
}

/// The handler of a service of type `S`: it answers through the [`Reply`] it is given, at once
/// or later, from any thread.
pub(crate) type Handler<S> = Box<dyn FnMut(&<S as Service>::Request, Reply<S>) + Send>;

/// The replies answered after their handler returned, for the DDS thread to send.
struct Late<S: Service> {
    replies: Mutex<Vec<Waiting<S::Response>>>,
    doorbell: Arc<crate::participant::Doorbell>,
}

/// The answer owed to one request: send it once, from any thread, now or later (an action's
/// `get_result` answers when its goal ends). Dropped unsent, the request gets no reply, as a
/// server that never answers.
pub struct Reply<S: Service> {
    identity: SampleIdentity,
    reader: Option<GUID>,
    late: Arc<Late<S>>,
}

impl<S: Service> std::fmt::Debug for Reply<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reply")
            .field("sequence_number", &self.identity.sequence_number)
            .finish_non_exhaustive()
    }
}

impl<S: Service> Reply<S> {
    /// Sends `response` as the reply: the participant's thread writes it (after the client's
    /// reply reader is matched, as every reply here).
    pub fn send(self, response: S::Response) {
        self.late
            .replies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Waiting {
                reply: response,
                identity: self.identity,
                reader: self.reader,
                since: Instant::now(),
            });
        self.late.doorbell.ring();
    }
}

/// A service's two topics and the policies of its endpoints: `rmw_qos_profile_services_default`,
/// and in USER_DATA the service type's hash, which Jazzy's RMWs announce on both.
pub(crate) struct Topics {
    pub(crate) qos: rustdds::QosPolicies,
    pub(crate) request: rustdds::Topic,
    pub(crate) reply: rustdds::Topic,
}

/// The topics of service `S` on `name`, for a server or a client.
pub(crate) fn topics<S: Service>(dds: &mut Dds, name: &TopicName) -> Result<Topics, WireError> {
    let user_data = TypeHash::of_description(S::DESCRIPTION).user_data();
    let qos = policies(&SERVICE_QOS).with_user_data(user_data.into_bytes());
    let request = dds.raw_topic(
        name.dds_request_name(),
        <S::Request as ros2_msg::Message>::DESCRIPTION.dds_type_name(),
        &SERVICE_QOS,
        TopicKind::NoKey,
    )?;
    let reply = dds.raw_topic(
        name.dds_reply_name(),
        <S::Response as ros2_msg::Message>::DESCRIPTION.dds_type_name(),
        &SERVICE_QOS,
        TopicKind::NoKey,
    )?;
    Ok(Topics {
        qos,
        request,
        reply,
    })
}

/// Makes the server's endpoints on the DDS thread; the node registry learns them.
pub(crate) fn make<S: Service>(
    dds: &mut Dds,
    node: &Arc<NodeToken>,
    name: &TopicName,
    handler: Handler<S>,
    counters: Arc<ServiceCounters>,
    doorbell: Arc<crate::participant::Doorbell>,
) -> Result<Box<dyn Pump>, WireError> {
    let Topics {
        qos,
        request: request_topic,
        reply: reply_topic,
    } = topics::<S>(dds, name)?;
    let requests = dds
        .subscriber
        .create_datareader_no_key::<Payload, RawCdr>(&request_topic, Some(qos.clone()))
        .map_err(|e| WireError::dds(format!("cannot create the request reader of `{name}`"), e))?;
    let replies = dds
        .publisher
        .create_datawriter_no_key::<S::Response, RosCdr>(&reply_topic, Some(qos))
        .map_err(|e| WireError::dds(format!("cannot create the reply writer of `{name}`"), e))?;
    let gids = vec![
        rustdds::RTPSEntity::guid(&requests).to_bytes(),
        rustdds::RTPSEntity::guid(&replies).to_bytes(),
    ];
    dds.nodes
        .add_endpoint(node, gids[0], crate::nodes::Direction::Reader);
    dds.nodes
        .add_endpoint(node, gids[1], crate::nodes::Direction::Writer);
    Ok(Box::new(ServerPump::<S> {
        requests,
        replies,
        handler,
        request: Default::default(),
        late: Arc::new(Late {
            replies: Mutex::new(Vec::new()),
            doorbell,
        }),
        waiting: VecDeque::new(),
        matched: Vec::new(),
        counters,
        gids,
    }))
}

impl ServiceServer {
    pub(crate) fn new(
        name: TopicName,
        counters: Arc<ServiceCounters>,
        node: Arc<NodeToken>,
    ) -> Self {
        ServiceServer {
            name,
            counters,
            _node: node,
        }
    }
}

/// A reply waiting for its client's reply reader to be matched.
struct Waiting<R> {
    reply: R,
    identity: SampleIdentity,
    /// The client's reply reader, when the request named it.
    reader: Option<GUID>,
    since: Instant,
}

struct ServerPump<S: Service> {
    requests: DataReader<Payload, RawCdr>,
    replies: DataWriter<S::Response, RosCdr>,
    handler: Handler<S>,
    /// Each request is decoded into this one.
    request: S::Request,
    /// Replies sent through a [`Reply`], not yet taken into `waiting`.
    late: Arc<Late<S>>,
    waiting: VecDeque<Waiting<S::Response>>,
    /// The remote readers the reply writer is matched with.
    matched: Vec<GUID>,
    counters: Arc<ServiceCounters>,
    gids: Vec<[u8; 16]>,
}

impl<S: Service> ServerPump<S> {
    /// The replies answered through a [`Reply`] since, in the order they were sent.
    fn take_late(&mut self) {
        let late = std::mem::take(
            &mut *self
                .late
                .replies
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        self.waiting.extend(late);
    }

    fn follow_matches(&mut self) {
        while let Some(status) = self.replies.try_recv_status() {
            if let DataWriterStatus::PublicationMatched {
                current, reader, ..
            } = status
            {
                if current.count_change() > 0 {
                    self.matched.push(reader);
                } else {
                    self.matched.retain(|r| *r != reader);
                }
            }
        }
    }

    /// Sends the replies whose readers are matched, or that waited long enough, in order.
    fn send_ready(&mut self) {
        while let Some(front) = self.waiting.front() {
            let ready = match front.reader {
                Some(reader) => {
                    self.matched.contains(&reader) || front.since.elapsed() > MATCH_WAIT
                }
                None => true,
            };
            if !ready {
                break;
            }
            let Some(waiting) = self.waiting.pop_front() else {
                break;
            };
            let options = WriteOptionsBuilder::new()
                .related_sample_identity(waiting.identity)
                .build();
            match self.replies.write_with_options(waiting.reply, options) {
                Ok(_) => self.counters.served.fetch_add(1, Ordering::Relaxed),
                Err(_) => self.counters.failed.fetch_add(1, Ordering::Relaxed),
            };
        }
    }
}

impl<S: Service> Pump for ServerPump<S> {
    fn register(&mut self, poll: &Poll, token: Token) -> std::io::Result<()> {
        poll.registry()
            .register(&mut self.requests, token, Interest::READABLE)
    }

    fn deregister(&mut self, poll: &Poll) {
        let _ = poll.registry().deregister(&mut self.requests);
    }

    fn pump(&mut self) {
        self.follow_matches();
        loop {
            let sample = match self.requests.take_next_sample() {
                Ok(Some(sample)) => sample,
                Ok(None) => break,
                Err(_) => {
                    self.counters.failed.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            };
            let info = sample.sample_info();
            let mut identity = info.sample_identity();
            // A Fast DDS client names its reply reader: the reply goes to it (rmw_fastrtps).
            let reader = info
                .related_sample_identity()
                .map(|related| related.writer_guid)
                .filter(|guid| *guid != GUID::GUID_UNKNOWN);
            if let Some(reader) = reader {
                identity.writer_guid = reader;
            }
            if sample.value().decode_into(&mut self.request).is_err() {
                self.counters.failed.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let reply = Reply {
                identity,
                reader,
                late: self.late.clone(),
            };
            (self.handler)(&self.request, reply);
        }
        self.take_late();
        self.send_ready();
    }

    fn pending(&self) -> bool {
        !self
            .late
            .replies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    fn housekeeping(&mut self) {
        self.follow_matches();
        self.take_late();
        self.send_ready();
    }

    fn abandoned(&self) -> bool {
        Arc::strong_count(&self.counters) == 1
    }

    fn gids(&self) -> &[[u8; 16]] {
        &self.gids
    }
}
