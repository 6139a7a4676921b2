//! REP-2011 type hashes (`RIHS01_<sha256>`), computed from the message descriptions, never
//! pasted: rosidl's `rosidl_generator_type_description` (Jazzy) hashes the JSON of the type's
//! description and of every type it references (transitively, sorted by name), default values
//! left out, written by Python's `json.dumps` with separators `", "` and `": "` and keys in
//! this order. That JSON is rebuilt here byte for byte.
//!
//! Jazzy and later RMWs announce the hash in each endpoint's USER_DATA (`typehash=RIHS01_…;`,
//! `rmw_dds_common`); Humble's announce nothing and check nothing. See
//! `docs/ros2-topic-backend.md` for what this crate sends.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::message::{Message, TypeDescription};

/// A REP-2011 type hash, version 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeHash(pub [u8; 32]);

impl TypeHash {
    /// The hash of message type `M`.
    pub fn of<M: Message>() -> TypeHash {
        Self::of_description(M::DESCRIPTION)
    }

    /// The hash of a described type.
    pub fn of_description(description: &'static TypeDescription) -> TypeHash {
        TypeHash(Sha256::digest(hashed_json(description).as_bytes()).into())
    }

    /// `typehash=RIHS01_…;`, as Jazzy's RMWs put it into an endpoint's USER_DATA.
    pub fn user_data(&self) -> String {
        format!("typehash={self};")
    }
}

impl std::fmt::Display for TypeHash {
    /// `RIHS01_` and 64 lowercase hex digits.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RIHS01_")?;
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// The JSON rosidl hashes: `{"type_description": …, "referenced_type_descriptions": […]}`.
pub fn hashed_json(description: &'static TypeDescription) -> String {
    let mut referenced = BTreeMap::new();
    collect_references(description, &mut referenced);
    let mut json = String::from("{\"type_description\": ");
    write_individual(&mut json, description);
    json.push_str(", \"referenced_type_descriptions\": [");
    for (index, nested) in referenced.values().enumerate() {
        if index > 0 {
            json.push_str(", ");
        }
        write_individual(&mut json, nested);
    }
    json.push_str("]}");
    json
}

/// Every type `description` refers to, directly or not, by `package/msg/Name`.
fn collect_references(
    description: &'static TypeDescription,
    into: &mut BTreeMap<String, &'static TypeDescription>,
) {
    for field in description.fields {
        if let Some(nested) = field.field_type.nested
            && into.insert(nested.type_name(), nested).is_none()
        {
            collect_references(nested, into);
        }
    }
}

fn write_individual(json: &mut String, description: &TypeDescription) {
    json.push_str("{\"type_name\": ");
    write_string(json, &description.type_name());
    json.push_str(", \"fields\": [");
    for (index, field) in description.fields.iter().enumerate() {
        if index > 0 {
            json.push_str(", ");
        }
        let t = field.field_type;
        json.push_str("{\"name\": ");
        write_string(json, field.name);
        // Writing into a String cannot fail.
        let _ = write!(
            json,
            ", \"type\": {{\"type_id\": {}, \"capacity\": {}, \"string_capacity\": {}, \
             \"nested_type_name\": ",
            t.type_id, t.capacity, t.string_capacity
        );
        write_string(json, &t.nested.map(|n| n.type_name()).unwrap_or_default());
        json.push_str("}}");
    }
    json.push_str("]}");
}

/// A JSON string as `json.dumps(ensure_ascii=True)` writes it.
fn write_string(json: &mut String, text: &str) {
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => json.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(json, "\\u{unit:04x}");
                }
            }
        }
    }
    json.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{Header, Imu, JointState, Quaternion, Time, Vector3};

    /// The hashes rosidl_generator_c writes into the generated `*__description.c` of each type
    /// (ROS 2 Jazzy's builtin_interfaces, std_msgs, geometry_msgs and sensor_msgs), as the
    /// `EXPECTED_HASH` of types that reference them and in their own `get_type_hash`.
    const PUBLISHED: [(&str, &str); 6] = [
        (
            "builtin_interfaces/msg/Time",
            "RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
        ),
        (
            "std_msgs/msg/Header",
            "RIHS01_f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01",
        ),
        (
            "geometry_msgs/msg/Quaternion",
            "RIHS01_8a765f66778c8ff7c8ab94afcc590a2ed5325a1d9a076ffff38fbce36f458684",
        ),
        (
            "geometry_msgs/msg/Vector3",
            "RIHS01_cc12fe83e4c02719f1ce8070bfd14aecd40f75a96696a67a2a1f37f7dbb0765d",
        ),
        (
            "sensor_msgs/msg/JointState",
            "RIHS01_a13ee3a330e346c9d87b5aa18d24e11690752bd33a0350f11c5882bc9179260e",
        ),
        (
            "sensor_msgs/msg/Imu",
            "RIHS01_7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b",
        ),
    ];

    #[test]
    fn computed_hashes_are_the_ones_ros_publishes() {
        let computed = [
            (Time::DESCRIPTION, TypeHash::of::<Time>()),
            (Header::DESCRIPTION, TypeHash::of::<Header>()),
            (Quaternion::DESCRIPTION, TypeHash::of::<Quaternion>()),
            (Vector3::DESCRIPTION, TypeHash::of::<Vector3>()),
            (JointState::DESCRIPTION, TypeHash::of::<JointState>()),
            (Imu::DESCRIPTION, TypeHash::of::<Imu>()),
        ];
        for ((description, hash), (name, published)) in computed.iter().zip(PUBLISHED) {
            assert_eq!(description.type_name(), name);
            assert_eq!(hash.to_string(), published, "{name}");
        }
    }

    #[test]
    fn the_hashed_json_is_rosidls() {
        assert_eq!(
            hashed_json(Header::DESCRIPTION),
            "{\"type_description\": {\"type_name\": \"std_msgs/msg/Header\", \"fields\": [\
             {\"name\": \"stamp\", \"type\": {\"type_id\": 1, \"capacity\": 0, \"string_capacity\": 0, \
             \"nested_type_name\": \"builtin_interfaces/msg/Time\"}}, {\"name\": \"frame_id\", \"type\": \
             {\"type_id\": 17, \"capacity\": 0, \"string_capacity\": 0, \"nested_type_name\": \"\"}}]}, \
             \"referenced_type_descriptions\": [{\"type_name\": \"builtin_interfaces/msg/Time\", \"fields\": \
             [{\"name\": \"sec\", \"type\": {\"type_id\": 6, \"capacity\": 0, \"string_capacity\": 0, \
             \"nested_type_name\": \"\"}}, {\"name\": \"nanosec\", \"type\": {\"type_id\": 7, \"capacity\": 0, \
             \"string_capacity\": 0, \"nested_type_name\": \"\"}}]}]}"
        );
        assert_eq!(
            TypeHash::of::<Time>().user_data(),
            "typehash=RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197;"
        );
    }
}

