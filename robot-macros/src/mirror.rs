//! A limb's `mirror: y`: the second side of each pair as the mirror image of the first across
//! the robot's XZ plane (see [`crate::limb`]). A reflection M = diag(1, -1, 1) is not a rotation,
//! so a frame (R, p) is mirrored as (M R M, M p): positions -y; roll and yaw negated (M Rx(r) M
//! = Rx(-r), M Ry(p) M = Ry(p), M Rz(y) M = Rz(-y)); an inertia as M I M: -ixy, -iyz. A hinge's
//! rotation about a by q mirrors to M R_a(q) M = R_{-Ma}(q): the axis (-x, y, -z) at the same q;
//! a slider's translation q a to q (M a): the axis (x, -y, z).

use syn::Ident;

use crate::errors::Errors;
use crate::kw::{self, Keyword};
use crate::parse::{Block, Item, Value};

/// Whether `limb` mirrors its sides; its `, mirror: y` checked (the word, the axis, sides in
/// pairs), each mistake reported at its token.
pub fn option(limb: &Item, sides: usize, errors: &mut Errors) -> bool {
    let Some((word, axis)) = &limb.mirror else {
        return false;
    };
    if !kw::mirror::is(word) {
        errors.at(
            word.span(),
            format!("unknown limb option `{word}`; a limb takes `mirror: y` after its sides"),
        );
        return false;
    }
    if axis != "y" {
        errors.at(
            axis.span(),
            format!(
                "a limb mirrors across the robot's XZ plane only: `mirror: y` (left and right), \
                 not `{axis}`"
            ),
        );
        return false;
    }
    if !sides.is_multiple_of(2) {
        errors.at(
            axis.span(),
            format!(
                "`mirror: y` takes the sides in pairs, the second of each the mirror of the \
                 first; this limb has {sides}"
            ),
        );
        return false;
    }
    true
}

/// Mirrors what `keyword`'s `block` places (a joint's origin and axis, a link's inertial and
/// shapes), in place. Values that are not numbers are left for the lowering to report.
pub fn item(keyword: &Ident, kind: Option<&Value>, block: &mut Block) {
    if kw::joint::is(keyword) {
        let prismatic = matches!(kind, Some(Value::Ident(k)) if k == "prismatic");
        for entry in &mut block.entries {
            if entry.key == "origin" {
                pose(&mut entry.value);
            } else if entry.key == "axis" {
                let flips: &[usize] = if prismatic { &[1] } else { &[0, 2] };
                negate_elements(&mut entry.value, flips);
            }
        }
    } else if kw::link::is(keyword) {
        for entry in &mut block.entries {
            let Value::Block(inner) = &mut entry.value else {
                continue;
            };
            if entry.key == "inertial" {
                for field in &mut inner.entries {
                    if field.key == "com" {
                        negate_elements(&mut field.value, &[1]);
                    } else if field.key == "com_rpy" {
                        negate_elements(&mut field.value, &[0, 2]);
                    } else if field.key == "inertia" {
                        // [ixx, ixy, ixz, iyy, iyz, izz]
                        negate_elements(&mut field.value, &[1, 4]);
                    }
                }
            } else {
                // `visual` and `collision` shapes: their origin.
                for field in &mut inner.entries {
                    if field.key == "origin" {
                        pose(&mut field.value);
                    }
                }
            }
        }
    }
}

/// An `origin { xyz, rpy }` block mirrored.
fn pose(value: &mut Value) {
    let Value::Block(block) = value else {
        return;
    };
    for entry in &mut block.entries {
        if entry.key == "xyz" {
            negate_elements(&mut entry.value, &[1]);
        } else if entry.key == "rpy" {
            negate_elements(&mut entry.value, &[0, 2]);
        }
    }
}

fn negate_elements(value: &mut Value, indices: &[usize]) {
    let Value::List { items, .. } = value else {
        return;
    };
    for &i in indices {
        if let Some(Value::Number { value, integer, .. }) = items.get_mut(i) {
            // 0 stays 0, not -0 (which the descriptions would print).
            *value = if *value == 0.0 { 0.0 } else { -*value };
            *integer = integer.map(|n| -n);
        }
    }
}
