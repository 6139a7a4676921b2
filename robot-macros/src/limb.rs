//! Limbs: a mirrored limb is written once and instantiated per side.
//!
//! ```text
//! limb leg: left | right {
//!     joint hip_pitch: revolute { parent: pelvis, child: hip_pitch, ..., can_id: 31 | 41 }
//! }
//! ```
//! gives joints `left_hip_pitch` (can id 31) and `right_hip_pitch` (41). Inside a limb:
//! * every link, joint and sensor name declared in it is prefixed with the side: `hip_pitch` →
//!   `left_hip_pitch`, and so is every reference to such a name (`child: hip_pitch`); names not
//!   declared in the limb (`parent: pelvis`, bus names) are used as written;
//! * `a | b` gives one value per side, in the order the sides are listed; any value can be
//!   per-side, including single elements of a list: `xyz: [0.02, 0.07 | -0.07, 0]`.
//! * `limb leg: left | right, mirror: y { .. }`: the sides come in pairs, and the second of each
//!   pair is the mirror image of the first across the robot's XZ plane, so every value is
//!   written as for the first side (`xyz: [0.02, 0.07, 0]` puts the right hip at y = -0.07):
//!   positions take -y (joint and shape origins, centres of mass), orientations -roll and -yaw,
//!   inertias -ixy and -iyz, and a joint's axis its mirror image (a hinge's axis as a rotation:
//!   -x and -z; a slider's as a direction: -y), so the same joint position moves both sides
//!   symmetrically and `for leg in command.leg()` is symmetric code. Limits, actuators (their
//!   direction is how the motor is mounted) and everything else are taken as written.

use std::collections::HashSet;

use syn::Ident;
use syn::ext::IdentExt;

use robot_model::validate::names;

use crate::errors::Errors;
use crate::kw::{self, Keyword};
use crate::mirror;
use crate::parse::{Block, Body, Entry, Item, Value};

/// A limb as written: the generated per-limb views (`command.leg()`) are made from it.
#[derive(Debug, Clone)]
pub struct Limb {
    /// `leg` in `limb leg: left | right`.
    pub name: Ident,
    /// The sides, in the order written.
    pub sides: Vec<Ident>,
    /// The joints declared in the limb, by their name without the side.
    pub joints: Vec<Ident>,
}

/// Replaces every `limb` item by its per-side copies, in place of the limb; returns the items and
/// the limbs.
pub fn expand(items: Vec<Item>, errors: &mut Errors) -> (Vec<Item>, Vec<Limb>) {
    let mut out = Vec::new();
    let mut limbs = Vec::new();
    for item in items {
        // Only a `limb` holds items (see `parse::Item`).
        match &item.body {
            Body::Items(inner) => limbs.extend(instantiate(&item, inner, errors, &mut out)),
            Body::Entries(_) => out.push(item),
        }
    }
    (out, limbs)
}

