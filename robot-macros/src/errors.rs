//! Collects every error of an invocation so the user sees them all at once (serde_derive's
//! `Ctxt`, without the panic on drop: it is passed explicitly and consumed at the end).

use proc_macro2::{Span, TokenStream};

#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
    count: usize,
}

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        self.count += 1;
        match &mut self.combined {
            Some(existing) => existing.combine(error),
            None => self.combined = Some(error),
        }
    }

    pub fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// How many errors so far: comparing counts tells whether a step added any.
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn into_compile_error(self) -> TokenStream {
        self.combined
            .map(|e| e.into_compile_error())
            .unwrap_or_default()
    }
}

/// How an "unknown X `name`" message ends: "; did you mean `x`?" when a known name is close to
/// `name` (`robot_core::validate::suggest`), else `otherwise`, typically the list of known names.
pub fn hint(name: &str, known: &[&str], otherwise: impl FnOnce() -> String) -> String {
    match robot_model::validate::suggest::closest(name, known.iter().copied()) {
        Some(close) => format!("; did you mean `{close}`?"),
        None => otherwise(),
    }
}

/// Words for a message, each in backticks: "`a`, `b` or `c`".
pub fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|word| format!("`{word}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((only, _)) => only.clone(),
        None => String::new(),
    }
}
