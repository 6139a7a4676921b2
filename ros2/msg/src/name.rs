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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_rt_topics() {
        let name = TopicName::new("/robot_joint_states").unwrap();
        assert_eq!(name.dds_name(), "rt/robot_joint_states");
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
}
