//! A small XML tree for the XML emitters, and the one renderer that writes it.
//!
//! Besides elements, text and comments the tree has the few xacro constructs our emitters need:
//! `xacro:arg` declarations, conditionals on a boolean arg and parameterless macros. The renderer
//! writes a tree either as xacro ([`Mode::Xacro`]: conditionals and macros stay) or as xacro would
//! expand it ([`Mode::Expanded`]: conditionals evaluated, macro calls inlined, definitions and arg
//! declarations dropped). The `.urdf.xacro` and every `.<backend>.urdf` come from one tree, so they
//! cannot disagree. In expanded mode the renderer evaluates the xacro nodes as it writes, over the
//! borrowed tree. All writing goes through quick-xml's writer: each element writes its own start
//! and end tags, so they balance, and every attribute value and text is escaped.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use super::EmitError;
use super::format::xml_comment;
use crate::backend::{SIM_MUJOCO_ARG, USE_MOCK_HARDWARE_ARG};

/// The namespace the `xacro:` prefix is bound to.
pub(crate) const XACRO_NAMESPACE: &str = "http://www.ros.org/wiki/xacro";

/// Macro inlining deeper than this is a macro that calls itself.
const MAX_MACRO_DEPTH: usize = 32;

/// A node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// An element.
    Element(Element),
    /// Text content.
    Text(String),
    /// A comment; `--` is broken up on output ([`xml_comment`]), as XML forbids it in comments.
    Comment(String),
    /// `<xacro:if value="$(arg ARG)">` when `value` is true, `<xacro:unless ...>` when false: the
    /// children are kept when the arg equals `value`.
    If {
        arg: &'static str,
        value: bool,
        children: Vec<Node>,
    },
    /// `<xacro:arg name="NAME" default="..."/>`; must come before any [`Node::If`] on it.
    Arg { name: &'static str, default: bool },
    /// `<xacro:macro name="NAME" params="">`; must come before its calls.
    Macro { name: String, children: Vec<Node> },
    /// `<xacro:NAME/>`, a call of a parameterless macro.
    Call { name: String },
}

impl Node {
    /// A comment.
    pub(crate) fn comment(text: impl Into<String>) -> Node {
        Node::Comment(text.into())
    }

    /// Children kept when `arg` is `value`.
    pub(crate) fn when(arg: &'static str, value: bool, children: Vec<Node>) -> Node {
        Node::If {
            arg,
            value,
            children,
        }
    }
}

/// An element: a name, attributes in writing order, and children.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Element {
    /// The tag name; always one of ours, never user input.
    pub(crate) name: &'static str,
    /// Attributes, in writing order.
    pub(crate) attributes: Vec<(&'static str, String)>,
    /// Child nodes.
    pub(crate) children: Vec<Node>,
}

impl Element {
    /// An element with no attributes and no children.
    pub(crate) fn new(name: &'static str) -> Element {
        Element {
            name,
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Adds an attribute.
    pub(crate) fn attr(mut self, name: &'static str, value: impl Into<String>) -> Element {
        self.attributes.push((name, value.into()));
        self
    }

    /// Adds a child.
    pub(crate) fn child(mut self, child: impl Into<Node>) -> Element {
        self.children.push(child.into());
        self
    }

    /// Adds children.
    pub(crate) fn children<N: Into<Node>>(
        mut self,
        children: impl IntoIterator<Item = N>,
    ) -> Element {
        self.children.extend(children.into_iter().map(Into::into));
        self
    }

    /// Adds text content.
    pub(crate) fn text(self, text: impl Into<String>) -> Element {
        self.child(Node::Text(text.into()))
    }
}

impl From<Element> for Node {
    fn from(element: Element) -> Node {
        Node::Element(element)
    }
}

/// A whole document: the XML declaration, a leading comment, and the root element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Document {
    /// The comment written before the root (the "generated" header).
    pub(crate) comment: String,
    /// The root element.
    pub(crate) root: Element,
}

/// How to write xacro constructs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keep them: the output is a `.xacro`, and the root binds the `xacro:` prefix.
    Xacro,
    /// Expand them as the real `xacro` would with these arg values.
    Expanded {
        /// Value of the `sim_mujoco` arg.
        sim_mujoco: bool,
        /// Value of the `use_mock_hardware` arg.
        use_mock_hardware: bool,
    },
}

