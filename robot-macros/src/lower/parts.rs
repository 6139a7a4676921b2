//! Sub-blocks several items share: an `origin { xyz, rpy }`, a geometry
//! (`box`/`cylinder`/`sphere`/`capsule`/`mesh`) and a `four_bar { .. }`.

use std::borrow::Cow;

use proc_macro2::Span;
use robot_model::fourbar::{Branch, FourBar, FourBarParam};
use robot_model::model::{Geometry, Pose, Shape};

use super::values::{Fields, Quantity, as_block, as_ident, as_str, integer};
use crate::errors::{Errors, hint, one_of};
use crate::kw::{self, Keyword};
use crate::parse::{Block, Entry, Value};

/// Where each parameter's value is written in `block`, so a rule broken by one is reported on
/// its value, not on `four_bar`.
pub(super) fn four_bar_spans(block: &Block) -> Vec<(FourBarParam, Span)> {
    let params = [
        (kw::ground::TEXT, FourBarParam::Ground),
        (kw::input_crank::TEXT, FourBarParam::InputCrank),
        (kw::coupler::TEXT, FourBarParam::Coupler),
        (kw::output_crank::TEXT, FourBarParam::OutputCrank),
        (kw::alpha_zero::TEXT, FourBarParam::AlphaZero),
        (kw::sign::TEXT, FourBarParam::Sign),
    ];
    block
        .entries
        .iter()
        .filter_map(|entry| {
            let (_, param) = params.iter().find(|(key, _)| entry.key == key)?;
            Some((*param, entry.value.span()))
        })
        .collect()
}

pub(super) fn four_bar(block: &Block, errors: &mut Errors) -> Option<FourBar> {
    let mut f = Fields::new(block, kw::four_bar::TEXT);
    let ground = f.vector::<kw::ground, 2>(Quantity::Length, errors);
    let input_crank = f.number::<kw::input_crank>(Quantity::Length, errors);
    let coupler = f.number::<kw::coupler>(Quantity::Length, errors);
    let output_crank = f.number::<kw::output_crank>(Quantity::Length, errors);
    let alpha_zero = f.number::<kw::alpha_zero>(Quantity::Angle, errors);
    let sign = f.value::<kw::sign>(errors).and_then(|v| {
        let sign = integer(
            v,
            (i128::MIN, i128::MAX),
            "sign",
            Quantity::Plain("a plain number"),
            errors,
        );
        sign.map(|s| (s, v.span()))
    });
    let branch = f.value::<kw::branch>(errors).and_then(|v| {
        let ident = as_ident(v, errors)?;
        let written = ident.to_string();
        let branch = Branch::from_name(&written);
        if branch.is_none() {
            let known = Branch::ALL.map(|b| b.name());
            let hint = hint(&written, &known, || {
                format!("; expected one of {}", known.join(", "))
            });
            errors.at(
                ident.span(),
                format!("unknown four-bar branch `{ident}`{hint}"),
            );
        }
        branch
    });
    f.finish(errors);
    f.require::<kw::ground>(ground.is_some(), errors);
    f.require::<kw::input_crank>(input_crank.is_some(), errors);
    f.require::<kw::coupler>(coupler.is_some(), errors);
    f.require::<kw::output_crank>(output_crank.is_some(), errors);
    f.require::<kw::alpha_zero>(alpha_zero.is_some(), errors);
    f.require::<kw::sign>(sign.is_some(), errors);
    f.require::<kw::branch>(branch.is_some(), errors);
    let sign = match sign? {
        (s @ (1 | -1), _) => s as f64,
        (other, span) => {
            errors.at(span, format!("four-bar sign is `1` or `-1`, not {other}"));
            return None;
        }
    };
    Some(FourBar {
        ground: ground?,
        input_crank: input_crank?,
        coupler: coupler?,
        output_crank: output_crank?,
        alpha_zero: alpha_zero?,
        sign,
        branch: branch?,
    })
}

/// What follows `visual` or `collision`.
#[derive(Clone, Copy)]
enum GeometryKind {
    Box,
    Cylinder,
    Sphere,
    Capsule,
    Mesh,
}

