//! Errors of this crate: what failed and why, the DDS stack's own error as the source.

/// A failure setting up or running a participant.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// A DDS call failed.
    #[error("{what}: {source}")]
    Dds {
        /// What was being done.
        what: String,
        /// The DDS stack's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A domain id past ROS 2's range.
    #[error("domain id {0} is out of range: ROS 2 uses 0 to 232")]
    DomainId(u16),
    /// A port the domain needs is held by a socket that does not share it.
    #[error(
        "cannot join DDS domain {domain}: UDP port {port} ({what}) is taken by a socket that does \
         not share it: {source}"
    )]
    PortTaken {
        /// The domain.
        domain: u16,
        /// The port.
        port: u16,
        /// What the domain uses it for.
        what: &'static str,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// No route for discovery: no network interface is up, not even the loopback.
    #[error(
        "cannot join DDS domain {domain}: discovery can reach no one, not even this host's other \
         processes ({source}): bring up a network interface, or at least the loopback \
         (`ip link set lo up`)"
    )]
    NoRoute {
        /// The domain.
        domain: u16,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A ROS environment variable that says nothing ROS understands.
    #[error("{0}")]
    Environment(String),
    /// The event poll could not be made.
    #[error("cannot set up the DDS thread's event poll: {0}")]
    Poll(#[source] std::io::Error),
    /// The thread could not be started.
    #[error("cannot start the DDS thread: {0}")]
    Thread(#[source] std::io::Error),
    /// A node's namespace or name ROS does not take.
    #[error(transparent)]
    NodeName(#[from] ros2_msg::NodeNameError),
    /// A name that makes no valid ROS name.
    #[error("`{name}` makes no valid ROS name: {source}")]
    Name {
        /// The name given.
        name: String,
        /// Why.
        #[source]
        source: ros2_msg::TopicNameError,
    },
    /// The participant's thread did not answer a request: it has stopped.
    #[error("the DDS participant's thread has stopped")]
    Stopped,
}

impl WireError {
    pub(crate) fn dds(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        WireError::Dds {
            what: what.into(),
            source: Box::new(source),
        }
    }
}