/// Writes the document, with two-space indentation and a trailing newline.
pub(crate) fn render(document: &Document, mode: Mode) -> Result<String, EmitError> {
    let args;
    let (expansion, xacro_namespace) = match mode {
        Mode::Xacro => (None, Some(("xmlns:xacro", XACRO_NAMESPACE))),
        Mode::Expanded {
            sim_mujoco,
            use_mock_hardware,
        } => {
            args = [
                (SIM_MUJOCO_ARG, sim_mujoco),
                (USE_MOCK_HARDWARE_ARG, use_mock_hardware),
            ];
            (Some(Expansion::new(&args)), None)
        }
    };
    let mut renderer = Renderer {
        writer: Writer::new_with_indent(Vec::new(), b' ', 2),
        expansion,
        pending: None,
        depth: 0,
    };
    renderer
        .writer
        .write_event(Event::Decl(BytesDecl::new("1.0", None, None)))?;
    renderer.comment(&document.comment)?;
    let root = &document.root;
    let mut start = BytesStart::new(root.name);
    start.extend_attributes(xacro_namespace);
    renderer.push_attributes(&mut start, &root.attributes);
    renderer.element(root.name, start, &root.children)?;
    let mut text = String::from_utf8(renderer.writer.into_inner())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    text.push('\n');
    Ok(text)
}

/// Writes a borrowed tree. In expanded mode the xacro nodes are evaluated on the way, in
/// document order as xacro does (so a use before its definition fails here too), rather than
/// first copying the tree into an expanded one.
struct Renderer<'t, 'a> {
    writer: Writer<Vec<u8>>,
    /// `None`: write xacro as xacro.
    expansion: Option<Expansion<'t, 'a>>,
    /// The start tag of the element being written, until its first child is: whether it is
    /// written `<a/>` or `<a>…</a>` is only known once its children are expanded.
    pending: Option<BytesStart<'static>>,
    /// How many macro calls are being expanded.
    depth: usize,
}

/// What expansion has seen so far: declared args and defined macros.
struct Expansion<'t, 'a> {
    args: &'a [(&'static str, bool)],
    declared: Vec<&'static str>,
    macros: HashMap<&'t str, &'t [Node]>,
}

impl<'t, 'a> Expansion<'t, 'a> {
    fn new(args: &'a [(&'static str, bool)]) -> Self {
        Expansion {
            args,
            declared: Vec::new(),
            macros: HashMap::new(),
        }
    }

    fn arg(&self, name: &'static str) -> io::Result<bool> {
        let value = self
            .args
            .iter()
            .find(|(arg, _)| *arg == name)
            .map(|&(_, value)| value);
        match value {
            Some(value) if self.declared.contains(&name) => Ok(value),
            Some(_) => Err(invalid(format!(
                "xacro arg `{name}` is used before it is declared"
            ))),
            None => Err(invalid(format!("xacro arg `{name}` has no value"))),
        }
    }
}

