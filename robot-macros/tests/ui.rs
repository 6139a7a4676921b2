//! The compile errors of `robot!`, one case per rule, and definitions that must compile.
//!
//! Each `tests/ui/fail/<rule>.rs` is a small definition broken in exactly one way (or, for
//! `several-errors.rs`, in a few independent ways), checked in with the `.stderr` it must
//! produce: the error under the offending token, naming the thing and the rule. Each
//! `tests/ui/pass/*.rs` must compile and its `main` must run.
//!
//! After a deliberate change of a message, regenerate and review the diff:
//! `TRYBUILD=overwrite cargo test -p robot-macros --test ui`.
//!
//! Here rather than in the workspace's `tests/` crate: trybuild builds the cases against the
//! crate's dependencies, and these need only robot-core, not every backend.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
