//! ROS topic names and the DDS topic names ROS 2 maps them to (`/robot_joint_states` is DDS
//! topic `rt/robot_joint_states`), validated as rcl's `rcl_validate_topic_name` and rmw's
//! `rmw_validate_full_topic_name` do, without substitutions (`~`, `{node}`): a name here is
//! resolved against the root namespace, `/`.

/// Why a string is not a ROS topic name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TopicNameError {
    /// Nothing at all.
    #[error("a topic name cannot be empty")]
    Empty,
    /// A character ROS names do not allow.
    #[error(
        "topic name `{name}` contains `{character}`: only letters, digits, `_` and `/` are allowed"
    )]
    BadCharacter {
        /// The name.
        name: String,
        /// The first character refused.
        character: char,
    },
    /// `//`, or a trailing `/`.
    #[error("topic name `{name}` has an empty part (`//` or a trailing `/`)")]
    EmptyToken {
        /// The name.
        name: String,
    },
    /// A part that starts with a digit.
    #[error("topic name `{name}` has a part starting with a digit (`{token}`)")]
    TokenStartsWithDigit {
        /// The name.
        name: String,
        /// The part.
        token: String,
    },
    /// Longer than DDS topic names may be.
    #[error("topic name `{name}` is {length} characters long; at most {MAX_LENGTH} are allowed")]
    TooLong {
        /// The name.
        name: String,
        /// Its length.
        length: usize,
    },
}

/// rmw's limit for a fully qualified topic name (DDS allows 256 with the `rt` prefix).
pub const MAX_LENGTH: usize = 247;

/// A valid, fully qualified ROS topic name (`/robot_joint_states`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TopicName(String);

impl TopicName {
    /// Validates `name`; a relative name (`robot_joint_states`) is taken in the root namespace.
    pub fn new(name: &str) -> Result<TopicName, TopicNameError> {
        if name.is_empty() {
            return Err(TopicNameError::Empty);
        }
        if let Some(character) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '/'))
        {
            return Err(TopicNameError::BadCharacter {
                name: name.to_string(),
                character,
            });
        }
        let full = if name.starts_with('/') {
            name.to_string()
        } else {
            format!("/{name}")
        };
        for token in full[1..].split('/') {
            if token.is_empty() {
                return Err(TopicNameError::EmptyToken {
                    name: name.to_string(),
                });
            }
            if token.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(TopicNameError::TokenStartsWithDigit {
                    name: name.to_string(),
                    token: token.to_string(),
                });
            }
        }
        if full.len() > MAX_LENGTH {
            return Err(TopicNameError::TooLong {
                name: name.to_string(),
                length: full.len(),
            });
        }
        Ok(TopicName(full))
    }

    /// The ROS name, `/robot_joint_states`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The DDS topic name, `rt/robot_joint_states`.
    pub fn dds_name(&self) -> String {
        format!("rt{}", self.0)
    }

    /// As a service's name, the DDS topic its requests go on:
    /// `rq/controller_manager/get_parametersRequest`.
    pub fn dds_request_name(&self) -> String {
        format!("rq{}Request", self.0)
    }

    /// As a service's name, the DDS topic its replies go on:
    /// `rr/controller_manager/get_parametersReply`.
    pub fn dds_reply_name(&self) -> String {
        format!("rr{}Reply", self.0)
    }
}

impl std::fmt::Display for TopicName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for TopicName {
    type Err = TopicNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TopicName::new(s)
    }
}

/// Why a namespace and name are not a ROS node's, as rmw's `rmw_validate_node_name` and
/// `rmw_validate_namespace` judge them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NodeNameError {
    /// A name that is empty, has a character other than a letter, digit or `_`, or starts
    /// with a digit.
    #[error(
        "node name `{0}` is not one ROS takes: letters, digits and `_`, not starting with a digit"
    )]
    Name(String),
    /// A namespace that is not `/` or an absolute name (`/robot1`, `/fleet/robot1`).
    #[error(
        "node namespace `{0}` is not one ROS takes: `/` or `/` followed by parts of letters, \
         digits and `_` (not starting with a digit) joined by `/`"
    )]
    Namespace(String),
}