#[cfg(test)]
mod graph_type_tests {
    use super::*;
    use crate::msg::{StringMessage, TFMessage, Transform, TransformStamped};

    /// The hashes rosidl_generator_c (Jazzy) writes into generated code: each type's
    /// `<type>__TYPE_HASH` in its `*__struct.h`, and the `<type>__EXPECTED_HASH` of the types
    /// that reference it in their `*__description.c`. (micro-ROS's `TYPE_VERSION_HASH__INIT`,
    /// from a later rosidl, is a different value and not what Jazzy's RMWs announce.)
    const PUBLISHED: [(&str, &str); 4] = [
        (
            "std_msgs/msg/String",
            "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
        ),
        (
            "geometry_msgs/msg/Transform",
            "RIHS01_beb83fbe698636351461f6f35d1abb20010c43d55374d81bd041f1ba2581fddc",
        ),
        (
            "geometry_msgs/msg/TransformStamped",
            "RIHS01_0a241f87d04668d94099cbb5ba11691d5ad32c2f29682e4eb5653424bd275206",
        ),
        (
            "tf2_msgs/msg/TFMessage",
            "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
        ),
    ];

    #[test]
    fn the_graph_types_hash_as_ros_publishes_them() {
        let computed = [
            (StringMessage::DESCRIPTION, TypeHash::of::<StringMessage>()),
            (Transform::DESCRIPTION, TypeHash::of::<Transform>()),
            (
                TransformStamped::DESCRIPTION,
                TypeHash::of::<TransformStamped>(),
            ),
            (TFMessage::DESCRIPTION, TypeHash::of::<TFMessage>()),
        ];
        for ((description, hash), (name, published)) in computed.iter().zip(PUBLISHED) {
            assert_eq!(description.type_name(), name);
            assert_eq!(hash.to_string(), published, "{name}");
        }
        assert_eq!(
            StringMessage::DESCRIPTION.dds_type_name(),
            "std_msgs::msg::dds_::String_"
        );
    }
}

#[cfg(test)]
mod discovery_type_tests {
    use super::*;
    use crate::msg::{Clock, Gid, NodeEntitiesInfo, ParticipantEntitiesInfo};

