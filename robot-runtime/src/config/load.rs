//! Reading a configuration file, in four stages that each report every error they find:
//!
//! 1. YAML text → a YAML value (syntax errors keep their line and column; `yaml.rs`);
//! 2. YAML value → JSON value (only what JSON can say: no tags, finite numbers, scalar keys);
//! 3. JSON Schema validation against [`super::json_schema`], the schema that is checked
//!    in (`schema.rs`);
//! 4. deserialization into [`RuntimeConfig`], then the checks against the robot (`check.rs`).
//!
//! Only text that is not YAML at all stops the loader early. Otherwise every stage runs, and
//! every error is reported at once: a value JSON cannot say is reported by stage 2 and replaced
//! by `null`, which the schema then does not report again; the checks against the robot run on
//! every part of the file that has the right type. Field paths are dotted
//! (`joints.left_knee_pitch.enabled`); a key that is not a plain name is quoted.

use std::path::Path;

use serde_json::Value as Json;

use super::RuntimeConfig;
use super::check;
use super::error::{ConfigError, FieldError, found};
use super::schema::schema_errors;
use super::yaml::{Document, document};
use crate::model::Robot;
use crate::validate::suggest;

/// Reads, validates and checks the configuration file at `path` for `robot`.
///
/// A relative `mujoco.model` path is taken from the file's folder (and made so in the result),
/// and the file must exist; [`parse`], which has no folder, keeps the path as written.
pub fn load(path: &Path, robot: &Robot) -> Result<RuntimeConfig, ConfigError> {
    let text = read(path)?;
    let mut config = parse(&text, path, robot)?;
    if let super::MujocoModel::File(model) = &mut config.mujoco.model {
        let folder = path.parent().unwrap_or(Path::new(""));
        if model.is_relative() {
            *model = folder.join(&*model);
        }
        if !model.is_file() {
            return Err(ConfigError {
                file: path.to_path_buf(),
                errors: vec![FieldError::new(
                    "mujoco.model",
                    format!(
                        "no MJCF file `{}` (a relative path is from the configuration's folder)",
                        model.display()
                    ),
                )],
            });
        }
    }
    Ok(config)
}

/// Validates and checks configuration `text` for `robot`; `source_name` names it in errors.
///
/// Every error is reported at once: a value of the wrong type (which the schema reports) hides
/// no mistake elsewhere, as the checks against the robot run on every part that has the right
/// type.
pub fn parse(
    text: &str,
    source_name: impl AsRef<Path>,
    robot: &Robot,
) -> Result<RuntimeConfig, ConfigError> {
    let fail = |errors| ConfigError {
        file: source_name.as_ref().to_path_buf(),
        errors,
    };
    let document = document(text).map_err(fail)?;
    let mut errors = document_errors(&document);
    errors.extend(check::against(&check::Parsed::of(&document.json), robot));
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    serde_json::from_value(document.json).map_err(|e| {
        // The schema is derived from these types, so this would be a bug in the derivation.
        fail(vec![FieldError::new(
            "",
            format!("accepted by the schema but not by the configuration types: {e}"),
        )])
    })
}

/// The errors of stages 2 and 3, without the schema's complaint about a value stage 2 already
/// reported and replaced by `null`.
fn document_errors(document: &Document) -> Vec<FieldError> {
    let mut errors = document.errors.clone();
    errors.extend(
        schema_errors(&document.json)
            .into_iter()
            .filter(|e| !document.replaced.contains(&e.path)),
    );
    errors
}

/// The `robot:` field of configuration `text`, read without validating anything else: how a tool
/// finds the robot to [`parse`] the file against. `source_name` names the text in errors.
///
/// When there is no robot to parse against, the error also has every mistake found without one
/// (YAML and schema), so that the user sees them all at once.
pub fn peek_robot(text: &str, source_name: impl AsRef<Path>) -> Result<String, ConfigError> {
    let fail = |errors| ConfigError {
        file: source_name.as_ref().to_path_buf(),
        errors,
    };
    let document = document(text).map_err(fail)?;
    let json = &document.json;
    let mut errors = match json.get("robot") {
        Some(Json::String(name)) => return Ok(name.clone()),
        // Replaced by stage 2 (a tag), whose error says why.
        Some(_) if document.replaced.iter().any(|p| p == "robot") => Vec::new(),
        Some(other) => vec![FieldError::new(
            "robot",
            format!("expected a string, found {}", found(other)),
        )],
        None if json.is_object() => vec![FieldError::new("robot", "required field is missing")],
        None => vec![FieldError::new(
            "",
            format!("expected a mapping, found {}", found(json)),
        )],
    };
    // The schema says the same of the robot field, or of a file that is not a mapping.
    let said: Vec<String> = errors.iter().map(|e| e.path.clone()).collect();
    errors.extend(
        document_errors(&document)
            .into_iter()
            .filter(|e| !said.contains(&e.path)),
    );
    Err(fail(errors))
}

/// The error for a configuration file at `path` whose `robot:` field names a robot that is not
/// among `known`: at the `robot` field, like every other error of the file, listing the known
/// robots and suggesting the closest one. For a tool that looks the robot up itself after
/// [`robot_name_of`], before it can [`load`] the file:
///
/// ```
/// use std::path::Path;
///
/// let error = robot_runtime::config::unknown_robot(
///     Path::new("configs/bot.yaml"),
///     "lite_bipd",
///     &["lite_biped", "six_axis_arm"],
/// );
/// assert_eq!(
///     error.to_string(),
///     "configs/bot.yaml: robot: unknown robot \"lite_bipd\"; \
///      known robots are lite_biped, six_axis_arm; did you mean `lite_biped`?"
/// );
/// ```
pub fn unknown_robot(path: &Path, name: &str, known: &[&str]) -> ConfigError {
    let known_robots = if known.is_empty() {
        "no robots are known".to_string()
    } else {
        format!("known robots are {}", known.join(", "))
    };
    let suggestion = suggest::closest(name, known.iter().copied()).map(str::to_string);
    ConfigError {
        file: path.to_path_buf(),
        errors: vec![FieldError::new(
            "robot",
            format!(
                "unknown robot {}; {known_robots}{}",
                found(&name.into()),
                suggest::did_you_mean(&suggestion)
            ),
        )],
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