/// The geometries by the word naming them, in the order messages list them: one list for reading
/// the word and for "did you mean". Not `kw` words: `box` is a reserved word in Rust, which
/// `syn::custom_keyword!` cannot declare.
const GEOMETRIES: [(&str, GeometryKind); 5] = [
    ("box", GeometryKind::Box),
    ("cylinder", GeometryKind::Cylinder),
    ("sphere", GeometryKind::Sphere),
    ("capsule", GeometryKind::Capsule),
    ("mesh", GeometryKind::Mesh),
];

pub(super) fn shape(entry: &Entry, errors: &mut Errors) -> Option<Shape> {
    let geometries = GEOMETRIES.map(|(word, _)| word);
    let Value::Block(block) = &entry.value else {
        errors.at(
            entry.value.span(),
            format!(
                "write a {} as `{} box {{ size: [x, y, z] }}`",
                entry.key, entry.key
            ),
        );
        return None;
    };
    let Some(kind) = &entry.kind else {
        errors.at(
            entry.key.span(),
            format!("{} needs a geometry: {}", entry.key, one_of(&geometries)),
        );
        return None;
    };
    let mut f = Fields::new(block, "geometry");
    let origin = f
        .value::<kw::origin>(errors)
        .map(|v| pose(v, errors))
        .unwrap_or_default();
    let need = |key: &str, value: Option<f64>, errors: &mut Errors| {
        if value.is_none() {
            errors.at(kind.span(), format!("{kind} needs `{key}`"));
        }
        value
    };
    let written = kind.to_string();
    let geometry = match GEOMETRIES.iter().find(|(word, _)| *word == written) {
        Some((_, GeometryKind::Box)) => {
            let size = f.vector::<kw::size, 3>(Quantity::Length, errors);
            if size.is_none() {
                errors.at(kind.span(), "box needs `size: [x, y, z]`");
            }
            size.map(|size| Geometry::Box { size })
        }
        Some((_, round @ (GeometryKind::Cylinder | GeometryKind::Capsule))) => {
            let radius = f.number::<kw::radius>(Quantity::Length, errors);
            let length = f.number::<kw::length>(Quantity::Length, errors);
            let radius = need(kw::radius::TEXT, radius, errors);
            let length = need(kw::length::TEXT, length, errors);
            radius.zip(length).map(|(radius, length)| {
                if matches!(round, GeometryKind::Cylinder) {
                    Geometry::Cylinder { radius, length }
                } else {
                    Geometry::Capsule { radius, length }
                }
            })
        }
        Some((_, GeometryKind::Sphere)) => {
            let radius = f.number::<kw::radius>(Quantity::Length, errors);
            need(kw::radius::TEXT, radius, errors).map(|radius| Geometry::Sphere { radius })
        }
        Some((_, GeometryKind::Mesh)) => {
            let filename = f
                .value::<kw::filename>(errors)
                .and_then(|v| as_str(v, errors));
            let scale = f
                .vector::<kw::scale, 3>(Quantity::Plain("a factor"), errors)
                .unwrap_or([1.0; 3]);
            if filename.is_none() {
                errors.at(kind.span(), "mesh needs `filename: \"...\"`");
            }
            filename.map(|filename| Geometry::Mesh {
                filename: Cow::Owned(filename),
                scale,
            })
        }
        None => {
            let hint = hint(&written, &geometries, || {
                format!("; expected {}", one_of(&geometries))
            });
            errors.at(kind.span(), format!("unknown geometry `{written}`{hint}"));
            None
        }
    };
    f.finish(errors);
    Some(Shape {
        origin,
        geometry: geometry?,
    })
}

pub(super) fn pose(value: &Value, errors: &mut Errors) -> Pose {
    let Some(block) = as_block(value, errors) else {
        return Pose::IDENTITY;
    };
    let mut f = Fields::new(block, kw::origin::TEXT);
    let xyz = f
        .vector::<kw::xyz, 3>(Quantity::Length, errors)
        .unwrap_or_default();
    let rpy = f
        .vector::<kw::rpy, 3>(Quantity::Angle, errors)
        .unwrap_or_default();
    f.finish(errors);
    Pose { xyz, rpy }
}
