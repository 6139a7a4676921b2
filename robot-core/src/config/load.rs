//! Reading a configuration file, in four stages that each report every error they find:
//!
//! 1. YAML text → a YAML value (syntax errors keep their line and column);
//! 2. YAML value → JSON value (only what JSON can say: no tags, finite numbers, scalar keys);
//! 3. JSON Schema validation against [`emit::config_schema`], the schema that is checked in;
//! 4. deserialization into [`RuntimeConfig`], then the checks against the robot (`check.rs`).
//!
//! A stage runs only when the one before it passed, so one mistake is reported once. Field paths
//! are dotted (`joints.left_knee_pitch.enabled`); a key that is not a plain name is quoted.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::Value as Json;
use serde_yaml_ng::Value as Yaml;

use super::RuntimeConfig;
use super::check;
use crate::emit;
use crate::model::Robot;

/// One problem in a configuration file: the field and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path of the field (`joints.left_knee_pitch.enabled`); empty for the whole file.
    pub path: String,
    /// What is wrong and what was expected, e.g. `expected a boolean, found "yes"`.
    pub message: String,
}

impl FieldError {
    /// An error at `path` (empty for the whole file).
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A configuration file that cannot be used, with every error found in it. Displayed one error a
/// line, each as `FILE: FIELD: MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines(.file, .errors))]
pub struct ConfigError {
    /// The file, as it was named to [`load`] or [`parse`].
    pub file: PathBuf,
    /// The errors, at least one.
    pub errors: Vec<FieldError>,
}

fn lines(file: &Path, errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(|error| format!("{}: {error}", file.display()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads, validates and checks the configuration file at `path` for `robot`.
pub fn load(path: &Path, robot: &Robot) -> Result<RuntimeConfig, ConfigError> {
    let text = read(path)?;
    parse(&text, path, robot)
}

/// Validates and checks configuration `text` for `robot`; `source_name` names it in errors.
pub fn parse(
    text: &str,
    source_name: impl AsRef<Path>,
    robot: &Robot,
) -> Result<RuntimeConfig, ConfigError> {
    let fail = |errors| ConfigError {
        file: source_name.as_ref().to_path_buf(),
        errors,
    };
    let json = document(text).map_err(fail)?;
    let errors = schema_errors(&json);
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    let config: RuntimeConfig = serde_json::from_value(json).map_err(|e| {
        // The schema is derived from these types, so this would be a bug in the derivation.
        fail(vec![FieldError::new(
            "",
            format!("accepted by the schema but not by the configuration types: {e}"),
        )])
    })?;
    let errors = check::against(&config, robot);
    if errors.is_empty() {
        Ok(config)
    } else {
        Err(fail(errors))
    }
}

/// The `robot:` field of configuration `text`, read without validating anything else: how a tool
/// finds the robot to [`parse`] the file against. `source_name` names the text in errors.
pub fn peek_robot(text: &str, source_name: impl AsRef<Path>) -> Result<String, ConfigError> {
    let fail = |error| ConfigError {
        file: source_name.as_ref().to_path_buf(),
        errors: vec![error],
    };
    let json = document(text).map_err(|errors| ConfigError {
        file: source_name.as_ref().to_path_buf(),
        errors,
    })?;
    match json.get("robot") {
        Some(Json::String(name)) => Ok(name.clone()),
        Some(other) => Err(fail(FieldError::new(
            "robot",
            format!("expected a string, found {}", found(other)),
        ))),
        None if json.is_object() => {
            Err(fail(FieldError::new("robot", "required field is missing")))
        }
        None => Err(fail(FieldError::new(
            "",
            format!("expected a mapping, found {}", found(&json)),
        ))),
    }
}

/// The `robot:` field of the configuration file at `path`, as [`peek_robot`] reads it.
pub fn robot_name_of(path: &Path) -> Result<String, ConfigError> {
    let text = read(path)?;
    peek_robot(&text, path)
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: path.to_path_buf(),
        errors: vec![FieldError::new("", format!("cannot read the file: {e}"))],
    })
}

/// Stages 1 and 2: the text as a JSON value.
fn document(text: &str) -> Result<Json, Vec<FieldError>> {
    let mut yaml: Yaml = serde_yaml_ng::from_str(text).map_err(|e| vec![yaml_error(&e)])?;
    yaml.apply_merge().map_err(|e| vec![yaml_error(&e)])?;
    let mut errors = Vec::new();
    let json = to_json(&yaml, &mut Vec::new(), &mut errors);
    if errors.is_empty() {
        Ok(json)
    } else {
        Err(errors)
    }
}

fn yaml_error(error: &serde_yaml_ng::Error) -> FieldError {
    let mut message = format!("invalid YAML: {error}");
    // Most messages carry their position; those at the very start of the text omit it.
    if let Some(at) = error.location()
        && !message.contains(" at line ")
    {
        message.push_str(&format!(" at line {} column {}", at.line(), at.column()));
    }
    FieldError::new("", message)
}

fn to_json(yaml: &Yaml, path: &mut Vec<String>, errors: &mut Vec<FieldError>) -> Json {
    match yaml {
        Yaml::Null => Json::Null,
        Yaml::Bool(b) => Json::Bool(*b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                Json::from(i)
            } else if let Some(u) = n.as_u64() {
                Json::from(u)
            } else if let Some(number) = n.as_f64().and_then(serde_json::Number::from_f64) {
                Json::Number(number)
            } else {
                errors.push(FieldError::new(
                    field_path(path),
                    format!("expected a finite number, found {n}"),
                ));
                Json::Null
            }
        }
        Yaml::String(s) => Json::String(s.clone()),
        Yaml::Sequence(items) => Json::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    path.push(i.to_string());
                    let json = to_json(item, path, errors);
                    path.pop();
                    json
                })
                .collect(),
        ),
        Yaml::Mapping(mapping) => {
            let mut object = serde_json::Map::new();
            for (key, value) in mapping {
                let key = match key {
                    Yaml::String(s) => s.clone(),
                    Yaml::Number(n) => n.to_string(),
                    Yaml::Bool(b) => b.to_string(),
                    other => {
                        errors.push(FieldError::new(
                            field_path(path),
                            format!("expected names as keys, found {}", yaml_kind(other)),
                        ));
                        continue;
                    }
                };
                path.push(key);
                let json = to_json(value, path, errors);
                let Some(key) = path.pop() else { continue };
                if object.insert(key, json).is_some() {
                    // `1:` and `"1":` are different YAML keys but the same name.
                    errors.push(FieldError::new(field_path(path), "duplicate key"));
                }
            }
            Json::Object(object)
        }
        Yaml::Tagged(tagged) => {
            errors.push(FieldError::new(
                field_path(path),
                format!("YAML tags are not supported, found `{}`", tagged.tag),
            ));
            Json::Null
        }
    }
}

