//! JSON Schemas of the definition and of the runtime configuration, derived with schemars from the
//! Rust types (the derive gives the shape; [`schemars::generate::SchemaSettings`] the policy:
//! Draft 2020-12).

use schemars::generate::SchemaSettings;

use crate::config::RuntimeConfig;
use crate::model::Robot;

fn generate<T: schemars::JsonSchema>(id: &str) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>();
    schema.insert("$id".to_string(), serde_json::Value::String(id.to_string()));
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// `schema/robot.schema.json`: the schema of `<robot>.json`.
pub fn robot_schema() -> String {
    generate::<Robot>("robot.schema.json")
}

/// `schema/config.schema.json`: the schema of a runtime configuration file.
pub fn config_schema() -> String {
    generate::<RuntimeConfig>("config.schema.json")
}
