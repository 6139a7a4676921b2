//! Reading entries and values: the typed getters every item reader uses, each reporting a wrong
//! or missing value at its token, and [`Fields`], which reports what no getter asked for as an
//! unknown field.

use syn::Ident;

use crate::errors::{Errors, hint};
use crate::kw::Keyword;
use crate::parse::{Block, Dimension, Entry, Unit, Value};

/// What a number measures, which decides the units it may carry. A number without a unit is in
/// SI units, whatever it measures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Quantity {
    Angle,
    Length,
    Mass,
    Frequency,
    /// A share: `95 %`, or a bare fraction, 0.95.
    Ratio,
    /// A position whose joint type is not known where it is read: an angle or a length.
    AngleOrLength,
    AngularVelocity,
    Velocity,
    Torque,
    Force,
    /// Something no unit of the language measures, always written in this SI unit.
    Plain(&'static str),
}

impl Quantity {
    /// An angle for rotating joints, a length for prismatic ones.
    pub(super) fn position(kind: robot_model::model::JointKind) -> Quantity {
        match kind {
            robot_model::model::JointKind::Prismatic => Quantity::Length,
            _ => Quantity::Angle,
        }
    }

    /// An angular velocity for rotating joints, a velocity for prismatic ones.
    pub(super) fn velocity(kind: robot_model::model::JointKind) -> Quantity {
        match kind {
            robot_model::model::JointKind::Prismatic => Quantity::Velocity,
            _ => Quantity::AngularVelocity,
        }
    }

    /// A torque for rotating joints, a force for prismatic ones.
    pub(super) fn effort(kind: robot_model::model::JointKind) -> Quantity {
        match kind {
            robot_model::model::JointKind::Prismatic => Quantity::Force,
            _ => Quantity::Torque,
        }
    }

    fn accepts(self, dimension: Dimension) -> bool {
        match self {
            Quantity::Angle => dimension == Dimension::Angle,
            Quantity::Length => dimension == Dimension::Length,
            Quantity::Mass => dimension == Dimension::Mass,
            Quantity::Frequency => dimension == Dimension::Frequency,
            Quantity::Ratio => dimension == Dimension::Ratio,
            Quantity::AngleOrLength => matches!(dimension, Dimension::Angle | Dimension::Length),
            Quantity::AngularVelocity => dimension == Dimension::AngularVelocity,
            Quantity::Velocity => dimension == Dimension::Velocity,
            Quantity::Torque => dimension == Dimension::Torque,
            Quantity::Force => dimension == Dimension::Force,
            Quantity::Plain(_) => false,
        }
    }

    /// "an angle: ..." — what to write instead, for the message.
    fn expected(self) -> String {
        match self {
            Quantity::Angle => "an angle: use `rad` or `deg` (a bare number is in rad)".into(),
            Quantity::Length => "a length: use `m` or `mm` (a bare number is in m)".into(),
            Quantity::Mass => "a mass: use `kg` or `g` (a bare number is in kg)".into(),
            Quantity::Frequency => "a frequency: use `Hz` or a bare number".into(),
            Quantity::Ratio => "a ratio: use `%` or a bare fraction".into(),
            Quantity::AngleOrLength => "an angle or a length: use `rad`, `deg`, `m` or `mm`".into(),
            Quantity::AngularVelocity => {
                "an angular velocity: use `rad/s`, `deg/s` or `rpm` (a bare number is in rad/s)"
                    .into()
            }
            Quantity::Velocity => {
                "a velocity: use `m/s` or `mm/s` (a bare number is in m/s)".into()
            }
            Quantity::Torque => "a torque: use `N·m` or `Nm` (a bare number is in N·m)".into(),
            Quantity::Force => "a force: use `N` (a bare number is in N)".into(),
            Quantity::Plain(si) => {
                format!("in {si}, which has no unit here: write the bare number")
            }
        }
    }
}