/// A node's namespace and name (`/robot1`, `controller_manager`), valid.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NodeName {
    namespace: String,
    name: String,
}

/// rmw's limit for a node name.
const MAX_NODE_NAME_LENGTH: usize = 255;

impl NodeName {
    /// Validates `name` in `namespace` (`/` for the root; a relative one is taken from the root).
    pub fn new(namespace: &str, name: &str) -> Result<NodeName, NodeNameError> {
        let good_token = |token: &str| {
            !token.is_empty()
                && !token.starts_with(|c: char| c.is_ascii_digit())
                && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !good_token(name) || name.len() > MAX_NODE_NAME_LENGTH {
            return Err(NodeNameError::Name(name.to_string()));
        }
        let namespace = match namespace.trim_start_matches('/') {
            "" if namespace.len() <= 1 => "/".to_string(),
            rest if rest.split('/').all(good_token) && rest.len() < MAX_LENGTH => {
                format!("/{rest}")
            }
            _ => return Err(NodeNameError::Namespace(namespace.to_string())),
        };
        Ok(NodeName {
            namespace,
            name: name.to_string(),
        })
    }

    /// The namespace: `/`, `/robot1`.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The name: `controller_manager`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `/robot1/controller_manager`, as `ros2 node list` shows it.
    pub fn fully_qualified(&self) -> String {
        match self.namespace.as_str() {
            "/" => format!("/{}", self.name),
            namespace => format!("{namespace}/{}", self.name),
        }
    }
}

impl std::fmt::Display for NodeName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fully_qualified())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_rt_topics() {
        let name = TopicName::new("/robot_joint_states").unwrap();
        assert_eq!(name.dds_name(), "rt/robot_joint_states");
        let service = TopicName::new("/controller_manager/get_parameters").unwrap();
        assert_eq!(
            service.dds_request_name(),
            "rq/controller_manager/get_parametersRequest"
        );
        assert_eq!(
            service.dds_reply_name(),
            "rr/controller_manager/get_parametersReply"
        );
        assert_eq!(TopicName::new("imu/data").unwrap().as_str(), "/imu/data");
    }

    #[test]
    fn bad_names_say_why() {
        let message = |n: &str| TopicName::new(n).unwrap_err().to_string();
        assert_eq!(message(""), "a topic name cannot be empty");
        assert_eq!(
            message("/joint states"),
            "topic name `/joint states` contains ` `: only letters, digits, `_` and `/` are allowed"
        );
        assert_eq!(
            message("/a//b"),
            "topic name `/a//b` has an empty part (`//` or a trailing `/`)"
        );
        assert_eq!(
            message("/a/"),
            "topic name `/a/` has an empty part (`//` or a trailing `/`)"
        );
        assert_eq!(
            message("/robot/2d"),
            "topic name `/robot/2d` has a part starting with a digit (`2d`)"
        );
        assert!(message(&"a".repeat(300)).contains("at most 247"));
        assert!(message("~/x").contains("contains `~`"));
    }

    #[test]
    fn node_names_are_checked_as_rmw_checks_them() {
        let node = NodeName::new("/", "controller_manager").unwrap();
        assert_eq!(node.fully_qualified(), "/controller_manager");
        let node = NodeName::new("robot1", "joint_state_broadcaster").unwrap();
        assert_eq!(node.namespace(), "/robot1");
        assert_eq!(node.to_string(), "/robot1/joint_state_broadcaster");
        assert_eq!(NodeName::new("", "a").unwrap().namespace(), "/");
        for bad in ["", "2d", "a-b", "a/b", "a b"] {
            assert_eq!(
                NodeName::new("/", bad),
                Err(NodeNameError::Name(bad.to_string()))
            );
        }
        for bad in ["//", "/a/", "/a//b", "/2d", "/a-b"] {
            assert_eq!(
                NodeName::new(bad, "n"),
                Err(NodeNameError::Namespace(bad.to_string()))
            );
        }
    }
}
