//! JSON Schemas derived with schemars from the Rust types (the derive gives the shape;
//! [`SchemaSettings`] the policy: Draft 2020-12). Each schema is generated beside its type:
//! [`robot`] here, the runtime configuration's in `robot_core::config`.

use schemars::generate::SchemaSettings;

use crate::model::Robot;

/// The Draft 2020-12 schema of `T`, with `$id` `id`, pretty-printed with a final newline.
pub fn generate<T: schemars::JsonSchema>(id: &str) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>();
    schema.insert("$id".to_string(), serde_json::Value::String(id.to_string()));
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// `schema/robot.schema.json`: the schema of `<robot>.json`.
pub fn robot() -> String {
    generate::<Robot>("robot.schema.json")
}