fn instantiate(
    limb: &Item,
    inner: &[Item],
    errors: &mut Errors,
    out: &mut Vec<Item>,
) -> Option<Limb> {
    let sides: Vec<Ident> = match &limb.kind {
        Some(Value::Sided { alternatives, .. }) => alternatives
            .iter()
            .filter_map(|v| side_name(v, errors))
            .collect(),
        Some(single) => side_name(single, errors).into_iter().collect(),
        None => {
            errors.at(
                limb.name.span(),
                format!(
                    "limb `{}` needs its sides: `limb {}: left | right {{ ... }}`",
                    limb.name, limb.name
                ),
            );
            return None;
        }
    };
    let mut declared = HashSet::new();
    let in_limb = [
        kw::link::TEXT,
        kw::joint::TEXT,
        kw::imu::TEXT,
        kw::force_torque::TEXT,
        kw::contact::TEXT,
    ];
    for item in inner {
        let keyword = &item.keyword;
        if in_limb.iter().any(|word| keyword == word) {
            declared.insert(item.name.to_string());
        } else {
            let written = keyword.to_string();
            let hint = crate::errors::hint(&written, &in_limb, String::new);
            errors.at(
                item.keyword.span(),
                format!("a limb holds links, joints and sensors, not `{written}`{hint}"),
            );
        }
    }
    let mirrored = mirror::option(limb, sides.len(), errors);
    if mirrored {
        for item in inner {
            if let Body::Entries(block) = &item.body {
                mirror::written_twice(&item.keyword, item.kind.as_ref(), block, &sides, errors);
            }
        }
    }
    let mut reported = HashSet::new();
    for (index, side) in sides.iter().enumerate() {
        let mut context = Side {
            index,
            count: sides.len(),
            side,
            declared: &declared,
            errors,
            reported: &mut reported,
        };
        for item in inner {
            if !declared.contains(&item.name.to_string()) {
                continue;
            }
            let Body::Entries(block) = &item.body else {
                continue;
            };
            let kind = item.kind.as_ref().map(|k| context.value(k));
            let mut block = context.block(block);
            if mirrored && index % 2 == 1 {
                mirror::item(&item.keyword, kind.as_ref(), &mut block);
            }
            out.push(Item {
                attrs: item.attrs.clone(),
                keyword: item.keyword.clone(),
                name: context.prefixed(&item.name),
                kind,
                mirror: None,
                body: Body::Entries(block),
            });
        }
    }
    // The limb's name becomes a method and types (`leg()`, `LegState`), its joints' names
    // without the side become fields: each must be an identifier Rust can write. The items are
    // kept either way (their names carry the side); only the views go.
    let joints: Vec<Ident> = inner
        .iter()
        .filter(|i| kw::joint::is(&i.keyword))
        .map(|i| i.name.clone())
        .collect();
    let mut usable = true;
    let limb_name = (kw::limb::TEXT, "its view method and types", &limb.name);
    let joint_names = joints
        .iter()
        .map(|joint| (kw::joint::TEXT, "its field in the limb's views", joint));
    for (what, role, name) in std::iter::once(limb_name).chain(joint_names) {
        let written = name.unraw().to_string();
        if let Some(reason) = names::unusable(&written) {
            errors.at(
                name.span(),
                format!("{what} name `{written}` cannot be used for {role}: {reason}"),
            );
            usable = false;
        }
    }
    usable.then(|| Limb {
        name: limb.name.clone(),
        joints,
        sides,
    })
}

fn side_name(value: &Value, errors: &mut Errors) -> Option<Ident> {
    match value {
        Value::Ident(ident) => Some(ident.clone()),
        other => {
            errors.at(
                other.span(),
                "a limb's sides are names: `limb leg: left | right { ... }`",
            );
            None
        }
    }
}

struct Side<'a> {
    index: usize,
    count: usize,
    side: &'a Ident,
    declared: &'a HashSet<String>,
    errors: &'a mut Errors,
    /// Per-side values already reported as having the wrong count, by span text, so the error
    /// is shown once and not once per side.
    reported: &'a mut HashSet<String>,
}

impl Side<'_> {
    fn prefixed(&self, name: &Ident) -> Ident {
        // Unraw both: `r#type` in a limb of side `left` is `left_type`.
        Ident::new(
            &format!("{}_{}", self.side.unraw(), name.unraw()),
            name.span(),
        )
    }

    fn block(&mut self, block: &Block) -> Block {
        let mut entries = Vec::with_capacity(block.entries.len());
        for e in &block.entries {
            if self.absent(&e.value) {
                continue;
            }
            entries.push(Entry {
                key: e.key.clone(),
                kind: e.kind.clone(),
                value: self.value(&e.value),
            });
        }
        Block {
            span: block.span,
            entries,
        }
    }

    /// Whether an entry's per-side value is `none` on this side: the entry is left out there
    /// (`four_bar: { .. } | none`: a linkage on the left leg only).
    fn absent(&self, value: &Value) -> bool {
        match value {
            Value::Sided { alternatives, .. } if alternatives.len() == self.count => matches!(
                &alternatives[self.index],
                Value::Ident(ident) if kw::none::is(ident)
            ),
            _ => false,
        }
    }

    fn value(&mut self, value: &Value) -> Value {
        match value {
            Value::Ident(ident) if self.declared.contains(&ident.to_string()) => {
                Value::Ident(self.prefixed(ident))
            }
            Value::Sided { alternatives, span } => {
                if alternatives.len() != self.count {
                    if self.reported.insert(format!("{span:?}")) {
                        self.errors.push(value.error(format!(
                            "{} per-side values for {} sides: write one value per side, in side order",
                            alternatives.len(),
                            self.count
                        )));
                    }
                    return self.value(&alternatives[0]);
                }
                self.value(&alternatives[self.index])
            }
            Value::List { items, span } => Value::List {
                items: items.iter().map(|v| self.value(v)).collect(),
                span: *span,
            },
            Value::Block(block) => Value::Block(self.block(block)),
            Value::Assign { name, value } => Value::Assign {
                name: name.clone(),
                value: Box::new(self.value(value)),
            },
            other => other.clone(),
        }
    }
}