fn yaml_kind(yaml: &Yaml) -> &'static str {
    match yaml {
        Yaml::Null => "null",
        Yaml::Bool(_) => "a boolean",
        Yaml::Number(_) => "a number",
        Yaml::String(_) => "a string",
        Yaml::Sequence(_) => "a list",
        Yaml::Mapping(_) => "a mapping",
        Yaml::Tagged(_) => "a tagged value",
    }
}

/// The dotted form of a field path: `joints.left_knee_pitch.enabled`. A key that is not a plain
/// name (letters, digits, `_`, `-`) is written as a JSON string: `buses."left leg"`.
pub(super) fn field_path<S: AsRef<str>>(segments: &[S]) -> String {
    segments
        .iter()
        .map(|segment| {
            let segment = segment.as_ref();
            let plain = !segment.is_empty()
                && segment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if plain {
                segment.to_string()
            } else {
                Json::String(segment.to_string()).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// How a value the user wrote is shown after "found": scalars as JSON (`"yes"`, `3`, `null`),
/// containers by their kind.
pub(super) fn found(value: &Json) -> String {
    match value {
        Json::Array(_) => "a list".to_string(),
        Json::Object(_) => "a mapping".to_string(),
        scalar => scalar.to_string(),
    }
}

/// `a`, `a or b`, `one of a, b, c`.
pub(super) fn one_of<S: AsRef<str>>(options: &[S]) -> String {
    let options: Vec<&str> = options.iter().map(AsRef::as_ref).collect();
    match options.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.to_string(),
        [a, b] => format!("{a} or {b}"),
        many => format!("one of {}", many.join(", ")),
    }
}

/// The config schema, compiled once.
struct Schema {
    json: Json,
    validator: Validator,
}

fn schema() -> Result<&'static Schema, &'static str> {
    static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let json: Json = serde_json::from_str(&emit::config_schema())
                .map_err(|e| format!("the configuration schema is not JSON: {e}"))?;
            let validator = jsonschema::validator_for(&json)
                .map_err(|e| format!("the configuration schema does not compile: {e}"))?;
            Ok(Schema { json, validator })
        })
        .as_ref()
        .map_err(String::as_str)
}

/// Stage 3: every schema error, in readable terms.
fn schema_errors(json: &Json) -> Vec<FieldError> {
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
        // An enum of documented unit variants is a `oneOf` of `const`s (`backend`).
        ValidationErrorKind::OneOfNotValid { context } => match branch_constants(context) {
            Some(options) => at(format!(
                "expected {}, found {}",
                one_of(&options),
                found(value)
            )),
            None => at(error.to_string()),
        },
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

/// When every branch of a failed `oneOf` is a single `const`, the constants.
fn branch_constants(context: &[Vec<ValidationError<'static>>]) -> Option<Vec<String>> {
    context
        .iter()
        .map(|branch| match branch.as_slice() {
            [only] => match only.kind() {
                ValidationErrorKind::Constant { expected_value } => Some(bare(expected_value)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
