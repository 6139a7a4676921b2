//! The one renderer: a [`Document`] as xacro, as xacro would expand it, or as plain XML.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use super::{Document, MAX_MACRO_DEPTH, Node, Value, XACRO_NAMESPACE};
use crate::EmitError;
use crate::format::xml_comment;
use robot_runtime::backend::XacroArgs;

/// How to write xacro constructs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keep them: the output is a `.xacro`, and the root binds the `xacro:` prefix.
    Xacro,
    /// Expand them as the real `xacro` would with these arg values.
    Expanded(XacroArgs),
    /// XML without xacro (MJCF): expanded with no args, so a switch in it is an error.
    Plain,
}

/// Writes the document, with two-space indentation and a trailing newline.
pub(crate) fn render(document: &Document, mode: Mode) -> Result<String, EmitError> {
    let args;
    let (expansion, xacro_namespace) = match mode {
        Mode::Xacro => (None, Some(("xmlns:xacro", XACRO_NAMESPACE))),
        Mode::Expanded(values) => {
            args = values.pairs();
            (Some(Expansion::new(&args)), None)
        }
        Mode::Plain => (Some(Expansion::new(&[])), None),
    };
    let mut renderer = Renderer {
        writer: Writer::new_with_indent(Vec::new(), b' ', 2),
        expansion,
        pending: None,
        depth: 0,
    };
    if document.declaration {
        renderer
            .writer
            .write_event(Event::Decl(BytesDecl::new("1.0", None, None)))?;
    }
    for comment in &document.comments {
        renderer.comment(comment)?;
    }
    let root = &document.root;
    let mut start = BytesStart::new(root.name);
    start.extend_attributes(xacro_namespace);
    renderer.push_attributes(&mut start, &root.attributes)?;
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
    /// Text args declared so far, with their defaults.
    texts: HashMap<&'t str, &'t str>,
    macros: HashMap<&'t str, &'t [Node]>,
}

impl<'t, 'a> Expansion<'t, 'a> {
    fn new(args: &'a [(&'static str, bool)]) -> Self {
        Expansion {
            args,
            declared: Vec::new(),
            texts: HashMap::new(),
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
                self.push_attributes(&mut start, &element.attributes)?;
                self.element(element.name, start, &element.children)
            }
            Node::Text(text) => {
                let text = literal(text, self.xacro());
                self.event(Event::Text(BytesText::new(&text)))
            }
            Node::Comment(text) => self.comment(text),
            Node::Arg { .. }
            | Node::TextArg { .. }
            | Node::ArgText { .. }
            | Node::If { .. }
            | Node::IfText { .. }
            | Node::Macro { .. }
            | Node::Call { .. } => {
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
            Node::TextArg { name, default } => {
                expansion.texts.insert(name.as_str(), default.as_str());
            }
            Node::ArgText { name } => {
                let Some(value) = expansion.texts.get(name.as_str()).copied() else {
                    return Err(invalid(format!(
                        "xacro arg `{name}` is used before it is declared"
                    )));
                };
                return self.event(Event::Text(BytesText::new(value)));
            }
            Node::If {
                arg,
                value,
                children,
            } => {
                if expansion.arg(arg)? == *value {
                    self.nodes(children)?;
                }
            }
            Node::IfText { name, children } => {
                let Some(value) = expansion.texts.get(name.as_str()).copied() else {
                    return Err(invalid(format!(
                        "xacro arg `{name}` is used before it is declared"
                    )));
                };
                if !value.is_empty() {
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
            Node::IfText { name, children } => {
                let tag = "xacro:if";
                let condition = format!("${{'$(arg {})' != ''}}", xml_name(name)?);
                let start = BytesStart::new(tag).with_attributes([("value", condition.as_str())]);
                self.element(tag, start, children)
            }
            Node::Arg { name, default } => {
                let default = if *default { "true" } else { "false" };
                let start = BytesStart::new("xacro:arg")
                    .with_attributes([("name", xml_name(name)?), ("default", default)]);
                self.event(Event::Empty(start))
            }
            Node::TextArg { name, default } => {
                let start = BytesStart::new("xacro:arg").with_attributes([
                    ("name", xml_name(name)?),
                    ("default", literal(default, true).as_ref()),
                ]);
                self.event(Event::Empty(start))
            }
            Node::ArgText { name } => {
                let text = format!("$(arg {})", xml_name(name)?);
                self.event(Event::Text(BytesText::new(&text)))
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

    fn push_attributes(
        &self,
        start: &mut BytesStart<'_>,
        attributes: &[(&'static str, Value)],
    ) -> io::Result<()> {
        let xacro = self.xacro();
        for (name, value) in attributes {
            let text = match (value, &self.expansion) {
                (Value::Text(text), _) => literal(text, xacro),
                (Value::ArgThen { arg, text }, None) => {
                    Cow::Owned(format!("$(arg {}){}", xml_name(arg)?, literal(text, true)))
                }
                (Value::ArgThen { arg, text }, Some(expansion)) => {
                    let Some(value) = expansion.texts.get(arg.as_str()) else {
                        return Err(invalid(format!(
                            "xacro arg `{arg}` is used before it is declared"
                        )));
                    };
                    Cow::Owned(format!("{value}{text}"))
                }
            };
            start.push_attribute((*name, text.as_ref()));
        }
        Ok(())
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
/// Expands `nodes` with `args`, as [`render`] does in expanded mode.
pub(super) fn expand(nodes: &[Node], args: &[(&'static str, bool)]) -> io::Result<Vec<u8>> {
    let mut renderer = Renderer {
        writer: Writer::new(Vec::new()),
        expansion: Some(Expansion::new(args)),
        pending: None,
        depth: 0,
    };
    renderer.nodes(nodes)?;
    Ok(renderer.writer.into_inner())
}
