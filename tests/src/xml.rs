//! XML compared as a URDF consumer reads it: what the real `xacro` writes against what we emit
//! (xacro sorts attributes and changes layout, so text comparison would fail on equal documents).
#![allow(clippy::expect_used)] // test support: a panic is the failure report

use std::path::Path;

/// An XML element reduced to what a URDF consumer sees: name, attributes (sorted; namespace
/// declarations dropped), trimmed non-empty text, child elements. Comments and layout are gone.
#[derive(Debug, PartialEq)]
pub struct Element {
    /// Tag name, without namespace.
    pub name: String,
    /// Sorted by name.
    pub attributes: Vec<(String, String)>,
    /// The element's own text, trimmed.
    pub text: String,
    /// Child elements.
    pub children: Vec<Element>,
}

/// `node` as an [`Element`].
pub fn canonical(node: roxmltree::Node) -> Element {
    let mut attributes: Vec<(String, String)> = node
        .attributes()
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect();
    attributes.sort();
    let text = node
        .children()
        .filter(|c| c.is_text())
        .filter_map(|c| c.text())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("");
    Element {
        name: node.tag_name().name().to_string(),
        attributes,
        text,
        children: node
            .children()
            .filter(|c| c.is_element())
            .map(canonical)
            .collect(),
    }
}

/// The root element of the XML file at `path`; panics naming the file when it is not XML.
pub fn parse(path: &Path) -> Element {
    let text = std::fs::read_to_string(path).expect("read XML");
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
    canonical(doc.root_element())
}

/// The first place two trees differ, as a path, for a readable failure.
pub fn first_difference(a: &Element, b: &Element, path: &str) -> Option<String> {
    let here = format!("{path}/{}", a.name);
    if a.name != b.name || a.attributes != b.attributes || a.text != b.text {
        return Some(format!(
            "{here}: {:?} {:?} {:?} vs {} {:?} {:?}",
            a.attributes, a.text, "", b.name, b.attributes, b.text
        ));
    }
    if a.children.len() != b.children.len() {
        return Some(format!(
            "{here}: {} children vs {}",
            a.children.len(),
            b.children.len()
        ));
    }
    a.children
        .iter()
        .zip(&b.children)
        .find_map(|(x, y)| first_difference(x, y, &here))
}
