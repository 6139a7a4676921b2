//! What is wrong with a configuration file: each problem at its field ([`FieldError`]), all of a
//! file's together ([`ConfigError`]), and how the stages of the loader name fields and values.
//! Every stage (`yaml.rs`, `duplicate.rs`, `schema.rs`, `check.rs`) and the loader
//! (`load.rs`) use this file, which uses none of them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

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
    /// The file, as it was named to [`load`](super::load) or [`parse`](super::parse).
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
