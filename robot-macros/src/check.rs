//! The rules, run on the lowered model. They live in `robot_core::validate`, shared with every
//! hand-built description; this module only places each problem on the user's token.

use crate::errors::Errors;
use crate::lower::{Lowered, item_of};

/// Reports every rule problem, except those about items that already had errors of their own
/// (their model holds placeholders, so such a problem would be a follow-on of the real error).
/// With errors outside any item the model may lack whole items, and no rule is checked.
pub fn robot(lowered: &Lowered, errors: &mut Errors) {
    if lowered.incomplete {
        return;
    }
    let tainted = |site| lowered.tainted.contains(&item_of(site));
    for problem in robot_model::validate::validate(&lowered.robot) {
        if tainted(problem.at) || problem.related.is_some_and(|(site, _)| tainted(site)) {
            continue;
        }
        let mut error = syn::Error::new(lowered.span(problem.at), problem.kind.to_string());
        if let Some((site, note)) = problem.related {
            error.combine(syn::Error::new(lowered.span(site), note));
        }
        errors.push(error);
    }
}
