//! A ROS 2 parameters file (`controllers.yaml`), read as rcl's `rcl_yaml_param_parser` reads
//! it: top-level keys are node names, each with a `ros__parameters` map; nested maps become
//! dotted names (`constraints: {goal_time: 0.5}` is `constraints.goal_time`); a scalar is a
//! bool, an integer, a double or a string, a sequence an array of one of those.

use ros2_msg::parameters::{ParameterValue, parameter_type};
use serde_yaml_ng::Value;

use crate::parameters::{bool_value, double_value, integer_value, string_value};

/// Why a parameters file cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParamsFileError {
    /// Not YAML.
    #[error("the parameters file is not YAML: {0}")]
    Yaml(#[from] serde_yaml_ng::Error),
    /// YAML that is not a parameters file.
    #[error("the parameters file's `{key}` {problem}")]
    Shape {
        /// Where (`left_leg_trajectory_controller.ros__parameters.joints`).
        key: String,
        /// What is wrong.
        problem: &'static str,
    },
}

/// One node's parameters in a file.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeParameters {
    /// The node's name as the file gives it (`controller_manager`).
    pub node: String,
    /// Its parameters, in the file's order.
    pub parameters: Vec<(String, ParameterValue)>,
}

/// Every node's parameters in `yaml`.
pub fn read(yaml: &str) -> Result<Vec<NodeParameters>, ParamsFileError> {
    let document: Value = serde_yaml_ng::from_str(yaml)?;
    let shape = |key: &str, problem| ParamsFileError::Shape {
        key: key.to_string(),
        problem,
    };
    let Value::Mapping(nodes) = document else {
        return Err(shape("", "is not a map of node names"));
    };
    let mut out = Vec::new();
    for (node, section) in nodes {
        let node = key_text(&node).ok_or_else(|| shape("", "has a node name that is not text"))?;
        let parameters = match &section {
            Value::Mapping(section) => section.get("ros__parameters"),
            _ => None,
        }
        .ok_or_else(|| shape(&node, "has no `ros__parameters`"))?;
        let mut flat = Vec::new();
        flatten(
            &format!("{node}.ros__parameters"),
            "",
            parameters,
            &mut flat,
        )?;
        out.push(NodeParameters {
            node,
            parameters: flat,
        });
    }
    Ok(out)
}

fn key_text(key: &Value) -> Option<String> {
    match key {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn flatten(
    path: &str,
    prefix: &str,
    value: &Value,
    out: &mut Vec<(String, ParameterValue)>,
) -> Result<(), ParamsFileError> {
    let shape = |problem| ParamsFileError::Shape {
        key: path.to_string(),
        problem,
    };
    match value {
        Value::Mapping(map) => {
            for (key, value) in map {
                let key = key_text(key).ok_or_else(|| shape("has a key that is not text"))?;
                let name = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&format!("{path}.{key}"), &name, value, out)?;
            }
            Ok(())
        }
        value => {
            let value = parameter(value).ok_or_else(|| {
                shape("is not a bool, integer, double, string or a non-empty array of one of them")
            })?;
            out.push((prefix.to_string(), value));
            Ok(())
        }
    }
}

fn parameter(value: &Value) -> Option<ParameterValue> {
    Some(match value {
        Value::Bool(b) => bool_value(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => integer_value(i),
            None => double_value(n.as_f64()?),
        },
        Value::String(text) => string_value(text),
        Value::Sequence(items) => array(items)?,
        _ => return None,
    })
}

/// A sequence of one scalar type; rcl refuses an empty one (its type is unknown) and a mixed one.
fn array(items: &[Value]) -> Option<ParameterValue> {
    let first = parameter(items.first()?)?;
    let mut out = ParameterValue::default();
    for item in items {
        let item = parameter(item)?;
        if item.r#type != first.r#type {
            return None;
        }
        match item.r#type {
            parameter_type::BOOL => out.bool_array_value.push(item.bool_value),
            parameter_type::INTEGER => out.integer_array_value.push(item.integer_value),
            parameter_type::DOUBLE => out.double_array_value.push(item.double_value),
            parameter_type::STRING => out.string_array_value.push(item.string_value),
            _ => return None,
        }
    }
    out.r#type = match first.r#type {
        parameter_type::BOOL => parameter_type::BOOL_ARRAY,
        parameter_type::INTEGER => parameter_type::INTEGER_ARRAY,
        parameter_type::DOUBLE => parameter_type::DOUBLE_ARRAY,
        _ => parameter_type::STRING_ARRAY,
    };
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controllers_file_becomes_each_nodes_flat_parameters() {
        let yaml = "\
controller_manager:
  ros__parameters:
    update_rate: 200
    arm_controller:
      type: joint_trajectory_controller/JointTrajectoryController
arm_controller:
  ros__parameters:
    joints: [a, b]
    gains: [1.5, 2.0]
    allow_partial_joints_goal: false
    constraints:
      goal_time: 0.5
";
        let nodes = read(yaml).unwrap();
        assert_eq!(nodes[0].node, "controller_manager");
        assert_eq!(
            nodes[0].parameters[0],
            ("update_rate".into(), integer_value(200))
        );
        assert_eq!(nodes[0].parameters[1].0, "arm_controller.type");
        let arm = &nodes[1].parameters;
        assert_eq!(arm[0].1.string_array_value, ["a", "b"]);
        assert_eq!(arm[0].1.r#type, parameter_type::STRING_ARRAY);
        assert_eq!(
            arm[2],
            ("allow_partial_joints_goal".into(), bool_value(false))
        );
        assert_eq!(arm[3], ("constraints.goal_time".into(), double_value(0.5)));
        assert_eq!(arm[1].1.double_array_value, [1.5, 2.0]);
        // A mixed array is refused, as rcl refuses it (`2` is an integer), naming where.
        let error = read(&yaml.replace("[1.5, 2.0]", "[1.5, 2]")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the parameters file's `arm_controller.ros__parameters.gains` is not a bool, \
             integer, double, string or a non-empty array of one of them"
        );
    }
}
