//! The token grammar of `robot!`: items of `keyword name [: kind] { entries }`, entries of
//! `key: value` or `key [kind] { entries }`, and values (numbers with optional units, names,
//! strings, booleans, lists, blocks, per-side alternatives `a | b`).
//!
//! This layer knows no robot vocabulary but `limb` (whose braces hold items, not entries);
//! [`crate::lower`] gives the entries their meaning, so every "unknown field" or "expected a
//! number" error is produced in one place with the token's span.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Attribute, Ident, LitBool, LitStr, Token, braced, bracketed};

use crate::kw;

/// The whole invocation.
pub struct Input {
    pub items: Vec<Item>,
}

/// A top-level (or limb-level) item.
#[derive(Clone)]
pub struct Item {
    /// Doc comments and other outer attributes.
    pub attrs: Vec<Attribute>,
    /// One of `kw::ITEMS`, or an unknown word, which the lowering reports.
    pub keyword: Ident,
    pub name: Ident,
    /// After a colon: a joint's type, a limb's sides.
    pub kind: Option<Value>,
    /// A limb's `, mirror: y` after its sides: the word and the axis, as written.
    pub mirror: Option<(Ident, Ident)>,
    pub body: Body,
}

/// What an item's braces hold.
#[derive(Clone)]
pub enum Body {
    Entries(Block),
    /// A limb holds items.
    Items(Vec<Item>),
}

/// `{ entry, entry, ... }`
#[derive(Clone)]
pub struct Block {
    pub span: Span,
    pub entries: Vec<Entry>,
}

/// `key: value`, or `key [kind] { ... }`.
#[derive(Clone)]
pub struct Entry {
    pub key: Ident,
    /// `box` in `collision box { ... }`.
    pub kind: Option<Ident>,
    pub value: Value,
}

/// A value.
#[derive(Clone)]
pub enum Value {
    /// A number, already converted to SI by its unit (`deg`, `mm`, ...).
    Number {
        value: f64,
        integer: Option<i128>,
        span: Span,
        /// The unit written, if any, for the field to check its dimension.
        unit: Option<Unit>,
    },
    Ident(Ident),
    Str(LitStr),
    Bool(LitBool),
    List {
        items: Vec<Value>,
        span: Span,
    },
    Block(Block),
    /// `name = value` inside an interface list: an initial value.
    Assign {
        name: Ident,
        value: Box<Value>,
    },
    /// `a | b`: one alternative per side of the enclosing limb.
    Sided {
        alternatives: Vec<Value>,
        span: Span,
    },
}

impl Value {
    pub fn span(&self) -> Span {
        match self {
            Value::Number { span, .. } | Value::List { span, .. } | Value::Sided { span, .. } => {
                *span
            }
            Value::Ident(ident) => ident.span(),
            Value::Str(lit) => lit.span(),
            Value::Bool(lit) => lit.span,
            Value::Block(block) => block.span,
            Value::Assign { name, .. } => name.span(),
        }
    }

    /// An error under the whole value. For `a | b` that is the range from the first alternative
    /// to the last: `Span::join` is unstable, but rustc underlines a `compile_error!` from its
    /// first token to its last, and `syn::Error::new_spanned` builds it so.
    pub fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        match self {
            Value::Sided { alternatives, .. } if alternatives.len() > 1 => {
                let first = Ident::new("first", alternatives[0].span());
                let last = Ident::new("last", alternatives[alternatives.len() - 1].span());
                syn::Error::new_spanned(quote::quote!(#first #last), message)
            }
            other => syn::Error::new(other.span(), message),
        }
    }

    /// What the value is, for "expected X, found Y" messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Number { .. } => "a number",
            Value::Ident(_) => "a name",
            Value::Str(_) => "a string",
            Value::Bool(_) => "a boolean",
            Value::List { .. } => "a list",
            Value::Block(_) => "a block",
            Value::Assign { .. } => "an assignment",
            Value::Sided { .. } => "per-side values",
        }
    }
}

/// What a unit measures. A number keeps its unit's dimension, so that a field checks it: a
/// length on a revolute joint's limit is an error, not a silent `1 mm` = 0.001 rad.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dimension {
    Angle,
    Length,
    Mass,
    Frequency,
    /// A share of something: `%`.
    Ratio,
    AngularVelocity,
    Velocity,
    Torque,
    Force,
}

