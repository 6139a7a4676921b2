//! How a tool command (`robot can`, `robot imu`) fails.

/// What went wrong: a usage error (exit 2, like clap's) or a failure (exit 1): I/O, a bus or a
/// port that cannot be opened, a device that does not answer.
pub(crate) enum ToolError {
    Usage(String),
    Failed(String),
}
