//! What a broken invariant is, as a run reports it: the first time it broke, and how often more.

/// What a violation of an invariant was, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The invariant, in a few words.
    pub invariant: &'static str,
    /// What happened, the first time.
    pub what: String,
    /// How many more times it happened in the run.
    pub more: u64,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.invariant, self.what)?;
        if self.more > 0 {
            write!(f, " (and {} more)", self.more)?;
        }
        Ok(())
    }
}

/// Adds `violation` to `violations`, or counts it when its invariant is there already: the
/// first of each kind says what happened.
pub fn add(violations: &mut Vec<Violation>, invariant: &'static str, what: String) {
    match violations.iter_mut().find(|v| v.invariant == invariant) {
        Some(first) => first.more += 1,
        None => violations.push(Violation {
            invariant,
            what,
            more: 0,
        }),
    }
}