impl Dimension {
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Angle => "angle",
            Dimension::Length => "length",
            Dimension::Mass => "mass",
            Dimension::Frequency => "frequency",
            Dimension::Ratio => "ratio",
            Dimension::AngularVelocity => "angular velocity",
            Dimension::Velocity => "velocity",
            Dimension::Torque => "torque",
            Dimension::Force => "force",
        }
    }
}

/// The unit a number was written with.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub name: &'static str,
    pub dimension: Dimension,
    pub span: Span,
}

/// Units a number may carry: name, factor to SI, dimension. A table, not `kw` words: each unit
/// carries its factor and dimension, and a near miss (`dge`) is told the closest name in it.
const UNITS: &[(&str, f64, Dimension)] = &[
    ("rad", 1.0, Dimension::Angle),
    ("deg", std::f64::consts::PI / 180.0, Dimension::Angle),
    ("m", 1.0, Dimension::Length),
    ("mm", 1e-3, Dimension::Length),
    ("kg", 1.0, Dimension::Mass),
    ("g", 1e-3, Dimension::Mass),
    ("Hz", 1.0, Dimension::Frequency),
    (
        "rpm",
        std::f64::consts::TAU / 60.0,
        Dimension::AngularVelocity,
    ),
    ("N", 1.0, Dimension::Force),
    ("Nm", 1.0, Dimension::Torque),
    ("N·m", 1.0, Dimension::Torque),
];

/// Units written `<unit>/s`: the unit before the slash, and what the pair is.
const PER_SECOND: &[(&str, &str, f64, Dimension)] = &[
    ("rad", "rad/s", 1.0, Dimension::AngularVelocity),
    (
        "deg",
        "deg/s",
        std::f64::consts::PI / 180.0,
        Dimension::AngularVelocity,
    ),
    ("m", "m/s", 1.0, Dimension::Velocity),
    ("mm", "mm/s", 1e-3, Dimension::Velocity),
];

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse()?);
        }
        Ok(Input { items })
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let is_limb = input.peek(kw::limb);
        let keyword: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let kind = if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            Some(parse_value(input)?)
        } else {
            None
        };
        // `limb leg: left | right, mirror: y { .. }`; the words are checked by the limb.
        let mirror = if is_limb && input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            let word: Ident = input.call(syn::ext::IdentExt::parse_any)?;
            input.parse::<Token![:]>()?;
            let axis: Ident = input.call(syn::ext::IdentExt::parse_any)?;
            Some((word, axis))
        } else {
            None
        };
        let content;
        let brace = braced!(content in input);
        let body = if is_limb {
            let mut items = Vec::new();
            while !content.is_empty() {
                items.push(content.parse()?);
            }
            Body::Items(items)
        } else {
            Body::Entries(parse_entries(&content, brace.span.join())?)
        };
        // A `;` or `,` after an item is tolerated, as people will type it.
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
        } else if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        }
        Ok(Item {
            attrs,
            keyword,
            name,
            kind,
            mirror,
            body,
        })
    }
}

fn parse_entries(input: ParseStream, span: Span) -> syn::Result<Block> {
    let mut entries = Vec::new();
    while !input.is_empty() {
        let key: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let entry = if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            Entry {
                key,
                kind: None,
                value: parse_value(input)?,
            }
        } else {
            let kind = if input.peek(syn::token::Brace) {
                None
            } else {
                Some(input.call(syn::ext::IdentExt::parse_any)?)
            };
            let content;
            let brace = braced!(content in input);
            let block = parse_entries(&content, brace.span.join())?;
            Entry {
                key,
                kind,
                value: Value::Block(block),
            }
        };
        entries.push(entry);
        if input.is_empty() {
            break;
        }
        // Blocks need no comma after them; values do.
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        } else if !matches!(entries.last().map(|e| &e.value), Some(Value::Block(_))) {
            return Err(input.error("expected `,` between fields"));
        }
    }
    Ok(Block { span, entries })
}

/// A value with optional per-side alternatives: `a | b | ...`.
pub fn parse_value(input: ParseStream) -> syn::Result<Value> {
    let first = parse_single(input)?;
    if !input.peek(Token![|]) {
        return Ok(first);
    }
    let mut span = first.span();
    let mut alternatives = vec![first];
    while input.peek(Token![|]) {
        input.parse::<Token![|]>()?;
        let next = parse_single(input)?;
        span = span.join(next.span()).unwrap_or(span);
        alternatives.push(next);
    }
    Ok(Value::Sided { alternatives, span })
}

