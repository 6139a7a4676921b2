//! Sub-blocks several items share: an `origin { xyz, rpy }`, a geometry
//! (`box`/`cylinder`/`sphere`/`capsule`/`mesh`) and a `four_bar { .. }`.

use std::borrow::Cow;

use robot_model::fourbar::{Branch, FourBar};
use robot_model::model::{Geometry, Pose, Shape};

use super::values::{Fields, Quantity, as_block, as_ident, as_str, integer};
use crate::errors::{Errors, hint};
use crate::parse::{Block, Entry, Value};

pub(super) fn four_bar(block: &Block, errors: &mut Errors) -> Option<FourBar> {
    let mut f = Fields::new(block, "four_bar");
    let ground = f.vector::<2>("ground", Quantity::Length, errors);
    let input_crank = f.number("input_crank", Quantity::Length, errors);
    let coupler = f.number("coupler", Quantity::Length, errors);
    let output_crank = f.number("output_crank", Quantity::Length, errors);
    let alpha_zero = f.number("alpha_zero", Quantity::Angle, errors);
    let sign = f.value("sign", errors).and_then(|v| {
        let sign = integer(
            v,
            (i128::MIN, i128::MAX),
            "sign",
            Quantity::Plain("a plain number"),
            errors,
        );
        sign.map(|s| (s, v.span()))
    });
    let branch = f.value("branch", errors).and_then(|v| {
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
    let required = [
        ("ground", ground.is_some()),
        ("input_crank", input_crank.is_some()),
        ("coupler", coupler.is_some()),
        ("output_crank", output_crank.is_some()),
        ("alpha_zero", alpha_zero.is_some()),
        ("sign", sign.is_some()),
        ("branch", branch.is_some()),
    ];
    for (key, present) in required {
        if !present && !f.had(key) {
            errors.at(block.span, format!("four_bar needs `{key}`"));
        }
    }
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

pub(super) fn shape(entry: &Entry, errors: &mut Errors) -> Option<Shape> {
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
            format!(
                "{} needs a geometry: `box`, `cylinder`, `sphere`, `capsule` or `mesh`",
                entry.key
            ),
        );
        return None;
    };
    let mut f = Fields::new(block, "geometry");
    let origin = f
        .value("origin", errors)
        .map(|v| pose(v, errors))
        .unwrap_or_default();
    let need = |key: &str, value: Option<f64>, errors: &mut Errors| {
        if value.is_none() {
            errors.at(kind.span(), format!("{kind} needs `{key}`"));
        }
        value
    };
    let geometry = match kind.to_string().as_str() {
        "box" => {
            let size = f.vector::<3>("size", Quantity::Length, errors);
            if size.is_none() {
                errors.at(kind.span(), "box needs `size: [x, y, z]`");
            }
            size.map(|size| Geometry::Box { size })
        }
        "cylinder" | "capsule" => {
            let radius = f.number("radius", Quantity::Length, errors);
            let length = f.number("length", Quantity::Length, errors);
            let radius = need("radius", radius, errors);
            let length = need("length", length, errors);
            radius.zip(length).map(|(radius, length)| {
                if kind == "cylinder" {
                    Geometry::Cylinder { radius, length }
                } else {
                    Geometry::Capsule { radius, length }
                }
            })
        }
        "sphere" => {
            let radius = f.number("radius", Quantity::Length, errors);
            need("radius", radius, errors).map(|radius| Geometry::Sphere { radius })
        }
        "mesh" => {
            let filename = f.value("filename", errors).and_then(|v| as_str(v, errors));
            let scale = f
                .vector::<3>("scale", Quantity::Plain("a factor"), errors)
                .unwrap_or([1.0; 3]);
            if filename.is_none() {
                errors.at(kind.span(), "mesh needs `filename: \"...\"`");
            }
            filename.map(|filename| Geometry::Mesh {
                filename: Cow::Owned(filename),
                scale,
            })
        }
        other => {
            let known = ["box", "cylinder", "sphere", "capsule", "mesh"];
            let hint = hint(other, &known, || {
                "; expected `box`, `cylinder`, `sphere`, `capsule` or `mesh`".into()
            });
            errors.at(kind.span(), format!("unknown geometry `{other}`{hint}"));
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
    let mut f = Fields::new(block, "origin");
    let xyz = f
        .vector::<3>("xyz", Quantity::Length, errors)
        .unwrap_or_default();
    let rpy = f
        .vector::<3>("rpy", Quantity::Angle, errors)
        .unwrap_or_default();
    f.finish(errors);
    Pose { xyz, rpy }
}
