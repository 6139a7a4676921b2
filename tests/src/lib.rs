//! Workspace-level integration tests live in `tests/`; this library is what they share.
//!
//! [`tools`] finds the external tools (xacro, check_urdf, check-jsonschema, MuJoCo) the tests
//! check emitted files with, and decides what a missing one means;
//! [`xml`] compares XML documents as their consumers read them.

pub mod tools;
pub mod xml;
