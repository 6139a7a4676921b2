//! The words of the `robot!` language, each declared once with `syn::custom_keyword!`: a
//! misspelt word in this crate is a compile error, not a field no user can ever write.
//!
//! The parser peeks one (`input.peek(kw::limb)`); the lowering asks a block for its entries by
//! them (`fields.value::<kw::parent>(errors)`), and the words a block was asked for are its
//! "expected one of" list and what "did you mean" compares against. They are not parsed with
//! `lookahead1`, which stops at the first unknown word: the lowering reports every unknown word
//! at once, each with its suggestion, and the types are still generated.
//!
//! What is not here, and why: a geometry's kind (`box` is a reserved word, which
//! `custom_keyword!` cannot declare; see `lower::parts`), units (each carries a factor and a
//! dimension; see `parse::UNITS`), and the names `robot_model` owns and the emitters write too:
//! joint types, RobStride models, interfaces, four-bar branches.

use syn::Ident;

/// A word of the language: its `syn::custom_keyword!` type, with its text.
pub trait Keyword {
    /// The word as written, for messages and "did you mean" lists.
    const TEXT: &'static str;

    /// Whether `ident` is this word. The same test as the keyword's `peek`: a raw `r#parent`
    /// is not `parent`.
    fn is(ident: &Ident) -> bool {
        ident == Self::TEXT
    }
}

/// Declares each word as a `syn::custom_keyword!` and gives it its text.
macro_rules! keywords {
    ($($word:ident)*) => {$(
        syn::custom_keyword!($word);
        impl Keyword for $word {
            const TEXT: &'static str = stringify!($word);
        }
    )*};
}

// Items.
keywords! { robot bus link joint imu force_torque contact limb controller allow_contact }

/// The item keywords, in the order messages list them.
pub const ITEMS: [&str; 10] = [
    robot::TEXT,
    bus::TEXT,
    link::TEXT,
    joint::TEXT,
    imu::TEXT,
    force_torque::TEXT,
    contact::TEXT,
    limb::TEXT,
    controller::TEXT,
    allow_contact::TEXT,
];

// `robot` header and its `mock` block.
keywords! {
    update_rate floating_base mock
    calculate_dynamics position_state_following_offset mock_sensor_commands disable_commands
}

// `bus`: its kind and fields.
keywords! { can bitrate max_load }

// `link`, its inertial and geometries.
keywords! {
    inertial mass com com_rpy inertia visual collision
    size radius length filename scale
}

// `origin` blocks, anywhere.
keywords! { origin xyz rpy }

// `joint`.
keywords! {
    parent child axis
    limits lower upper velocity effort current
    dynamics damping friction armature
    mimic multiplier offset
    command state
}

// A joint's `actuator` and its `four_bar`.
keywords! {
    actuator can_id model direction zero_offset lead
    four_bar ground input_crank coupler output_crank alpha_zero sign branch
}

// Sensors (`imu`, `force_torque`, `contact`) and `controller`.
keywords! { plugin params threshold joints links feedforward }

// A limb's option: `limb leg: left | right, mirror: y`.
keywords! { mirror }

// In a limb, a side's value that leaves the entry out on that side.
keywords! { none }

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::parse::Parser;

    use super::*;

    #[test]
    fn a_word_is_its_text_written_plainly_as_peek_sees_it() {
        let peeks = |source: &str| {
            let peek = |input: syn::parse::ParseStream| {
                let peeked = input.peek(parent);
                input.parse::<proc_macro2::TokenStream>()?;
                Ok(peeked)
            };
            peek.parse_str(source).unwrap()
        };
        for (source, ident) in [
            ("parent", Ident::new("parent", Span::call_site())),
            ("r#parent", Ident::new_raw("parent", Span::call_site())),
            ("Parent", Ident::new("Parent", Span::call_site())),
        ] {
            assert_eq!(parent::is(&ident), peeks(source), "{source}");
        }
        assert!(parent::is(&Ident::new("parent", Span::call_site())));
        assert_eq!(four_bar::TEXT, "four_bar");
    }
}
