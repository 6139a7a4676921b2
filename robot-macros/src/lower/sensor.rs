//! Sensors: `imu`, `force_torque` and `contact` items, each on a link with the plugin that drives
//! it on real hardware; a contact sensor may give its `threshold`.

use std::borrow::Cow;

use robot_model::model::{Param, Sensor, SensorKind};
use robot_model::validate::{SensorField, Site};
use syn::Ident;

use super::values::{Fields, Quantity, as_block, as_ident, as_str};
use super::{Lowering, name};
use crate::kw::{self, Keyword};
use crate::parse::{Block, Item, Value};

/// The kind of sensor an item keyword declares, if it declares one.
pub(super) fn kind_of(keyword: &Ident) -> Option<SensorKind> {
    if kw::imu::is(keyword) {
        Some(SensorKind::Imu)
    } else if kw::force_torque::is(keyword) {
        Some(SensorKind::ForceTorque)
    } else if kw::contact::is(keyword) {
        Some(SensorKind::Contact)
    } else {
        None
    }
}

impl Lowering<'_> {
    pub(super) fn sensor(&mut self, kind: SensorKind, item: &Item, block: &Block) {
        self.no_kind(item);
        let index = self.sensors.len();
        self.spans
            .insert(Site::Sensor(index, SensorField::Name), item.name.span());
        let mut f = Fields::new(block, kind.keyword());
        let link = match f.value::<kw::link>(self.errors) {
            Some(v) => {
                self.spans
                    .insert(Site::Sensor(index, SensorField::Link), v.span());
                as_ident(v, self.errors)
                    .map(|i| name(&i))
                    .unwrap_or_default()
            }
            None => {
                self.errors.at(
                    item.name.span(),
                    format!("{} `{}` needs `link`", kind.keyword(), item.name),
                );
                Cow::Borrowed("")
            }
        };
        let plugin = match f.value::<kw::plugin>(self.errors) {
            Some(v) => {
                self.spans
                    .insert(Site::Sensor(index, SensorField::Plugin), v.span());
                as_str(v, self.errors).unwrap_or_default()
            }
            None => String::new(),
        };
        // Asked of every kind, so that a threshold on an IMU is told why it is wrong rather
        // than that the field is unknown.
        let threshold = match f.value::<kw::threshold>(self.errors) {
            Some(v) => {
                self.spans
                    .insert(Site::Sensor(index, SensorField::Threshold), v.span());
                super::values::number(v, Quantity::Force, "`threshold`", self.errors)
            }
            None => None,
        };
        let params = self.params(&mut f);
        f.finish(self.errors);
        self.sensors.push(Sensor {
            name: name(&item.name),
            kind,
            link,
            plugin: Cow::Owned(plugin),
            params: Cow::Owned(params),
            threshold,
        });
    }

    /// `params { key: value, .. }`: every value passed on as text.
    fn params(&mut self, f: &mut Fields<'_>) -> Vec<Param> {
        let mut params = Vec::new();
        let Some(block) = f
            .value::<kw::params>(self.errors)
            .and_then(|v| as_block(v, self.errors))
        else {
            return params;
        };
        for entry in &block.entries {
            let text = match &entry.value {
                Value::Str(s) => Some(s.value()),
                Value::Number {
                    unit: Some(unit), ..
                } => {
                    self.errors.at(
                        unit.span,
                        format!(
                            "a param is passed on as text: write it without `{}`",
                            unit.name
                        ),
                    );
                    None
                }
                Value::Number { value, .. } => Some(robot_model::number(*value)),
                Value::Bool(b) => Some(b.value.to_string()),
                Value::Ident(i) => Some(i.to_string()),
                other => {
                    self.errors.at(
                        other.span(),
                        "a param value is a string, a number, a boolean or a name",
                    );
                    None
                }
            };
            if let Some(text) = text {
                params.push(Param {
                    name: name(&entry.key),
                    value: Cow::Owned(text),
                });
            }
        }
        params
    }
}
