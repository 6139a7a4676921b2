//! The `ros2msg` schema of a message type as rosbag2 stores it: the type's own `.msg` text, then
//! every type it uses, each once, after a line of 80 `=` and `MSG: package/Name`. Generated from
//! the type's [`TypeDescription`] (the one its REP-2011 hash comes from), never typed per message.
//!
//! Nested types are written fully qualified (`std_msgs/Header header`), which every `.msg`
//! parser accepts; the `.msg` files' comments are not ours to reproduce.

use std::fmt::Write as _;

use ros2_msg::message::type_id;
use ros2_msg::{FieldType, TypeDescription};

const SEPARATOR: &str =
    "================================================================================\n";

/// The schema text of `description` and the types it depends on, depth first.
pub fn ros2msg(description: &'static TypeDescription) -> String {
    let mut order: Vec<&'static TypeDescription> = Vec::new();
    collect(description, &mut order);
    let mut text = definition(description);
    for dependency in order.iter().skip(1) {
        text.push_str(SEPARATOR);
        let _ = writeln!(text, "MSG: {}/{}", dependency.package, dependency.name);
        text.push_str(&definition(dependency));
    }
    text
}

/// `description` and, once each, every type it nests, in first-use order.
fn collect(description: &'static TypeDescription, order: &mut Vec<&'static TypeDescription>) {
    if order
        .iter()
        .any(|d| std::ptr::eq(*d, description) || *d == description)
    {
        return;
    }
    order.push(description);
    for field in description.fields {
        if let Some(nested) = field.field_type.nested {
            collect(nested, order);
        }
    }
}

/// One type's fields, a line each: `float64[] position`.
fn definition(description: &TypeDescription) -> String {
    let mut text = String::new();
    for field in description.fields {
        let _ = writeln!(text, "{} {}", type_name(&field.field_type), field.name);
    }
    text
}

/// `float64`, `string[]`, `float64[9]`, `geometry_msgs/Vector3`.
fn type_name(field: &FieldType) -> String {
    let (element, suffix) = match field.type_id {
        id if id >= type_id::UNBOUNDED_SEQUENCE_OFFSET => {
            (id - type_id::UNBOUNDED_SEQUENCE_OFFSET, "[]".to_string())
        }
        id if id >= type_id::ARRAY_OFFSET => {
            (id - type_id::ARRAY_OFFSET, format!("[{}]", field.capacity))
        }
        id => (id, String::new()),
    };
    let base = match (element, field.nested) {
        (type_id::NESTED_TYPE, Some(nested)) => format!("{}/{}", nested.package, nested.name),
        (id, _) => primitive(id).to_string(),
    };
    base + &suffix
}

fn primitive(id: u8) -> &'static str {
    match id {
        type_id::INT8 => "int8",
        type_id::UINT8 => "uint8",
        type_id::INT16 => "int16",
        type_id::UINT16 => "uint16",
        type_id::INT32 => "int32",
        type_id::UINT32 => "uint32",
        type_id::INT64 => "int64",
        type_id::UINT64 => "uint64",
        type_id::FLOAT => "float32",
        type_id::DOUBLE => "float64",
        type_id::BOOLEAN => "bool",
        type_id::STRING => "string",
        type_id::BYTE => "byte",
        // Every id ros2-msg maps a Rust type to is above; a new one shows up in the test.
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ros2_msg::Message;
    use ros2_msg::msg::{Imu, JointState, TFMessage};

    #[test]
    fn joint_state_is_its_msg_file_then_header_then_time() {
        let expected = "\
std_msgs/Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
";
        assert_eq!(ros2msg(JointState::DESCRIPTION), expected);
    }

    #[test]
    fn a_type_used_twice_is_defined_once_and_arrays_keep_their_length() {
        let tf = ros2msg(TFMessage::DESCRIPTION);
        assert!(
            tf.starts_with("geometry_msgs/TransformStamped[] transforms\n"),
            "{tf}"
        );
        assert_eq!(
            tf.matches("MSG: geometry_msgs/Vector3\n").count(),
            1,
            "{tf}"
        );
        let imu = ros2msg(Imu::DESCRIPTION);
        assert!(
            imu.contains("\nfloat64[9] orientation_covariance\n"),
            "{imu}"
        );
        assert_eq!(
            imu.matches("MSG: geometry_msgs/Vector3\n").count(),
            1,
            "{imu}"
        );
        assert!(!imu.contains("unknown"), "{imu}");
    }

    #[test]
    fn a_diagnostic_status_level_is_a_byte() {
        let text = ros2msg(ros2_msg::msg::DiagnosticArray::DESCRIPTION);
        assert!(
            text.contains("MSG: diagnostic_msgs/DiagnosticStatus\nbyte level\n"),
            "{text}"
        );
        assert!(!text.contains("unknown"), "{text}");
    }
}