/// Reports a unit whose dimension `quantity` does not accept, at the unit; false then.
/// `what` names the field for the message: "`lower` of a revolute joint".
fn unit_fits(unit: Option<&Unit>, quantity: Quantity, what: &str, errors: &mut Errors) -> bool {
    let Some(unit) = unit else { return true };
    if quantity.accepts(unit.dimension) {
        return true;
    }
    errors.at(
        unit.span,
        format!(
            "`{}` is a unit of {}, but {what} is {}",
            unit.name,
            unit.dimension.name(),
            quantity.expected()
        ),
    );
    false
}

/// The entries of one block, taken by key (a [`crate::kw`] word); what is never taken is reported
/// as unknown, with the words asked for as the list of what was expected.
pub(super) struct Fields<'a> {
    block: &'a Block,
    what: &'static str,
    taken: Vec<bool>,
    asked: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    pub(super) fn new(block: &'a Block, what: &'static str) -> Self {
        Fields {
            block,
            what,
            taken: vec![false; block.entries.len()],
            asked: Vec::new(),
        }
    }

    /// Whether the key was written at all (even if its value was bad).
    pub(super) fn had<K: Keyword>(&self) -> bool {
        self.block.entries.iter().any(|e| K::is(&e.key))
    }

    /// Reports `key` missing, at the block, when it is not `present` and was not written at all
    /// (a bad value is reported already).
    pub(super) fn require<K: Keyword>(&self, present: bool, errors: &mut Errors) {
        if !present && !self.had::<K>() {
            errors.at(
                self.block.span,
                format!("{} needs `{}`", self.what, K::TEXT),
            );
        }
    }

    /// The value of a key that may appear once.
    pub(super) fn value<K: Keyword>(&mut self, errors: &mut Errors) -> Option<&'a Value> {
        self.entry::<K>(errors).map(|e| &e.value)
    }

    /// The entry of a key that may appear once, for errors about the whole entry.
    pub(super) fn entry<K: Keyword>(&mut self, errors: &mut Errors) -> Option<&'a Entry> {
        let key = K::TEXT;
        self.asked.push(key);
        let mut found: Option<&'a Entry> = None;
        for (i, entry) in self.block.entries.iter().enumerate() {
            if !K::is(&entry.key) {
                continue;
            }
            self.taken[i] = true;
            if found.is_some() {
                errors.at(
                    entry.key.span(),
                    format!("`{key}` is given twice in this {}", self.what),
                );
                continue;
            }
            if let Some(kind) = &entry.kind {
                errors.at(kind.span(), format!("`{key}` takes no kind here"));
            }
            found = Some(entry);
        }
        found
    }

    /// Every entry of a key that may repeat (`visual`, `collision`).
    pub(super) fn all<K: Keyword>(&mut self) -> Vec<&'a Entry> {
        self.asked.push(K::TEXT);
        let mut out = Vec::new();
        for (i, entry) in self.block.entries.iter().enumerate() {
            if K::is(&entry.key) {
                self.taken[i] = true;
                out.push(entry);
            }
        }
        out
    }

    pub(super) fn number<K: Keyword>(
        &mut self,
        quantity: Quantity,
        errors: &mut Errors,
    ) -> Option<f64> {
        self.value::<K>(errors)
            .and_then(|v| number(v, quantity, &format!("`{}`", K::TEXT), errors))
    }

    pub(super) fn bool<K: Keyword>(&mut self, errors: &mut Errors) -> Option<bool> {
        match self.value::<K>(errors)? {
            Value::Bool(b) => Some(b.value),
            other => {
                errors.at(
                    other.span(),
                    format!("expected `true` or `false`, found {}", other.describe()),
                );
                None
            }
        }
    }

    pub(super) fn vector<K: Keyword, const N: usize>(
        &mut self,
        quantity: Quantity,
        errors: &mut Errors,
    ) -> Option<[f64; N]> {
        self.value::<K>(errors)
            .and_then(|v| vector::<N>(v, quantity, &format!("`{}`", K::TEXT), errors))
    }

    /// Reports every entry no getter asked for; true when there was none.
    pub(super) fn finish(&self, errors: &mut Errors) -> bool {
        let mut known = true;
        for (entry, taken) in self.block.entries.iter().zip(&self.taken) {
            if !taken {
                known = false;
                let written = entry.key.to_string();
                let hint = hint(&written, &self.asked, || {
                    let expected: Vec<String> =
                        self.asked.iter().map(|k| format!("`{k}`")).collect();
                    format!("; expected one of {}", expected.join(", "))
                });
                errors.at(
                    entry.key.span(),
                    format!("unknown field `{written}` in {}{hint}", self.what),
                );
            }
        }
        known
    }
}