fn parse_single(input: ParseStream) -> syn::Result<Value> {
    if input.peek(Token![-]) || input.peek(syn::LitInt) || input.peek(syn::LitFloat) {
        return parse_number(input);
    }
    if input.peek(LitStr) {
        return Ok(Value::Str(input.parse()?));
    }
    if input.peek(LitBool) {
        return Ok(Value::Bool(input.parse()?));
    }
    if input.peek(syn::token::Bracket) {
        let content;
        let bracket = bracketed!(content in input);
        let mut items = Vec::new();
        while !content.is_empty() {
            items.push(parse_value(&content)?);
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        return Ok(Value::List {
            items,
            span: bracket.span.join(),
        });
    }
    if input.peek(syn::token::Brace) {
        let content;
        let brace = braced!(content in input);
        return Ok(Value::Block(parse_entries(&content, brace.span.join())?));
    }
    if input.peek(Ident::peek_any) {
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if input.peek(Token![=]) && !input.peek(Token![==]) {
            input.parse::<Token![=]>()?;
            let value = parse_single(input)?;
            return Ok(Value::Assign {
                name,
                value: Box::new(value),
            });
        }
        return Ok(Value::Ident(name));
    }
    Err(input
        .error("expected a value: a number, a name, a string, `true`/`false`, `[...]` or `{...}`"))
}

/// Whether `/ s` comes next (`deg/s`).
fn is_per_second(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.parse::<Token![/]>().is_ok() && fork.parse::<Ident>().is_ok_and(|s| s == "s")
}

fn parse_number(input: ParseStream) -> syn::Result<Value> {
    let minus: Option<Token![-]> = input.parse()?;
    let (mut value, integer, span) = if input.peek(syn::LitInt) {
        let lit: syn::LitInt = input.parse()?;
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                "write units as a separate word: `10 deg`, not `10deg`",
            ));
        }
        let int: i128 = lit.base10_parse()?;
        (int as f64, Some(int), lit.span())
    } else {
        let lit: syn::LitFloat = input.parse()?;
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                "write units as a separate word: `1.5 deg`, not `1.5deg`",
            ));
        }
        (lit.base10_parse::<f64>()?, None, lit.span())
    };
    let span = minus.map_or(span, |m| m.span().join(span).unwrap_or(span));
    let mut integer = integer;
    if minus.is_some() {
        value = -value;
        integer = integer.map(|i| -i);
    }
    // `95 %` is a ratio, 0.95.
    if input.peek(Token![%]) {
        let percent: Token![%] = input.parse()?;
        return Ok(Value::Number {
            value: value / 100.0,
            integer: None,
            span: span.join(percent.span).unwrap_or(span),
            unit: Some(Unit {
                name: "%",
                dimension: Dimension::Ratio,
                span: percent.span,
            }),
        });
    }
    // A unit is a bare word right after the number that is one of UNITS and is not followed by
    // `:` (which would make it the next field's key) or `=`.
    if input.peek(Ident) && !input.peek2(Token![:]) && !input.peek2(Token![=]) {
        let fork = input.fork();
        let word: Ident = fork.parse()?;
        if let Some(&(name, factor, dimension)) = UNITS.iter().find(|(unit, ..)| word == unit) {
            input.parse::<Ident>()?;
            // `deg/s`: the unit per second, a rate.
            let per_second = PER_SECOND.iter().find(|(unit, ..)| *unit == name);
            let (name, factor, dimension, word_span) = match per_second {
                Some(&(_, rate, factor, dimension)) if is_per_second(input) => {
                    input.parse::<Token![/]>()?;
                    let seconds: Ident = input.parse()?;
                    let span = word.span().join(seconds.span()).unwrap_or(word.span());
                    (rate, factor, dimension, span)
                }
                _ => (name, factor, dimension, word.span()),
            };
            if factor != 1.0 {
                value *= factor;
                integer = None;
            }
            let span = span.join(word_span).unwrap_or(span);
            return Ok(Value::Number {
                value,
                integer,
                span,
                unit: Some(Unit {
                    name,
                    dimension,
                    span: word_span,
                }),
            });
        }
        // A word close to a unit is a misspelt unit (else it is a missing comma, said later).
        let units: Vec<&str> = UNITS.iter().map(|(unit, ..)| *unit).collect();
        let written = word.to_string();
        if let Some(unit) = robot_model::validate::suggest::closest(&written, units) {
            return Err(syn::Error::new(
                word.span(),
                format!("unknown unit `{written}`; did you mean `{unit}`?"),
            ));
        }
    }
    Ok(Value::Number {
        value,
        integer,
        span,
        unit: None,
    })
}
