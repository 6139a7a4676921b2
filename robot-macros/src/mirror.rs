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
    visit(keyword, kind, block, &mut |value, places| {
        let indices: Vec<usize> = places.iter().map(|(i, _)| *i).collect();
        negate_elements(value, &indices)
    });
}

/// Reports each per-side value (`a | b`) that writes the mirror by hand where `mirror: y` makes
/// it already: in a mirrored place, the second side of a pair the first's negation. It would be
/// mirrored twice (`xyz: [0, 0.25 | -0.25, 0]` puts both shoulders at +0.25).
pub fn written_twice(
    keyword: &Ident,
    kind: Option<&Value>,
    block: &Block,
    sides: &[Ident],
    errors: &mut Errors,
) {
    let mut block = block.clone();
    visit(keyword, kind, &mut block, &mut |value, places| {
        let Value::List { items, .. } = value else {
            return;
        };
        for &(i, what) in places {
            let Some(Value::Sided { alternatives, span }) = items.get(i) else {
                continue;
            };
            for pair in (0..alternatives.len() / 2).map(|k| 2 * k) {
                let (Some(Value::Number { value: a, .. }), Some(Value::Number { value: b, .. })) =
                    (alternatives.get(pair), alternatives.get(pair + 1))
                else {
                    continue;
                };
                if *a != 0.0 && *b == -*a {
                    let (first, second) = (
                        sides.get(pair).map_or(String::new(), Ident::to_string),
                        sides.get(pair + 1).map_or(String::new(), Ident::to_string),
                    );
                    errors.at(
                        *span,
                        format!(
                            "`mirror: y` already negates {what} on `{second}`: write it once, \
                             as for `{first}` (`{a}`); `{a} | {b}` mirrors it twice, so \
                             `{second}` gets `{first}`'s {what} as it is, not its mirror image"
                        ),
                    );
                }
            }
        }
    });
}

/// What `visit` hands over: the indices of a list the mirror negates, each with what it is.
type Places<'a> = &'a [(usize, &'static str)];

/// Calls `f` with every list in `keyword`'s `block` that the mirror changes, and the places in
/// it that it negates.
fn visit(
    keyword: &Ident,
    kind: Option<&Value>,
    block: &mut Block,
    f: &mut dyn FnMut(&mut Value, Places<'_>),
) {
    if kw::joint::is(keyword) {
        let prismatic = matches!(kind, Some(Value::Ident(k)) if k == "prismatic");
        for entry in &mut block.entries {
            if entry.key == "origin" {
                pose(&mut entry.value, f);
            } else if entry.key == "axis" {
                let flips: Places<'_> = if prismatic {
                    &[(1, "axis y")]
                } else {
                    &[(0, "axis x"), (2, "axis z")]
                };
                f(&mut entry.value, flips);
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
                        f(&mut field.value, &[(1, "centre-of-mass y")]);
                    } else if field.key == "com_rpy" {
                        f(&mut field.value, &[(0, "roll"), (2, "yaw")]);
                    } else if field.key == "inertia" {
                        // [ixx, ixy, ixz, iyy, iyz, izz]
                        f(&mut field.value, &[(1, "ixy"), (4, "iyz")]);
                    }
                }
            } else {
                // `visual` and `collision` shapes: their origin.
                for field in &mut inner.entries {
                    if field.key == "origin" {
                        pose(&mut field.value, f);
                    }
                }
            }
        }
    }
}

/// An `origin { xyz, rpy }` block's mirrored places.
fn pose(value: &mut Value, f: &mut dyn FnMut(&mut Value, Places<'_>)) {
    let Value::Block(block) = value else {
        return;
    };
    for entry in &mut block.entries {
        if entry.key == "xyz" {
            f(&mut entry.value, &[(1, "y")]);
        } else if entry.key == "rpy" {
            f(&mut entry.value, &[(0, "roll"), (2, "yaw")]);
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