pub(super) fn sided_outside_limb(value: &Value, errors: &mut Errors) -> bool {
    if let Value::Sided { .. } = value {
        errors.push(value.error("per-side values `a | b` are only allowed inside a `limb`"));
        return true;
    }
    false
}

/// A number measuring `quantity`; `what` names the field in messages ("`lower` of a revolute
/// joint").
pub(super) fn number(
    value: &Value,
    quantity: Quantity,
    what: &str,
    errors: &mut Errors,
) -> Option<f64> {
    match value {
        Value::Number { value, unit, .. } => {
            unit_fits(unit.as_ref(), quantity, what, errors).then_some(*value)
        }
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected a number, found {}", other.describe()),
            );
            None
        }
    }
}

/// A whole number in `min..=max`; `what` names it in messages ("CAN id"), `quantity` says
/// which units it may carry.
pub(super) fn integer(
    value: &Value,
    (min, max): (i128, i128),
    what: &str,
    quantity: Quantity,
    errors: &mut Errors,
) -> Option<i128> {
    if let Value::Number { unit, .. } = value
        && !unit_fits(unit.as_ref(), quantity, &format!("the {what}"), errors)
    {
        return None;
    }
    match value {
        Value::Number {
            integer: Some(i), ..
        } if (min..=max).contains(i) => Some(*i),
        Value::Number {
            integer: Some(i),
            span,
            ..
        } => {
            errors.at(*span, format!("{what} {i} is out of range {min}..={max}"));
            None
        }
        Value::Number { span, .. } => {
            errors.at(*span, format!("{what} must be a whole number"));
            None
        }
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected a whole number, found {}", other.describe()),
            );
            None
        }
    }
}

pub(super) fn vector<const N: usize>(
    value: &Value,
    quantity: Quantity,
    what: &str,
    errors: &mut Errors,
) -> Option<[f64; N]> {
    match value {
        Value::List { items, span } if items.len() == N => {
            let mut out = [0.0; N];
            let mut ok = true;
            for (slot, item) in out.iter_mut().zip(items) {
                match number(item, quantity, what, errors) {
                    Some(v) => *slot = v,
                    None => ok = false,
                }
            }
            let _ = span;
            ok.then_some(out)
        }
        Value::List { items, span } => {
            errors.at(
                *span,
                format!("expected {N} numbers, found {}", items.len()),
            );
            None
        }
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected a list of {N} numbers, found {}", other.describe()),
            );
            None
        }
    }
}

pub(super) fn as_block<'a>(value: &'a Value, errors: &mut Errors) -> Option<&'a Block> {
    match value {
        Value::Block(block) => Some(block),
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected `{{ ... }}`, found {}", other.describe()),
            );
            None
        }
    }
}

pub(super) fn as_ident(value: &Value, errors: &mut Errors) -> Option<Ident> {
    match value {
        Value::Ident(ident) => Some(ident.clone()),
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected a name, found {}", other.describe()),
            );
            None
        }
    }
}

pub(super) fn as_str(value: &Value, errors: &mut Errors) -> Option<String> {
    match value {
        Value::Str(lit) => Some(lit.value()),
        other if sided_outside_limb(other, errors) => None,
        other => {
            errors.at(
                other.span(),
                format!("expected a string, found {}", other.describe()),
            );
            None
        }
    }
}
