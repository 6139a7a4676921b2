//! How every generated file and every generated line of code writes a float.

/// A float as the emitters and `robot!` write it: the shortest text that reads back to the same
/// `f64`, with `-0` written `0`.
pub fn number(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    format!("{value}")
}
