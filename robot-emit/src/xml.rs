//! A small XML tree for every XML emitter (URDF and its xacro, MJCF, the scenes), and the one
//! renderer that writes it.
//!
//! Besides elements, text and comments the tree has the few xacro constructs the URDF needs:
//! `xacro:arg` declarations, conditionals on a boolean arg, text args used as text (a device path
//! a launch file sets) and parameterless macros. The renderer
//! writes a tree either as xacro ([`Mode::Xacro`]: conditionals and macros stay) or as xacro would
//! expand it ([`Mode::Expanded`]: conditionals evaluated, macro calls inlined, definitions and arg
//! declarations dropped). The `.urdf.xacro` and every `.<backend>.urdf` come from one tree, so they
//! cannot disagree. MJCF has no xacro: its trees are written as they are ([`Mode::Plain`]). In
//! expanded mode the renderer evaluates the xacro nodes as it writes, over the borrowed tree. All
//! writing goes through quick-xml's writer: each element writes its own start and end tags, so
//! they balance, and every attribute value and text is escaped.

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
    /// `<xacro:arg name="NAME" default="DEFAULT"/>` of a text arg (a device path), which a
    /// launch file sets; expanded, it is its default. Must come before its [`Node::ArgText`]s.
    TextArg { name: String, default: String },
    /// The text `$(arg NAME)` of a [`Node::TextArg`]; expanded, the arg's default.
    ArgText { name: String },
    /// `<xacro:if value="${'$(arg NAME)' != ''}">`: the children are kept when the text arg
    /// [`Node::TextArg`] is not empty (a param left out rather than given empty).
    IfText { name: String, children: Vec<Node> },
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

/// An attribute's value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// Text, written as it is (escaped).
    Text(String),
    /// A text arg's value, then text: `$(arg prefix)pelvis` as xacro; expanded, the arg's
    /// default before the text. The arg must be declared before the element.
    ArgThen { arg: String, text: String },
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_string())
    }
}

/// An element: a name, attributes in writing order, and children.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Element {
    /// The tag name; always one of ours, never user input.
    pub(crate) name: &'static str,
    /// Attributes, in writing order.
    pub(crate) attributes: Vec<(&'static str, Value)>,
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
    pub(crate) fn attr(mut self, name: &'static str, value: impl Into<Value>) -> Element {
        self.attributes.push((name, value.into()));
        self
    }

    /// Adds an attribute when there is a value.
    pub(crate) fn optional_attr(
        self,
        name: &'static str,
        value: Option<impl Into<Value>>,
    ) -> Element {
        match value {
            Some(value) => self.attr(name, value),
            None => self,
        }
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

/// A whole document: the XML declaration if any, comments, and the root element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Document {
    /// Whether the document opens with `<?xml version="1.0"?>` (the URDF files do, the MJCF files
    /// do not).
    pub(crate) declaration: bool,
    /// The comments written before the root, the "generated" header first.
    pub(crate) comments: Vec<String>,
    /// The root element.
    pub(crate) root: Element,
}

mod render;
#[cfg(test)]
mod tests;

pub(crate) use render::{Mode, render};
