//! `robot!` on inputs that once made it panic: it must answer with compile errors instead. And
//! messages no UI test (`robot-macros/tests/ui/fail`) covers, built from lists of the language's words.

use quote::quote;

use crate::expand_robot;

/// The expansion of `input`, or the panic message if it panicked.
fn expand(input: proc_macro2::TokenStream) -> Result<String, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        expand_robot(input).to_string()
    }))
    .map_err(|panic| {
        panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

fn joint_named(name: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    quote! {
        robot Tiny { update_rate: 100 Hz }
        bus arm {}
        link base {}
        link tip {}
        joint #name: revolute {
            parent: base, child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 1, model: RS02 },
            command: [position], state: [position],
        }
    }
}

/// Names the lexer gives the macro as identifiers, though Rust cannot use them as fields or types.
fn bad_names() -> Vec<proc_macro2::TokenStream> {
    vec![
        quote!(self),
        quote!(crate),
        quote!(super),
        quote!(Self),
        quote!(_),
        quote!(_1),
        quote!(__),
    ]
}

#[test]
fn joints_named_like_keywords_or_digits_are_errors_not_panics() {
    for name in bad_names() {
        let out = expand(joint_named(&name)).unwrap_or_else(|p| panic!("`{name}` panicked: {p}"));
        assert!(
            out.contains("compile_error") && out.contains("cannot be used in generated code"),
            "`{name}`: {out}"
        );
    }
}

#[test]
fn buses_and_imus_named_like_keywords_are_errors_not_panics() {
    for name in bad_names() {
        let input = quote! {
            robot Tiny { update_rate: 100 Hz }
            bus #name {}
            link base {}
            link tip {}
            joint j: revolute {
                parent: base, child: tip,
                limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
                actuator { bus: #name, can_id: 1, model: RS02 },
                command: [position], state: [position],
            }
            imu #name { link: base, plugin: "p/P" }
        };
        let out = expand(input).unwrap_or_else(|p| panic!("`{name}` panicked: {p}"));
        assert!(
            out.contains("bus name") && out.contains("sensor name"),
            "`{name}`: {out}"
        );
    }
}

#[test]
fn robots_named_like_keywords_are_errors_not_panics() {
    for name in [
        quote!(Self),
        quote!(Crate),
        quote!(Super),
        quote!(_),
        quote!(__),
        quote!(r#Loop),
    ] {
        let input = quote! {
            robot #name { update_rate: 100 Hz }
            link base {}
        };
        let out = expand(input).unwrap_or_else(|p| panic!("`{name}` panicked: {p}"));
        if name.to_string() == "r#Loop" {
            assert!(!out.contains("compile_error"), "`{name}`: {out}");
        } else {
            assert!(out.contains("robot name"), "`{name}`: {out}");
        }
    }
}

#[test]
fn raw_names_in_a_limb_are_prefixed_unraw() {
    let input = quote! {
        robot Tiny { update_rate: 100 Hz }
        bus arm {}
        link base {}
        limb leg: r#type | right {
            link tip {}
            joint r#loop: revolute {
                parent: base, child: tip,
                limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
                actuator { bus: arm, can_id: 1 | 2, model: RS02 },
                command: [position], state: [position],
            }
        }
    };
    let out = expand(input).unwrap_or_else(|p| panic!("panicked: {p}"));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("type_loop"), "{out}");
}

/// The messages that list or name the language's words, where no UI test shows them.
#[test]
fn messages_naming_the_words() {
    let with_header = |source: &str| -> String {
        let input =
            format!("robot Tiny {{ update_rate: 100 Hz }} bus arm {{}} link base {{}} {source}");
        let tokens: proc_macro2::TokenStream = input.parse().unwrap();
        expand(tokens).unwrap_or_else(|p| panic!("`{source}` panicked: {p}"))
    };
    let joint = |actuator: &str| {
        format!(
            "link tip {{}} joint j: revolute {{ parent: base, child: tip, \
             limits {{ lower: -1, upper: 1, velocity: 10, effort: 10 }}, \
             actuator {{ {actuator} }}, command: [position], state: [position] }}"
        )
    };
    let cases = [
        (
            "link l { visual { } }".to_string(),
            "visual needs a geometry: `box`, `cylinder`, `sphere`, `capsule` or `mesh`",
        ),
        (
            "link l { visual bxo { } }".to_string(),
            "unknown geometry `bxo`; did you mean `box`?",
        ),
        (
            "link l { collision pyramid { } }".to_string(),
            "unknown geometry `pyramid`; expected `box`, `cylinder`, `sphere`, `capsule` or `mesh`",
        ),
        (
            "bus b: cann {}".to_string(),
            "unknown bus kind; did you mean `can`?",
        ),
        (
            "bus b: usb {}".to_string(),
            "unknown bus kind; the only kind is `can`",
        ),
        (joint("bus: arm, model: RS02"), "actuator needs `can_id`"),
        (
            joint("bus: arm, can_id: 1, model: RS02, four_bar { sign: 1 }"),
            "four_bar needs `alpha_zero`",
        ),
        (
            "link l { zzzz: 1 }".to_string(),
            "unknown field `zzzz` in link; expected one of `inertial`, `visual`, `collision`",
        ),
        (
            "limb leg: left | right { lnk l {} }".to_string(),
            "a limb holds links, joints and sensors, not `lnk`; did you mean `link`?",
        ),
        (
            "jiont j {}".to_string(),
            "unknown item `jiont`; did you mean `joint`?",
        ),
    ];
    for (source, message) in cases {
        let out = with_header(&source);
        assert!(out.contains(message), "{source}: {out}");
    }
}