impl<'t> Renderer<'t, '_> {
    fn nodes(&mut self, nodes: &'t [Node]) -> io::Result<()> {
        for node in nodes {
            self.node(node)?;
        }
        Ok(())
    }

    fn node(&mut self, node: &'t Node) -> io::Result<()> {
        match node {
            Node::Element(element) => {
                let mut start = BytesStart::new(element.name);
                self.push_attributes(&mut start, &element.attributes);
                self.element(element.name, start, &element.children)
            }
            Node::Text(text) => {
                let text = literal(text, self.xacro());
                self.event(Event::Text(BytesText::new(&text)))
            }
            Node::Comment(text) => self.comment(text),
            Node::Arg { .. } | Node::If { .. } | Node::Macro { .. } | Node::Call { .. } => {
                if self.xacro() {
                    self.xacro_node(node)
                } else {
                    self.expand(node)
                }
            }
        }
    }

    fn xacro(&self) -> bool {
        self.expansion.is_none()
    }

    /// A xacro construct, evaluated: what it expands to is written in its place.
    fn expand(&mut self, node: &'t Node) -> io::Result<()> {
        let Some(expansion) = &mut self.expansion else {
            return self.xacro_node(node);
        };
        match node {
            Node::Arg { name, .. } => expansion.declared.push(*name),
            Node::If {
                arg,
                value,
                children,
            } => {
                if expansion.arg(arg)? == *value {
                    self.nodes(children)?;
                }
            }
            Node::Macro { name, children } => {
                expansion.macros.insert(name.as_str(), children);
            }
            Node::Call { name } => {
                let Some(body) = expansion.macros.get(name.as_str()).copied() else {
                    return Err(invalid(format!(
                        "xacro macro `{name}` is called before it is defined"
                    )));
                };
                if self.depth >= MAX_MACRO_DEPTH {
                    return Err(invalid(format!("xacro macro `{name}` calls itself")));
                }
                self.depth += 1;
                self.nodes(body)?;
                self.depth -= 1;
            }
            // Not xacro constructs: `node` writes them.
            Node::Element(_) | Node::Text(_) | Node::Comment(_) => {}
        }
        Ok(())
    }

    /// A xacro construct, written as xacro.
    fn xacro_node(&mut self, node: &'t Node) -> io::Result<()> {
        match node {
            Node::If {
                arg,
                value,
                children,
            } => {
                let tag = if *value { "xacro:if" } else { "xacro:unless" };
                let condition = format!("$(arg {})", xml_name(arg)?);
                let start = BytesStart::new(tag).with_attributes([("value", condition.as_str())]);
                self.element(tag, start, children)
            }
            Node::Arg { name, default } => {
                let default = if *default { "true" } else { "false" };
                let start = BytesStart::new("xacro:arg")
                    .with_attributes([("name", xml_name(name)?), ("default", default)]);
                self.event(Event::Empty(start))
            }
            Node::Macro { name, children } => {
                let tag = "xacro:macro";
                let start = BytesStart::new(tag)
                    .with_attributes([("name", xml_name(name)?), ("params", "")]);
                self.element(tag, start, children)
            }
            Node::Call { name } => {
                let tag = format!("xacro:{}", xml_name(name)?);
                self.event(Event::Empty(BytesStart::new(tag)))
            }
            // Not xacro constructs: `node` writes them.
            Node::Element(_) | Node::Text(_) | Node::Comment(_) => Ok(()),
        }
    }

    fn push_attributes(&self, start: &mut BytesStart<'_>, attributes: &[(&'static str, String)]) {
        let xacro = self.xacro();
        for (name, value) in attributes {
            start.push_attribute((*name, literal(value, xacro).as_ref()));
        }
    }

    /// An element `name` with the tag `start`: `<name …/>` if its children come to nothing.
    fn element(
        &mut self,
        name: &'static str,
        start: BytesStart<'static>,
        children: &'t [Node],
    ) -> io::Result<()> {
        self.flush()?;
        self.pending = Some(start);
        self.nodes(children)?;
        // Still pending: no child wrote anything (a nested element resolves its own).
        match self.pending.take() {
            Some(start) => self.writer.write_event(Event::Empty(start)),
            None => self.writer.write_event(Event::End(BytesEnd::new(name))),
        }
    }

    fn comment(&mut self, text: &str) -> io::Result<()> {
        self.event(Event::Comment(BytesText::from_escaped(xml_comment(text))))
    }

    /// Writes `event` inside the pending element, opening it first.
    fn event(&mut self, event: Event<'_>) -> io::Result<()> {
        self.flush()?;
        self.writer.write_event(event)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.pending.take() {
            Some(start) => self.writer.write_event(Event::Start(start)),
            None => Ok(()),
        }
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Text xacro reads literally: xacro evaluates `${…}` and `$(…)` and turns `$${`/`$$(` into
/// `${`/`$(`, so one more `$` before such a brace keeps the text as written.
fn literal(text: &str, xacro: bool) -> Cow<'_, str> {
    if xacro && (text.contains("${") || text.contains("$(")) {
        Cow::Owned(text.replace("${", "$${").replace("$(", "$$("))
    } else {
        Cow::Borrowed(text)
    }
}

/// Macro and arg names become tag names and `$(arg …)` text, so they must be plain XML names.
fn xml_name(name: &str) -> io::Result<&str> {
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if valid {
        Ok(name)
    } else {
        Err(invalid(format!("`{name}` is not a valid xacro name")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::emit::fixture::read::{evaluate_xacro, plain};

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
            comment: "cargo run -p x -- emit --checked-in".into(),
            root,
        }
    }

    fn expanded(sim_mujoco: bool) -> Mode {
        Mode::Expanded {
            sim_mujoco,
            use_mock_hardware: false,
        }
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
            comment: String::new(),
            root,
        };
        let on = render(&document, expanded(true)).unwrap();
        assert!(
            on.contains(
                "<robot>\n  <hardware>\n    <plugin/>\n  </hardware>\n  <p>t</p>\n</robot>"
            ),
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
            comment: String::new(),
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
            comment: String::new(),
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

    /// Expands `nodes` with `args`, as [`render`] does in expanded mode.
    fn expand(nodes: &[Node], args: &[(&'static str, bool)]) -> io::Result<Vec<u8>> {
        let mut renderer = Renderer {
            writer: Writer::new(Vec::new()),
            expansion: Some(Expansion::new(args)),
            pending: None,
            depth: 0,
        };
        renderer.nodes(nodes)?;
        Ok(renderer.writer.into_inner())
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
            comment: String::new(),
            root: Element::new("r").child(Node::Call { name: "a b".into() }),
        };
        assert!(render(&bad_name, Mode::Xacro).is_err());
    }
}
