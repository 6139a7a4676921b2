//! The rules, run on the lowered model. They live in `robot_core::validate`, shared with every
//! hand-built description; this module only places each problem on the user's token.
//!
//! A value written once in a limb and shared by every side (`effort: 14`) is one token with one
//! problem per side: `left_knee` and `right_knee` break the same rule there. That is reported
//! once, naming the limb, not once per side.

use proc_macro2::Span;
use syn::ext::IdentExt;

use crate::errors::Errors;
use crate::limb::Limb;
use crate::lower::{Lowered, item_of};

/// One problem, placed.
struct Placed {
    message: String,
    span: Span,
    related: Option<(Span, String)>,
}

/// Reports every rule problem, except those about items that already had errors of their own
/// (their model holds placeholders, so such a problem would be a follow-on of the real error).
/// With errors outside any item the model may lack whole items, and no rule is checked.
pub fn robot(lowered: &Lowered, limbs: &[Limb], errors: &mut Errors) {
    if lowered.incomplete {
        return;
    }
    let tainted = |site| lowered.tainted.contains(&item_of(site));
    let mut placed: Vec<Placed> = Vec::new();
    for problem in robot_model::validate::validate(&lowered.robot) {
        if tainted(problem.at) || problem.related.is_some_and(|(site, _)| tainted(site)) {
            continue;
        }
        placed.push(Placed {
            message: problem.kind.to_string(),
            span: lowered.span(problem.at),
            related: problem
                .related
                .map(|(site, note)| (lowered.span(site), note.to_string())),
        });
    }
    for (index, problem) in placed.iter().enumerate() {
        let message = match every_side(&placed, index, limbs) {
            Shared::No => problem.message.clone(),
            Shared::ReportedAlready => continue,
            Shared::BySides(message) => message,
        };
        errors.push(with_related(problem, message));
    }
}

/// The error of `problem`, saying `message`. Where it relates to another place (where a
/// duplicate was first defined), that place's line is in the message: a stable proc macro can
/// emit errors but not notes, and a second `error:` for one mistake reads as two. Without a
/// line to name (a span from outside a compiler), the other place is a second error.
fn with_related(problem: &Placed, message: String) -> syn::Error {
    let Some((span, note)) = &problem.related else {
        return syn::Error::new(problem.span, message);
    };
    let line = span.start().line;
    if line > 0 {
        let at = note.replace(" here", &format!(" on line {line}"));
        return syn::Error::new(problem.span, format!("{message} ({at})"));
    }
    let mut error = syn::Error::new(problem.span, message);
    error.combine(syn::Error::new(*span, note));
    error
}

enum Shared {
    /// Not a problem of every side of a limb at one shared token.
    No,
    /// The same problem of another side, at the same token, was reported first.
    ReportedAlready,
    /// The first of them: its message, naming the limb.
    BySides(String),
}

/// Whether problem `index` is one every side of a limb has at the same token (a value written
/// once for all sides): the same message, but for the side in the joint's name.
fn every_side(placed: &[Placed], index: usize, limbs: &[Limb]) -> Shared {
    let problem = &placed[index];
    for limb in limbs {
        for joint in &limb.joints {
            let names: Vec<String> = limb
                .sides
                .iter()
                .map(|side| format!("`{}_{}`", side.unraw(), joint.unraw()))
                .collect();
            let Some(own) = names
                .iter()
                .position(|n| problem.message.contains(n.as_str()))
            else {
                continue;
            };
            let sibling = |side: usize| {
                let message = problem.message.replace(&names[own], &names[side]);
                placed
                    .iter()
                    .position(|p| p.message == message && same_token(p.span, problem.span))
            };
            let at: Vec<Option<usize>> = (0..names.len()).map(sibling).collect();
            if at.iter().any(Option::is_none) {
                continue; // not every side: each side's own value, or one side only
            }
            if at.iter().flatten().min() != Some(&index) {
                return Shared::ReportedAlready;
            }
            let sides: Vec<String> = limb.sides.iter().map(|s| s.unraw().to_string()).collect();
            return Shared::BySides(problem.message.replacen(
                &names[own],
                &format!(
                    "`{}` (of limb `{}`, every side: {})",
                    joint.unraw(),
                    limb.name.unraw(),
                    sides.join(", ")
                ),
                1,
            ));
        }
    }
    Shared::No
}

/// Whether two spans are the same token: a value a limb shares is copied to each side with its
/// span, so the copies' spans print alike.
fn same_token(a: Span, b: Span) -> bool {
    format!("{a:?}") == format!("{b:?}")
}
