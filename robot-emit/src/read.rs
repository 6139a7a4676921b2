//! Reading emitted XML back in tests: a plain tree, and a small xacro evaluator.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use crate::xml::XACRO_NAMESPACE;

/// A parsed element reduced to what consumers see: name, sorted attributes, child elements and
/// trimmed text; comments and whitespace dropped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plain {
    Element {
        name: String,
        attributes: Vec<(String, String)>,
        children: Vec<Plain>,
    },
    Text(String),
}

fn attributes(node: roxmltree::Node<'_, '_>) -> Vec<(String, String)> {
    let mut attributes: Vec<(String, String)> = node
        .attributes()
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect();
    attributes.sort();
    attributes
}

/// The root element of a non-xacro document, as [`Plain`].
pub(crate) fn plain(text: &str) -> Plain {
    let document = roxmltree::Document::parse(text).expect("well-formed XML");
    let mut out = Vec::new();
    let context = Context {
        args: &[],
        defaults: HashMap::new(),
    };
    evaluate(
        document.root_element(),
        &context,
        &mut HashMap::new(),
        &mut out,
    );
    out.pop().expect("a root element")
}

/// The root element of a xacro document, evaluated with `args` by a minimal xacro (if, unless,
/// arg, `$(arg NAME)` text taking the arg's default, and parameterless macros), independent of
/// the renderer's own expansion.
pub(crate) fn evaluate_xacro(text: &str, args: &[(&str, bool)]) -> Plain {
    let document = roxmltree::Document::parse(text).expect("well-formed XML");
    let defaults: HashMap<String, String> = document
        .root_element()
        .children()
        .filter(|c| c.tag_name().namespace() == Some(XACRO_NAMESPACE))
        .filter(|c| c.tag_name().name() == "arg")
        .map(|c| {
            (
                c.attribute("name").unwrap().to_string(),
                c.attribute("default").unwrap_or("").to_string(),
            )
        })
        .collect();
    let mut out = Vec::new();
    let context = Context { args, defaults };
    evaluate(
        document.root_element(),
        &context,
        &mut HashMap::new(),
        &mut out,
    );
    out.pop().expect("a root element")
}

struct Context<'a> {
    /// The switches set.
    args: &'a [(&'a str, bool)],
    /// Every arg's default, for the text args.
    defaults: HashMap<String, String>,
}

impl Context<'_> {
    /// `text` with every `$(arg NAME)` replaced by the arg's default.
    fn substitute(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("$(arg ") {
            out.push_str(&rest[..start]);
            let after = &rest[start + "$(arg ".len()..];
            let end = after.find(')').expect("a closed $(arg …)");
            out.push_str(&self.defaults[&after[..end]]);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out
    }
}

fn evaluate<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    context: &Context<'_>,
    macros: &mut HashMap<String, roxmltree::Node<'a, 'i>>,
    out: &mut Vec<Plain>,
) {
    let args = context.args;
    if node.is_text() {
        let text = context.substitute(node.text().unwrap_or("").trim());
        if !text.is_empty() {
            out.push(Plain::Text(text));
        }
        return;
    }
    if !node.is_element() {
        return;
    }
    let children = |macros: &mut HashMap<_, _>, out: &mut Vec<Plain>| {
        for child in node.children() {
            evaluate(child, context, macros, out);
        }
    };
    let tag = node.tag_name();
    if tag.namespace() == Some(XACRO_NAMESPACE) {
        match tag.name() {
            "arg" => {}
            "macro" => {
                macros.insert(node.attribute("name").unwrap().to_string(), node);
            }
            "if" if node
                .attribute("value")
                .is_some_and(|v| v.starts_with("${'") && v.ends_with("' != ''}")) =>
            {
                // A text arg's test: kept when the arg (its default here) is not empty.
                let value = node.attribute("value").unwrap();
                let text = context.substitute(&value[3..value.len() - 8]);
                if !text.is_empty() {
                    children(macros, out);
                }
            }
            kind @ ("if" | "unless") => {
                let value = node.attribute("value").unwrap();
                let arg = value
                    .strip_prefix("$(arg ")
                    .and_then(|v| v.strip_suffix(')'))
                    .unwrap();
                let (_, set) = args.iter().find(|(name, _)| *name == arg).unwrap();
                if *set == (kind == "if") {
                    children(macros, out);
                }
            }
            call => {
                let body = *macros
                    .get(call)
                    .unwrap_or_else(|| panic!("macro `{call}` undefined"));
                for child in body.children() {
                    evaluate(child, context, macros, out);
                }
            }
        }
        return;
    }
    let mut inner = Vec::new();
    children(macros, &mut inner);
    out.push(Plain::Element {
        name: tag.name().to_string(),
        attributes: attributes(node)
            .into_iter()
            .map(|(name, value)| (name, context.substitute(&value)))
            .collect(),
        children: inner,
    });
}

/// The `<param name="…">value</param>` children of an element, in order.
pub(crate) fn params(node: roxmltree::Node<'_, '_>) -> Vec<(String, String)> {
    node.children()
        .filter(|c| c.has_tag_name("param"))
        .map(|p| {
            (
                p.attribute("name").unwrap().to_string(),
                p.text().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The `name` attributes of the children with that tag, in order.
pub(crate) fn named(node: roxmltree::Node<'_, '_>, tag: &str) -> Vec<String> {
    node.children()
        .filter(|c| c.has_tag_name(tag))
        .map(|c| c.attribute("name").unwrap().to_string())
        .collect()
}

/// The first child with that tag.
pub(crate) fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> roxmltree::Node<'a, 'i> {
    node.children()
        .find(|c| c.has_tag_name(tag))
        .unwrap_or_else(|| panic!("no <{tag}> in <{}>", node.tag_name().name()))
}