    /// The hashes ROS 2 Jazzy's rmw_dds_common 3.1.0 ships in `share/rmw_dds_common/msg/*.json`
    /// (`type_hashes`), as in the PyPI wheel `ros-rmw-dds-common`: a `char[16]` (uint8 array)
    /// and two `string<=256` (a bounded string with its bound in the JSON) among them.
    const PUBLISHED: [(&str, &str); 4] = [
        (
            "rmw_dds_common/msg/Gid",
            "RIHS01_ab6f21cfbb0a6dbb837161e1110c2051a2850ed9f9c53944d7115d9bcebedf71",
        ),
        (
            "rmw_dds_common/msg/NodeEntitiesInfo",
            "RIHS01_8ffef65ee2d088c63b1e8fcd31e800ba9fc8dbe0ee15ca60d1676de5218087a7",
        ),
        (
            "rmw_dds_common/msg/ParticipantEntitiesInfo",
            "RIHS01_91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e",
        ),
        // rosgraph_msgs 2.0.3's `share/rosgraph_msgs/msg/Clock.json`.
        (
            "rosgraph_msgs/msg/Clock",
            "RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564",
        ),
    ];

    #[test]
    fn the_discovery_types_hash_as_rmw_dds_common_ships_them() {
        let computed = [
            (Gid::DESCRIPTION, TypeHash::of::<Gid>()),
            (
                NodeEntitiesInfo::DESCRIPTION,
                TypeHash::of::<NodeEntitiesInfo>(),
            ),
            (
                ParticipantEntitiesInfo::DESCRIPTION,
                TypeHash::of::<ParticipantEntitiesInfo>(),
            ),
            (Clock::DESCRIPTION, TypeHash::of::<Clock>()),
        ];
        for ((description, hash), (name, published)) in computed.iter().zip(PUBLISHED) {
            assert_eq!(description.type_name(), name);
            assert_eq!(hash.to_string(), published, "{name}");
        }
    }
}

#[cfg(test)]
mod parameter_type_tests {
    use super::*;
    use crate::Service;
    use crate::parameters::{
        DescribeParameters, GetParameterTypes, GetParameters, ListParameters, ParameterEvent,
        SetParameters, SetParametersAtomically,
    };

    /// The hashes ROS 2 Jazzy's rcl_interfaces 2.0.3 ships in `share/rcl_interfaces/srv/*.json`
    /// and `msg/ParameterEvent.json` (`type_hashes`, as in the PyPI wheel
    /// `ros-rcl-interfaces`): a service's is the hash of the service type, whose fields are its
    /// request, response and event (bounded sequences, `[<=1]`, among them).
    const PUBLISHED: [(&str, &str); 7] = [
        (
            "rcl_interfaces/srv/GetParameters",
            "RIHS01_bf9803d5c74cf989a5de3e0c2e99444599a627c7ff75f97b8c05b01003675cbc",
        ),
        (
            "rcl_interfaces/srv/GetParameterTypes",
            "RIHS01_da199c878688b3e530bdfe3ca8f74cb9fa0c303101e980a9e8f260e25e1c80ca",
        ),
        (
            "rcl_interfaces/srv/ListParameters",
            "RIHS01_3e6062bfbb27bfb8730d4cef2558221f51a11646d78e7bb30a1e83afac3aad9d",
        ),
        (
            "rcl_interfaces/srv/DescribeParameters",
            "RIHS01_845b484d71eb0673dae682f2e3ba3c4851a65a3dcfb97bddd82c5b57e91e4cff",
        ),
        (
            "rcl_interfaces/srv/SetParameters",
            "RIHS01_56eed9a67e169f9cb6c1f987bc88f868c14a8fc9f743a263bc734c154015d7e0",
        ),
        (
            "rcl_interfaces/srv/SetParametersAtomically",
            "RIHS01_0e192ef259c07fc3c07a13191d27002222e65e00ccec653ca05e856f79285fcd",
        ),
        (
            "rcl_interfaces/msg/ParameterEvent",
            "RIHS01_043e627780fcad87a22d225bc2a037361dba713fca6a6b9f4b869a5aa0393204",
        ),
    ];

    #[test]
    fn the_parameter_services_hash_as_rcl_interfaces_ships_them() {
        let computed = [
            GetParameters::DESCRIPTION,
            GetParameterTypes::DESCRIPTION,
            ListParameters::DESCRIPTION,
            DescribeParameters::DESCRIPTION,
            SetParameters::DESCRIPTION,
            SetParametersAtomically::DESCRIPTION,
            ParameterEvent::DESCRIPTION,
        ];
        for (description, (name, published)) in computed.iter().zip(PUBLISHED) {
            assert_eq!(description.type_name(), name);
            let hash = TypeHash::of_description(description);
            assert_eq!(hash.to_string(), published, "{name}");
        }
    }
}
