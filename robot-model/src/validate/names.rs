//! Names that `robot!` turns into Rust identifiers, and which of them it cannot.
//!
//! A joint `left_knee_pitch` becomes the field `left_knee_pitch`, the types `LeftKneePitchState`,
//! `LeftKneePitchCommand`, `LeftKneePitchInterfaces` and the constant `LEFT_KNEE_PITCH`; a bus
//! `left_leg` the method `left_leg()` and the types `LeftLegBusState`, `LeftLegBusCommand`; an
//! IMU `base_imu` the field `base_imu` and the constant `BASE_IMU`; the robot `LiteBiped` the
//! types `LiteBiped`, `LiteBipedState`, `LiteBipedCommand` and the module `lite_biped`. A keyword
//! is written raw (`r#type`), except the five Rust cannot write raw at all. The macro generates
//! no code for a name this module rejects (see [`unusable`]), so it never panics on one.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// The identifiers Rust cannot write even as raw identifiers (`r#self` is an error).
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// Why `word` cannot be an identifier at all: a keyword Rust cannot write raw, or `_`.
fn not_raw(word: &str) -> Option<String> {
    match word {
        "_" => Some("`_` is Rust's wildcard, not an identifier".to_string()),
        _ if NOT_RAW.contains(&word) => Some(format!(
            "`{word}` is a Rust keyword that cannot be written raw (`r#{word}`)"
        )),
        _ => None,
    }
}

/// Why `name`, of a joint, bus or sensor, cannot become the identifiers `robot!` generates for
/// it; `None` when it can.
pub fn unusable(name: &str) -> Option<String> {
    if let Some(reason) = not_raw(name) {
        return Some(format!("{reason}; rename it"));
    }
    let camel = name.to_upper_camel_case();
    match camel.chars().next() {
        None => Some("it has no letters, so its generated type names would be empty".to_string()),
        Some(c) if !c.is_alphabetic() => Some(format!(
            "its generated type name `{camel}State` would start with a digit; start it with a letter"
        )),
        Some(_) => None,
    }
}

/// Why `type_name`, the robot's, cannot become the types and the module `robot!` generates for
/// it; `None` when it can.
pub fn unusable_type_name(type_name: &str) -> Option<String> {
    if let Some(reason) = not_raw(type_name) {
        return Some(format!("{reason}; rename the robot"));
    }
    let module = type_name.to_snake_case();
    match module.chars().next() {
        None => Some("it has no letters, so its generated module name would be empty".to_string()),
        Some(c) if !c.is_alphabetic() => Some(format!(
            "its generated module name `{module}` would start with a digit; start it with a letter"
        )),
        Some(_) => not_raw(&module).map(|reason| {
            format!("it generates the module `{module}`, and {reason}; rename the robot")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_that_cannot_be_raw_are_unusable() {
        for name in NOT_RAW {
            let reason = unusable(name).expect(name);
            assert!(reason.ends_with("; rename it"), "{reason}");
        }
        // Other keywords are written raw.
        for name in ["type", "loop", "match", "fn"] {
            assert_eq!(unusable(name), None, "{name}");
        }
    }

    #[test]
    fn names_whose_type_names_are_not_identifiers_are_unusable() {
        assert_eq!(
            unusable("_1").as_deref(),
            Some(
                "its generated type name `1State` would start with a digit; start it with a letter"
            )
        );
        assert!(unusable("__").is_some());
        assert_eq!(unusable("_knee"), None);
        assert_eq!(unusable("knee_1"), None);
        assert_eq!(unusable("self_"), None);
    }

    #[test]
    fn robot_type_names_whose_module_is_a_keyword_are_unusable() {
        for name in ["Self", "Crate", "Super", "_", "__", "_1a"] {
            assert!(unusable_type_name(name).is_some(), "{name}");
        }
        for name in ["LiteBiped", "Loop", "Type", "_Private"] {
            assert_eq!(unusable_type_name(name), None, "{name}");
        }
    }
}
