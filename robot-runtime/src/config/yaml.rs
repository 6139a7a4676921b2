//! Stages 1 and 2 of reading a configuration file: YAML text → a YAML value (syntax errors keep
//! their line and column) → a JSON value (only what JSON can say: no tags, finite numbers, scalar
//! keys), for the schema to validate.

use serde_json::Value as Json;
use serde_yaml_ng::Value as Yaml;

use super::duplicate::duplicate_key;
use super::error::{FieldError, field_path};

/// A configuration file as JSON, with what JSON cannot say reported rather than converted.
pub(super) struct Document {
    /// The value; what JSON cannot say is `null` here.
    pub json: Json,
    /// What JSON cannot say (a tag, `.nan`, a list as a key), at its field.
    pub errors: Vec<FieldError>,
    /// The dotted paths of the values reported and replaced by `null`: the schema's complaint
    /// about that `null` would report the same mistake again.
    pub replaced: Vec<String>,
}

/// Stages 1 and 2: the text as a JSON value. Fails only when the text is not YAML at all; what
/// JSON cannot say is reported in the document, so the later stages still check the rest.
pub(super) fn document(text: &str) -> Result<Document, Vec<FieldError>> {
    let mut yaml: Yaml = serde_yaml_ng::from_str(text)
        .map_err(|e| vec![duplicate_key(text).unwrap_or_else(|| yaml_error(&e, text))])?;
    yaml.apply_merge().map_err(|e| vec![yaml_error(&e, text)])?;
    let mut document = Document {
        json: Json::Null,
        errors: Vec::new(),
        replaced: Vec::new(),
    };
    document.json = to_json(&yaml, &mut Vec::new(), &mut document);
    Ok(document)
}

impl Document {
    /// Reports the value at `path` and replaces it by `null`.
    fn replace(&mut self, path: &[String], message: String) -> Json {
        let path = field_path(path);
        self.errors.push(FieldError::new(path.clone(), message));
        self.replaced.push(path);
        Json::Null
    }
}

fn yaml_error(error: &serde_yaml_ng::Error, text: &str) -> FieldError {
    let mut message = format!("invalid YAML: {error}");
    // Most messages carry their position; those at the very start of the text omit it.
    if let Some(at) = error.location()
        && !message.contains(" at line ")
    {
        message.push_str(&format!(" at line {} column {}", at.line(), at.column()));
    }
    if let Some(hint) = error
        .location()
        .and_then(|at| indentation_slip(text, at.line()))
    {
        message.push_str(&format!("; {hint}"));
    }
    FieldError::new("", message)
}

fn spaces(count: usize) -> String {
    match count {
        1 => "1 space".to_string(),
        n => format!("{n} spaces"),
    }
}

/// What an indentation slip that YAML reports at line `reported` (1-based) was, naming the line
/// of the key where it is another: a line indented deeper than a `key: value` line above it is
/// read as more of that value, so the parser complains only at its `:`; a line indented less
/// than the entries above it, but more than their parent, fits no block.
fn indentation_slip(text: &str, reported: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let meaningful = |line: &str| !line.trim().is_empty() && !line.trim_start().starts_with('#');
    let at = *lines.get(reported.checked_sub(1)?)?;
    let (above_number, above) = lines[..reported - 1]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, line)| meaningful(line))
        .map(|(index, line)| (index + 1, *line))?;
    let key = above.trim_start().split(':').next()?.trim();
    let has_value = above
        .split_once(':')
        .is_some_and(|(_, value)| !value.trim().is_empty());
    if indent(at) > indent(above) && has_value {
        Some(format!(
            "line {reported} is indented deeper than line {above_number} (`{key}`), so YAML \
             reads it as more of `{key}`'s value: indent it as line {above_number} ({}) or fix \
             line {above_number}",
            spaces(indent(above))
        ))
    } else if indent(at) < indent(above) {
        Some(format!(
            "line {reported} is indented {}, less than line {above_number} (`{key}`, {}) above \
             it but more than their parent: indent it as one or the other",
            spaces(indent(at)),
            spaces(indent(above))
        ))
    } else {
        None
    }
}

fn to_json(yaml: &Yaml, path: &mut Vec<String>, document: &mut Document) -> Json {
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
                document.replace(path, format!("expected a finite number, found {n}"))
            }
        }
        Yaml::String(s) => Json::String(s.clone()),
        Yaml::Sequence(items) => Json::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    path.push(i.to_string());
                    let json = to_json(item, path, document);
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
                        document.errors.push(FieldError::new(
                            field_path(path),
                            format!("expected names as keys, found {}", yaml_kind(other)),
                        ));
                        continue;
                    }
                };
                path.push(key);
                let json = to_json(value, path, document);
                let Some(key) = path.pop() else { continue };
                if object.insert(key, json).is_some() {
                    // `1:` and `"1":` are different YAML keys but the same name.
                    document
                        .errors
                        .push(FieldError::new(field_path(path), "duplicate key"));
                }
            }
            Json::Object(object)
        }
        Yaml::Tagged(tagged) => document.replace(
            path,
            format!("YAML tags are not supported, found `{}`", tagged.tag),
        ),
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
