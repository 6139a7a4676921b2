//! The rules, run on the lowered model. They live in `robot_core::validate`, shared with every
//! hand-built description; this module only places each problem on the user's token.

use crate::errors::Errors;
use crate::lower::Lowered;

pub fn robot(lowered: &Lowered, errors: &mut Errors) {
    for problem in robot_core::validate::validate(&lowered.robot) {
        let mut error = syn::Error::new(lowered.span(problem.at), problem.kind.to_string());
        if let Some((site, note)) = problem.related {
            error.combine(syn::Error::new(lowered.span(site), note));
        }
        errors.push(error);
    }
}
