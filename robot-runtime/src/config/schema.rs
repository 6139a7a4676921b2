//! Stage 3 of reading a configuration file: validation against [`super::json_schema`], the
//! schema that is checked in, with every error in readable terms.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::Value as Json;

use super::error::{FieldError, field_path, found, one_of};

/// The config schema, compiled once.
struct Schema {
    json: Json,
    validator: Validator,
}

fn schema() -> Result<&'static Schema, &'static str> {
    static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let json: Json = serde_json::from_str(&super::json_schema())
                .map_err(|e| format!("the configuration schema is not JSON: {e}"))?;
            let validator = jsonschema::validator_for(&json)
                .map_err(|e| format!("the configuration schema does not compile: {e}"))?;
            Ok(Schema { json, validator })
        })
        .as_ref()
        .map_err(String::as_str)
}

/// Stage 3: every schema error, in readable terms.
pub(super) fn schema_errors(json: &Json) -> Vec<FieldError> {
    let schema = match schema() {
        Ok(schema) => schema,
        Err(message) => return vec![FieldError::new("", message)],
    };
    schema
        .validator
        .iter_errors(json)
        .flat_map(|error| describe(&error, &schema.json))
        .collect()
}

fn describe(error: &ValidationError, schema: &Json) -> Vec<FieldError> {
    let path = pointer_segments(error.instance_path().as_str());
    let at = |message: String| vec![FieldError::new(field_path(&path), message)];
    let below = |name: &str, message: String| {
        let mut path = path.clone();
        path.push(name.to_string());
        FieldError::new(field_path(&path), message)
    };
    let value = error.instance();
    match error.kind() {
        ValidationErrorKind::Type { kind } => at(format!(
            "expected {}, found {}",
            expected_types(kind),
            found(value)
        )),
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let known = known_fields(schema, error.schema_path().as_str());
            unexpected
                .iter()
                .map(|name| {
                    let field = Json::String(name.clone());
                    below(
                        name,
                        format!(
                            "unknown field {field}; known fields are {}",
                            known.join(", ")
                        ),
                    )
                })
                .collect()
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![below(name, "required field is missing".to_string())]
        }
        ValidationErrorKind::Constant { expected_value } => at(format!(
            "expected {}, found {}",
            bare(expected_value),
            found(value)
        )),
        ValidationErrorKind::Enum { options } => {
            let options: Vec<String> = options
                .as_array()
                .map(|o| o.iter().map(bare).collect())
                .unwrap_or_default();
            at(format!(
                "expected {}, found {}",
                one_of(&options),
                found(value)
            ))
        }
        // An enum of documented unit variants is a `oneOf` of `const`s (`backend`); say which
        // values are allowed rather than how the schema is written.
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            match branch_values(context) {
                Some(options) => at(format!(
                    "expected {}, found {}",
                    one_of(&options),
                    found(value)
                )),
                None => at(error.to_string()),
            }
        }
        _ => at(error.to_string()),
    }
}

/// The segments of a JSON pointer (`/joints/left_knee_pitch` → `joints`, `left_knee_pitch`).
fn pointer_segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn expected_types(kind: &TypeKind) -> String {
    let mut types: Vec<JsonType> = match kind {
        TypeKind::Single(one) => vec![*one],
        TypeKind::Multiple(set) => set.iter().collect(),
    };
    // `a number or null` reads better than `null or a number`.
    types.sort_by_key(|t| *t == JsonType::Null);
    let names: Vec<&str> = types
        .iter()
        .map(|t| match t {
            JsonType::Null => "null",
            JsonType::Boolean => "a boolean",
            JsonType::Integer => "an integer",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "a list",
            JsonType::Object => "a mapping",
        })
        .collect();
    names.join(" or ")
}

/// A value the user could write, unquoted when it is a string: `real`.
fn bare(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The property names of the object schema whose `additionalProperties` rejected a field.
fn known_fields(schema: &Json, keyword_location: &str) -> Vec<String> {
    let object_schema = keyword_location
        .rsplit_once('/')
        .and_then(|(parent, _)| schema.pointer(parent));
    object_schema
        .and_then(|s| s.get("properties"))
        .and_then(Json::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// When every branch of a failed `oneOf` or `anyOf` allows a fixed set of values (a `const` or
/// an `enum`), those values, in the schema's order. A branch can fail on its `type` too (`5` is
/// not a string) or only there: its `const` is looked up in the branch's errors either way,
/// since each branch is checked in full.
fn branch_values(context: &[Vec<ValidationError<'static>>]) -> Option<Vec<String>> {
    let mut values = Vec::new();
    for branch in context {
        let allowed = branch.iter().find_map(|error| match error.kind() {
            ValidationErrorKind::Constant { expected_value } => Some(vec![bare(expected_value)]),
            ValidationErrorKind::Enum { options } => {
                options.as_array().map(|o| o.iter().map(bare).collect())
            }
            _ => None,
        })?;
        values.extend(allowed);
    }
    (!values.is_empty()).then_some(values)
}
