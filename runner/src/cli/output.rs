//! What the tool prints: stdout without panicking on a closed pipe, and the wording of counts.

use robot_core::config::ConfigError;

/// `print!` to stdout, except that a failed write (a closed pipe: `robot describe | head`) is
/// ignored instead of panicking; a run goes on, and ends as it would, when nobody reads its
/// output. Declared first in `cli`, with `#[macro_use]`,
/// so every module of it can use them.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = std::io::stdout().lock().write_fmt(format_args!($($arg)*));
    }};
}

/// [`out!`] with a newline.
macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => { out!("{}\n", format_args!($($arg)*)) };
}

pub(super) fn plural<'a>(count: usize, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 { one } else { many }
}

/// Prints every error of a configuration to stderr, one a line; returns their count as the
/// command's error.
pub(super) fn config_failed(error: ConfigError) -> String {
    eprintln!("{error}");
    let count = error.errors.len();
    format!(
        "{}: {count} {}",
        error.file.display(),
        plural(count, "error", "errors")
    )
}
