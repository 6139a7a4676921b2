//! The renderer, in both modes, over small trees.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::render::expand;
use super::*;
use crate::read::{evaluate_xacro, plain};
use robot_runtime::backend::{SIM_MUJOCO_ARG, USE_MOCK_HARDWARE_ARG};

fn sample() -> Document {
    let root = Element::new("robot")
        .attr("name", "r")
        .child(Node::Arg {
            name: SIM_MUJOCO_ARG,
            default: false,
        })
        .child(Node::Arg {
            name: USE_MOCK_HARDWARE_ARG,
            default: false,
        })
        .child(Node::Macro {
            name: "parts".into(),
            children: vec![Element::new("part").text("x").into()],
        })
        .child(Node::when(
            SIM_MUJOCO_ARG,
            true,
            vec![Node::Call {
                name: "parts".into(),
            }],
        ))
        .child(Node::when(
            SIM_MUJOCO_ARG,
            false,
            vec![Element::new("empty").into()],
        ))
        .child(Node::comment("a -- b -"));
    Document {
        declaration: true,
        comments: vec!["cargo run -p x -- emit --checked-in".into()],
        root,
    }
}

fn expanded(sim_mujoco: bool) -> Mode {
    Mode::Expanded(robot_runtime::backend::XacroArgs {
        sim_mujoco,
        ..Default::default()
    })
}

#[test]
fn xacro_keeps_switches_and_macros() {
    let text = render(&sample(), Mode::Xacro).unwrap();
    assert_eq!(
        text,
        r#"<?xml version="1.0"?>
<!-- cargo run -p x - - emit - -checked-in -->
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r">
  <xacro:arg name="sim_mujoco" default="false"/>
  <xacro:arg name="use_mock_hardware" default="false"/>
  <xacro:macro name="parts" params="">
    <part>x</part>
  </xacro:macro>
  <xacro:if value="$(arg sim_mujoco)">
    <xacro:parts/>
  </xacro:if>
  <xacro:unless value="$(arg sim_mujoco)">
    <empty/>
  </xacro:unless>
  <!-- a - - b - -->
</robot>
"#
    );
}

#[test]
fn expansion_evaluates_switches_and_inlines_macros() {
    let on = render(&sample(), expanded(true)).unwrap();
    assert!(
        on.contains("<robot name=\"r\">\n  <part>x</part>\n  <!--"),
        "{on}"
    );
    let off = render(&sample(), expanded(false)).unwrap();
    assert!(
        off.contains("<robot name=\"r\">\n  <empty/>\n  <!--"),
        "{off}"
    );
    for text in [on, off] {
        assert!(!text.contains("xacro"), "{text}");
    }
    let xacro = render(&sample(), Mode::Xacro).unwrap();
    for sim in [false, true] {
        let args = [(SIM_MUJOCO_ARG, sim), (USE_MOCK_HARDWARE_ARG, false)];
        assert_eq!(
            evaluate_xacro(&xacro, &args),
            plain(&render(&sample(), expanded(sim)).unwrap())
        );
    }
}

#[test]
fn an_element_is_empty_when_its_children_expand_to_nothing() {
    let only_on = |node: Node| Node::when(SIM_MUJOCO_ARG, true, vec![node]);
    let root = Element::new("robot")
        .child(Node::Arg {
            name: SIM_MUJOCO_ARG,
            default: false,
        })
        .child(Element::new("hardware").child(only_on(Element::new("plugin").into())))
        .child(Element::new("p").child(only_on(Node::Text("t".into()))));
    let document = Document {
        declaration: true,
        comments: vec![String::new()],
        root,
    };
    let on = render(&document, expanded(true)).unwrap();
    assert!(
        on.contains("<robot>\n  <hardware>\n    <plugin/>\n  </hardware>\n  <p>t</p>\n</robot>"),
        "{on}"
    );
    let off = render(&document, expanded(false)).unwrap();
    assert!(
        off.contains("<robot>\n  <hardware/>\n  <p/>\n</robot>"),
        "{off}"
    );
}

#[test]
fn values_and_text_are_escaped() {
    let odd = r#"a&b<c>"d"'e"#;
    let root = Element::new("robot")
        .attr("name", odd)
        .child(Element::new("param").text(odd));
    let document = Document {
        declaration: true,
        comments: vec![String::new()],
        root,
    };
    for mode in [Mode::Xacro, expanded(false)] {
        let text = render(&document, mode).unwrap();
        assert!(text.contains("&amp;b&lt;c&gt;"), "{text}");
        let parsed = roxmltree::Document::parse(&text).unwrap();
        let root = parsed.root_element();
        assert_eq!(root.attribute("name"), Some(odd));
        assert_eq!(root.first_element_child().and_then(|p| p.text()), Some(odd));
    }
}

#[test]
fn xacro_substitutions_in_data_are_kept_literal() {
    let root = Element::new("robot")
        .attr("name", "${x}")
        .child(Element::new("p").text("$(arg y) $${z}"));
    let document = Document {
        declaration: true,
        comments: vec![String::new()],
        root,
    };
    let text = render(&document, Mode::Xacro).unwrap();
    assert!(
        text.contains(r#"name="$${x}""#) && text.contains("<p>$$(arg y) $$${z}</p>"),
        "{text}"
    );
    let text = render(&document, expanded(false)).unwrap();
    assert!(
        text.contains(r#"name="${x}""#) && text.contains("<p>$(arg y) $${z}</p>"),
        "{text}"
    );
}

#[test]
fn expansion_rejects_what_xacro_would() {
    let call = Node::Call {
        name: "later".into(),
    };
    let define = Node::Macro {
        name: "later".into(),
        children: vec![],
    };
    assert!(expand(&[call.clone(), define.clone()], &[]).is_err());
    assert!(expand(&[define, call], &[]).is_ok());
    let switch = Node::when(SIM_MUJOCO_ARG, true, vec![]);
    let args = [(SIM_MUJOCO_ARG, true)];
    assert!(
        expand(std::slice::from_ref(&switch), &args).is_err(),
        "undeclared arg"
    );
    let declare = Node::Arg {
        name: SIM_MUJOCO_ARG,
        default: false,
    };
    assert!(expand(&[declare.clone(), switch.clone()], &args).is_ok());
    assert!(
        expand(&[declare, switch], &[]).is_err(),
        "arg without value"
    );
    let recursive = vec![
        Node::Macro {
            name: "again".into(),
            children: vec![Node::Call {
                name: "again".into(),
            }],
        },
        Node::Call {
            name: "again".into(),
        },
    ];
    assert!(expand(&recursive, &[]).is_err());
    let bad_name = Document {
        declaration: true,
        comments: vec![String::new()],
        root: Element::new("r").child(Node::Call { name: "a b".into() }),
    };
    assert!(render(&bad_name, Mode::Xacro).is_err());
}

#[test]
fn plain_xml_has_no_declaration_and_no_switches() {
    let document = Document {
        declaration: false,
        comments: vec!["first".into(), "second".into()],
        root: Element::new("mujoco")
            .attr("model", "m")
            .child(Element::new("worldbody").child(Element::new("body"))),
    };
    assert_eq!(
        render(&document, Mode::Plain).unwrap(),
        r#"<!-- first -->
<!-- second -->
<mujoco model="m">
  <worldbody>
    <body/>
  </worldbody>
</mujoco>
"#
    );
    let switched = Document {
        root: Element::new("mujoco").child(Node::when(SIM_MUJOCO_ARG, true, vec![])),
        ..document
    };
    assert!(render(&switched, Mode::Plain).is_err());
}
