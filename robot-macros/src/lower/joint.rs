//! Reading a `joint` item: its type, links, limits, actuator (with its four-bar), mimic and
//! interfaces.

use std::borrow::Cow;

use robot_model::model::{
    Actuator, CanId, Direction, Dynamics, Interface, Joint, JointKind, Limits, Mimic,
};
use robot_model::validate::{JointField, Site};
use robot_model::{InterfaceKind, RobstrideModel};

use super::parts::{four_bar, four_bar_spans, pose};
use super::values::{Fields, Quantity, as_block, as_ident, integer, number, vector};
use super::{Lowering, docs, name};
use crate::errors::hint;
use crate::kw::{self, Keyword};
use crate::parse::{Block, Item, Value};
use robot_model::validate::suggest::closest;

impl Lowering<'_> {
    pub(super) fn joint(&mut self, item: &Item, block: &Block) {
        let index = self.joints.len();
        let site = |field| Site::Joint(index, field);
        self.spans.insert(site(JointField::Name), item.name.span());
        let kind = match &item.kind {
            Some(Value::Ident(kind)) => {
                self.spans.insert(site(JointField::Kind), kind.span());
                let kinds = [
                    JointKind::Revolute,
                    JointKind::Continuous,
                    JointKind::Prismatic,
                    JointKind::Fixed,
                ];
                let written = kind.to_string();
                match kinds.into_iter().find(|k| k.urdf_name() == written) {
                    Some(kind) => kind,
                    None => {
                        let known = kinds.map(JointKind::urdf_name);
                        let hint = hint(&written, &known, || {
                            "; expected `revolute`, `continuous`, `prismatic` or `fixed`".into()
                        });
                        self.errors
                            .at(kind.span(), format!("unknown joint type `{written}`{hint}"));
                        // The type meant, where it is clear, so the rules see what was meant.
                        closest(&written, known)
                            .and_then(|k| kinds.into_iter().find(|kind| kind.urdf_name() == k))
                            .unwrap_or(JointKind::Fixed)
                    }
                }
            }
            Some(other) => {
                self.errors.at(
                    other.span(),
                    "a joint type is a name: `revolute`, `continuous`, `prismatic` or `fixed`",
                );
                JointKind::Fixed
            }
            None => {
                self.errors.at(
                    item.name.span(),
                    format!(
                        "joint `{}` needs its type: `joint {}: revolute {{ ... }}`",
                        item.name, item.name
                    ),
                );
                JointKind::Fixed
            }
        };
        let mut f = Fields::new(block, kw::joint::TEXT);
        let parent = self.link_ref::<kw::parent>(&mut f, item, site(JointField::Parent));
        let child = self.link_ref::<kw::child>(&mut f, item, site(JointField::Child));
        let origin = f
            .value::<kw::origin>(self.errors)
            .map(|v| pose(v, self.errors))
            .unwrap_or_default();
        let axis = match f.value::<kw::axis>(self.errors) {
            Some(v) => {
                self.spans.insert(site(JointField::Axis), v.span());
                vector::<3>(v, Quantity::Plain("a unit vector"), "`axis`", self.errors)
                    .unwrap_or([0.0, 0.0, 1.0])
            }
            None => [0.0, 0.0, 1.0],
        };
        let limits = f.entry::<kw::limits>(self.errors).and_then(|e| {
            self.spans.insert(site(JointField::Limits), e.key.span());
            let block = as_block(&e.value, self.errors)?;
            let mut l = Fields::new(block, kw::limits::TEXT);
            let position = Quantity::position(kind);
            let lower = self.limit::<kw::lower>(&mut l, kind, site(JointField::Lower), position);
            let upper = self.limit::<kw::upper>(&mut l, kind, site(JointField::Upper), position);
            let velocity = self.limit::<kw::velocity>(
                &mut l,
                kind,
                site(JointField::Velocity),
                Quantity::velocity(kind),
            );
            let effort = self.limit::<kw::effort>(
                &mut l,
                kind,
                site(JointField::Effort),
                Quantity::effort(kind),
            );
            let current = self.limit::<kw::current>(
                &mut l,
                kind,
                site(JointField::Current),
                Quantity::Plain("A"),
            );
            let known = l.finish(self.errors);
            let (Some(velocity), Some(effort)) = (velocity, effort) else {
                // A bad value or a misspelt key (`efort`) is reported already.
                let missing: Vec<_> = [
                    (kw::velocity::TEXT, l.had::<kw::velocity>()),
                    (kw::effort::TEXT, l.had::<kw::effort>()),
                ]
                .into_iter()
                .filter(|(_, had)| !had)
                .map(|(key, _)| format!("`{key}`"))
                .collect();
                if known && !missing.is_empty() {
                    self.errors
                        .at(block.span, format!("limits need {}", missing.join(" and ")));
                }
                return None;
            };
            Some(Limits {
                lower,
                upper,
                velocity,
                effort,
                current,
            })
        });
        let dynamics = f.value::<kw::dynamics>(self.errors).and_then(|v| {
            let block = as_block(v, self.errors)?;
            let mut d = Fields::new(block, kw::dynamics::TEXT);
            let dynamics = Dynamics {
                damping: d
                    .number::<kw::damping>(Quantity::Plain("N·m·s/rad"), self.errors)
                    .unwrap_or(0.0),
                friction: d
                    .number::<kw::friction>(Quantity::Plain("N·m"), self.errors)
                    .unwrap_or(0.0),
                armature: d
                    .number::<kw::armature>(Quantity::Plain("kg·m²"), self.errors)
                    .unwrap_or(0.0),
            };
            d.finish(self.errors);
            Some(dynamics)
        });
        let actuator = f.entry::<kw::actuator>(self.errors).and_then(|e| {
            self.spans.insert(site(JointField::Actuator), e.key.span());
            let block = as_block(&e.value, self.errors)?;
            self.actuator(index, block)
        });
        let mimic = f.entry::<kw::mimic>(self.errors).and_then(|e| {
            self.spans.insert(site(JointField::Mimic), e.key.span());
            let block = as_block(&e.value, self.errors)?;
            let mut m = Fields::new(block, kw::mimic::TEXT);
            let joint = m.value::<kw::joint>(self.errors).and_then(|v| {
                self.spans.insert(site(JointField::Mimic), v.span());
                as_ident(v, self.errors)
            });
            let multiplier = m
                .number::<kw::multiplier>(Quantity::Plain("a ratio"), self.errors)
                .unwrap_or(1.0);
            let offset = m
                .number::<kw::offset>(Quantity::position(kind), self.errors)
                .unwrap_or(0.0);
            m.finish(self.errors);
            let joint = joint.or_else(|| {
                self.errors
                    .at(block.span, "mimic needs `joint` (the joint followed)");
                None
            })?;
            Some(Mimic {
                joint: name(&joint),
                multiplier,
                offset,
            })
        });
        let command_interfaces = f
            .value::<kw::command>(self.errors)
            .map(|v| self.interfaces(v, kind, |i| site(JointField::Command(i)), kw::command::TEXT))
            .unwrap_or_default();
        let state_interfaces = f
            .value::<kw::state>(self.errors)
            .map(|v| self.interfaces(v, kind, |i| site(JointField::State(i)), kw::state::TEXT))
            .unwrap_or_default();
        f.finish(self.errors);
        self.joint_docs.push(docs(&item.attrs));
        self.joints.push(Joint {
            name: name(&item.name),
            kind,
            parent,
            child,
            origin,
            axis,
            limits,
            dynamics,
            actuator,
            mimic,
            command_interfaces: Cow::Owned(command_interfaces),
            state_interfaces: Cow::Owned(state_interfaces),
        });
    }

    /// A link the joint names (`parent`, `child`); when missing, an error at the joint's name.
    fn link_ref<K: Keyword>(
        &mut self,
        f: &mut Fields,
        item: &Item,
        site: Site,
    ) -> Cow<'static, str> {
        match f.value::<K>(self.errors) {
            Some(v) => {
                self.spans.insert(site, v.span());
                as_ident(v, self.errors)
                    .map(|i| name(&i))
                    .unwrap_or_default()
            }
            None => {
                self.errors.at(
                    item.name.span(),
                    format!("joint `{}` needs `{}` (a link)", item.name, K::TEXT),
                );
                Cow::Borrowed("")
            }
        }
    }

    /// One number of a joint's `limits`, measuring `quantity`.
    fn limit<K: Keyword>(
        &mut self,
        limits: &mut Fields,
        joint: JointKind,
        site: Site,
        quantity: Quantity,
    ) -> Option<f64> {
        let v = limits.value::<K>(self.errors)?;
        self.spans.insert(site, v.span());
        let what = format!("`{}` of a {} joint", K::TEXT, joint.urdf_name());
        number(v, quantity, &what, self.errors)
    }

    fn actuator(&mut self, index: usize, block: &Block) -> Option<Actuator> {
        let site = |field| Site::Joint(index, field);
        let mut a = Fields::new(block, kw::actuator::TEXT);
        let bus = a.value::<kw::bus>(self.errors).and_then(|v| {
            self.spans.insert(site(JointField::Bus), v.span());
            as_ident(v, self.errors)
        });
        let can_id = a.value::<kw::can_id>(self.errors).and_then(|v| {
            self.spans.insert(site(JointField::CanId), v.span());
            let raw = integer(
                v,
                (i128::MIN, i128::MAX),
                "CAN id",
                Quantity::Plain("a plain number"),
                self.errors,
            )?;
            // The range rule is robot-core's, the same `CanId::new` a hand-built model uses.
            match u16::try_from(raw)
                .map_err(|_| robot_model::model::CanIdError(u16::MAX))
                .and_then(CanId::new)
            {
                Ok(id) => Some(id),
                Err(_) => {
                    self.errors.at(
                        v.span(),
                        format!(
                            "CAN id {raw} is out of range {}..={}",
                            CanId::MIN,
                            CanId::MAX
                        ),
                    );
                    None
                }
            }
        });
        let model = a.value::<kw::model>(self.errors).and_then(|v| {
            let ident = as_ident(v, self.errors)?;
            let written = ident.to_string();
            let model = RobstrideModel::from_name(&written);
            if model.is_none() {
                let known = RobstrideModel::ALL.map(|m| m.name());
                let hint = hint(&written, &known, || {
                    format!("; expected one of {}", known.join(", "))
                });
                self.errors.at(
                    ident.span(),
                    format!("unknown RobStride model `{ident}`{hint}"),
                );
                // The model meant, where it is clear, as the stand-in (see the end).
                return Some(
                    closest(&written, known)
                        .and_then(RobstrideModel::from_name)
                        .unwrap_or(RobstrideModel::RS00),
                );
            }
            model
        });
        let direction = match a.value::<kw::direction>(self.errors) {
            Some(v) => match integer(
                v,
                (i128::MIN, i128::MAX),
                "direction",
                Quantity::Plain("a plain number"),
                self.errors,
            ) {
                Some(1) => Some(Direction::Forward),
                Some(-1) => Some(Direction::Reversed),
                Some(other) => {
                    self.errors
                        .at(v.span(), format!("direction is `1` or `-1`, not {other}"));
                    None
                }
                None => None,
            },
            None => Some(Direction::Forward),
        };
        let zero_offset = a
            .number::<kw::zero_offset>(Quantity::Angle, self.errors)
            .unwrap_or(0.0);
        let four_bar = a.entry::<kw::four_bar>(self.errors).and_then(|e| {
            self.spans.insert(site(JointField::FourBar), e.key.span());
            let block = as_block(&e.value, self.errors)?;
            for (param, span) in four_bar_spans(block) {
                self.spans
                    .insert(site(JointField::FourBarParam(param)), span);
            }
            four_bar(block, self.errors)
        });
        let lead = a.value::<kw::lead>(self.errors).and_then(|v| {
            self.spans.insert(site(JointField::Lead), v.span());
            number(v, Quantity::Length, "`lead`", self.errors)
        });
        a.finish(self.errors);
        a.require::<kw::bus>(bus.is_some(), self.errors);
        a.require::<kw::can_id>(can_id.is_some(), self.errors);
        a.require::<kw::model>(model.is_some(), self.errors);
        // With a bus, the actuator is kept even when other fields are bad, with stand-ins for
        // them: the joint keeps its place in its bus's view, so controller code sees only the
        // real error. The item is tainted, so no rule is checked against a stand-in.
        Some(Actuator {
            bus: name(&bus?),
            can_id: can_id.or(CanId::new(u16::from(CanId::MIN)).ok())?,
            model: model.unwrap_or(RobstrideModel::RS00),
            direction: direction.unwrap_or(Direction::Forward),
            zero_offset,
            four_bar,
            lead,
        })
    }

    fn interfaces(
        &mut self,
        value: &Value,
        joint: JointKind,
        site: impl Fn(usize) -> Site,
        direction: &str,
    ) -> Vec<Interface> {
        let Value::List { items, .. } = value else {
            self.errors.at(
                value.span(),
                format!("{direction} interfaces are a list: `{direction}: [position, velocity]`"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let (ident, initial) = match item {
                Value::Ident(ident) => (ident, None),
                Value::Assign { name, value } => (name, Some(&**value)),
                other => {
                    self.errors.at(other.span(), "an interface is a name, optionally with an initial value: `position = 0.0`");
                    continue;
                }
            };
            let written = ident.to_string();
            let Some(kind) = InterfaceKind::from_name(&written) else {
                let known = InterfaceKind::ALL.map(|k| k.name());
                let hint = hint(&written, &known, || {
                    format!("; expected one of {}", known.join(", "))
                });
                self.errors
                    .at(ident.span(), format!("unknown interface `{ident}`{hint}"));
                // The interface meant, where it is clear, keeps its field in the generated
                // struct, so code using it sees only this error.
                if let Some(kind) = closest(&written, known).and_then(InterfaceKind::from_name) {
                    self.spans.insert(site(out.len()), ident.span());
                    out.push(Interface {
                        kind,
                        initial_value: None,
                    });
                }
                continue;
            };
            let initial = initial.and_then(|v| {
                let quantity = match kind {
                    InterfaceKind::Position => Quantity::position(joint),
                    InterfaceKind::Velocity => Quantity::velocity(joint),
                    InterfaceKind::Effort => Quantity::effort(joint),
                    // Temperature in °C is no SI unit, but it is the interface's.
                    other => Quantity::Plain(other.unit()),
                };
                let what = format!("the initial value of `{ident}`");
                number(v, quantity, &what, self.errors)
            });
            self.spans.insert(site(out.len()), ident.span());
            out.push(Interface {
                kind,
                initial_value: initial,
            });
        }
        out
    }
}
