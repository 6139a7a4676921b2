//! A node of the process, and the endpoints made on it.

use std::sync::Arc;

use ros2_msg::{Message, NodeName, QosProfile, Service, TopicName};

use crate::client::ServiceClient;
use crate::error::WireError;
use crate::nodes::NodeToken;
use crate::participant::Participant;
use crate::service::{Reply, ServiceCounters, ServiceServer};
use crate::topics::{Publisher, Subscription};

/// A node of this process: a name in a namespace that ROS tools list (`ros2 node list`), and
/// the endpoints made on it, which `ros2 topic info -v` names it for. A handle: clone it
/// freely; it stays announced while a clone or one of its endpoints lives.
#[derive(Clone)]
pub struct Node {
    pub(crate) participant: Participant,
    pub(crate) token: Arc<NodeToken>,
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
