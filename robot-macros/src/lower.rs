//! Gives the parsed items their meaning: builds the [`robot_core::model::Robot`] the rest of the
//! pipeline works on, and remembers the span of every field so that any problem found later, by
//! `robot_core::validate`, lands on the user's token.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use heck::ToSnakeCase;
use proc_macro2::Span;
use robot_model::model::{
    AllowedContact, Bus, BusKind, ControllerGroup, DEFAULT_CAN_BITRATE, Feedforward, Inertia,
    Inertial, Joint, Link, MockParams, Pose, Robot, Sensor,
};
use robot_model::validate::{
    AllowedContactField, BusField, ControllerGroupField, JointField, LinkField, RobotField,
    SensorField, Site,
};
use syn::{Attribute, Ident};

use crate::errors::{Errors, hint};
use crate::kw::{self, Keyword};
use crate::parse::{Block, Body, Item, Value};

mod joint;
mod parts;
mod sensor;
mod values;

use parts::shape;
use syn::ext::IdentExt;
use values::{Fields, Quantity, as_block, as_ident, integer, number};

/// The model, and where each part of it was written.
pub struct Lowered {
    pub robot: Robot,
    pub spans: HashMap<Site, Span>,
    /// Doc attributes of the robot item, for the generated marker type.
    pub robot_docs: Vec<Attribute>,
    /// Doc attributes of each joint, by joint index, for the generated fields.
    pub joint_docs: Vec<Vec<Attribute>>,
    /// Items (by their name site) that had errors of their own while being read: their model
    /// holds placeholders, so rule problems about them would only be follow-ons.
    pub tainted: HashSet<Site>,
    /// Errors outside any item (an unknown item, a missing header): the model may lack whole
    /// items, so no rule is checked.
    pub incomplete: bool,
}

/// The site naming the item a site belongs to.
pub fn item_of(site: Site) -> Site {
    match site {
        Site::Robot(_) => Site::Robot(RobotField::Name),
        Site::Link(i, _) => Site::Link(i, LinkField::Name),
        Site::Joint(i, _) => Site::Joint(i, JointField::Name),
        Site::Bus(i, _) => Site::Bus(i, BusField::Name),
        Site::Sensor(i, _) => Site::Sensor(i, SensorField::Name),
        Site::ControllerGroup(i, _) => Site::ControllerGroup(i, ControllerGroupField::Name),
        Site::AllowedContact(i, _) => Site::AllowedContact(i, AllowedContactField::Name),
    }
}

impl Lowered {
    /// The span of a site, falling back to the item it belongs to, then to the invocation.
    pub fn span(&self, site: Site) -> Span {
        let item = item_of(site);
        self.spans
            .get(&site)
            .or_else(|| self.spans.get(&item))
            .copied()
            .unwrap_or_else(Span::call_site)
    }
}

pub fn robot(items: &[Item], errors: &mut Errors) -> Lowered {
    let mut l = Lowering {
        errors,
        spans: HashMap::new(),
        header: None,
        links: Vec::new(),
        joints: Vec::new(),
        joint_docs: Vec::new(),
        buses: Vec::new(),
        sensors: Vec::new(),
        controller_groups: Vec::new(),
        allowed_contacts: Vec::new(),
    };
    let mut tainted = HashSet::new();
    let mut incomplete = false;
    for item in items {
        let Body::Entries(block) = &item.body else {
            l.errors.at(item.keyword.span(), "limbs cannot be nested");
            incomplete = true;
            continue;
        };
        let before = l.errors.count();
        let keyword = &item.keyword;
        let site = if kw::robot::is(keyword) {
            l.header(item, block);
            Site::Robot(RobotField::Name)
        } else if kw::bus::is(keyword) {
            l.bus(item, block);
            Site::Bus(l.buses.len() - 1, BusField::Name)
        } else if kw::link::is(keyword) {
            l.link(item, block);
            Site::Link(l.links.len() - 1, LinkField::Name)
        } else if kw::joint::is(keyword) {
            l.joint(item, block);
            Site::Joint(l.joints.len() - 1, JointField::Name)
        } else if let Some(kind) = sensor::kind_of(keyword) {
            l.sensor(kind, item, block);
            Site::Sensor(l.sensors.len() - 1, SensorField::Name)
        } else if kw::controller::is(keyword) {
            l.controller(item, block);
            Site::ControllerGroup(l.controller_groups.len() - 1, ControllerGroupField::Name)
        } else if kw::allow_contact::is(keyword) {
            l.allow_contact(item, block);
            Site::AllowedContact(l.allowed_contacts.len() - 1, AllowedContactField::Name)
        } else {
            incomplete = true;
            let written = keyword.to_string();
            let hint = hint(&written, &kw::ITEMS, || {
                format!("; expected {}", crate::errors::one_of(&kw::ITEMS))
            });
            l.errors
                .at(keyword.span(), format!("unknown item `{written}`{hint}"));
            continue;
        };
        if l.errors.count() > before {
            tainted.insert(site);
        }
    }
    let header = match l.header.take() {
        Some(header) => header,
        None => {
            incomplete = true;
            // There is no token to blame; the first item is where a reader looks for it.
            let at = items
                .first()
                .map_or_else(Span::call_site, |item| item.keyword.span());
            l.errors.at(
                at,
                "missing the robot header: add `robot MyRobot { update_rate: 200 Hz }`",
            );
            Header {
                type_name: "Robot".to_string(),
                update_rate: 1,
                floating_base: false,
                mock: MockParams::DEFAULT,
                docs: Vec::new(),
            }
        }
    };
    Lowered {
        robot: Robot {
            name: Cow::Owned(header.type_name.to_snake_case()),
            type_name: Cow::Owned(header.type_name),
            update_rate: header.update_rate,
            floating_base: header.floating_base,
            links: Cow::Owned(l.links),
            joints: Cow::Owned(l.joints),
            buses: Cow::Owned(l.buses),
            sensors: Cow::Owned(l.sensors),
            mock: header.mock,
            controller_groups: Cow::Owned(l.controller_groups),
            allowed_contacts: Cow::Owned(l.allowed_contacts),
        },
        spans: l.spans,
        robot_docs: header.docs,
        joint_docs: l.joint_docs,
        tainted,
        incomplete,
    }
}

/// What the `robot Name { .. }` header says.
struct Header {
    type_name: String,
    update_rate: u32,
    floating_base: bool,
    mock: MockParams,
    docs: Vec<Attribute>,
}

struct Lowering<'e> {
    errors: &'e mut Errors,
    spans: HashMap<Site, Span>,
    header: Option<Header>,
    links: Vec<Link>,
    joints: Vec<Joint>,
    joint_docs: Vec<Vec<Attribute>>,
    buses: Vec<Bus>,
    sensors: Vec<Sensor>,
    controller_groups: Vec<ControllerGroup>,
    allowed_contacts: Vec<AllowedContact>,
}

fn docs(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect()
}

impl Lowering<'_> {
    fn no_kind(&mut self, item: &Item) {
        if let Some(kind) = &item.kind {
            self.errors
                .at(kind.span(), format!("`{}` takes no `: kind`", item.keyword));
        }
    }

    fn header(&mut self, item: &Item, block: &Block) {
        self.no_kind(item);
        if self.header.is_some() {
            self.errors.at(
                item.name.span(),
                "the robot header is given twice: one `robot!` defines one robot",
            );
            return;
        }
        self.spans
            .insert(Site::Robot(RobotField::Name), item.name.span());
        let mut f = Fields::new(block, kw::robot::TEXT);
        let update_rate = match f.value::<kw::update_rate>(self.errors) {
            Some(v) => {
                self.spans
                    .insert(Site::Robot(RobotField::UpdateRate), v.span());
                integer(
                    v,
                    (0, u32::MAX as i128),
                    "update rate, Hz,",
                    Quantity::Frequency,
                    self.errors,
                )
                .unwrap_or(1) as u32
            }
            None => {
                self.errors
                    .at(item.name.span(), "robot needs `update_rate` (Hz)");
                1
            }
        };
        let floating_base = f.bool::<kw::floating_base>(self.errors).unwrap_or(false);
        let mut mock = MockParams::DEFAULT;
        if let Some(v) = f.value::<kw::mock>(self.errors)
            && let Some(block) = as_block(v, self.errors)
        {
            let mut m = Fields::new(block, kw::mock::TEXT);
            mock.calculate_dynamics = m
                .bool::<kw::calculate_dynamics>(self.errors)
                .unwrap_or(false);
            mock.position_state_following_offset = m
                .number::<kw::position_state_following_offset>(Quantity::AngleOrLength, self.errors)
                .unwrap_or(0.0);
            mock.mock_sensor_commands = m
                .bool::<kw::mock_sensor_commands>(self.errors)
                .unwrap_or(false);
            mock.disable_commands = m.bool::<kw::disable_commands>(self.errors).unwrap_or(false);
            m.finish(self.errors);
        }
        f.finish(self.errors);
        self.header = Some(Header {
            type_name: item.name.unraw().to_string(),
            update_rate,
            floating_base,
            mock,
            docs: docs(&item.attrs),
        });
    }

    fn bus(&mut self, item: &Item, block: &Block) {
        let index = self.buses.len();
        self.spans
            .insert(Site::Bus(index, BusField::Name), item.name.span());
        if let Some(kind) = &item.kind
            && !matches!(kind, Value::Ident(i) if kw::can::is(i))
        {
            let written = match kind {
                Value::Ident(i) => i.to_string(),
                _ => String::new(),
            };
            let hint = hint(&written, &[kw::can::TEXT], || {
                "; the only kind is `can`".into()
            });
            self.errors
                .at(kind.span(), format!("unknown bus kind{hint}"));
        }
        let mut f = Fields::new(block, kw::bus::TEXT);
        let bitrate = match f.value::<kw::bitrate>(self.errors) {
            Some(v) => {
                self.spans
                    .insert(Site::Bus(index, BusField::Bitrate), v.span());
                integer(
                    v,
                    (1, u32::MAX as i128),
                    "bit rate, bit/s,",
                    Quantity::Plain("bit/s"),
                    self.errors,
                )
                .unwrap_or(1) as u32
            }
            None => DEFAULT_CAN_BITRATE,
        };
        let max_load = f.value::<kw::max_load>(self.errors).and_then(|v| {
            self.spans
                .insert(Site::Bus(index, BusField::MaxLoad), v.span());
            number(v, Quantity::Ratio, "`max_load`", self.errors)
        });
        f.finish(self.errors);
        self.buses.push(Bus {
            name: name(&item.name),
            kind: BusKind::Can { bitrate },
            max_load,
        });
    }

    fn link(&mut self, item: &Item, block: &Block) {
        self.no_kind(item);
        let index = self.links.len();
        self.spans
            .insert(Site::Link(index, LinkField::Name), item.name.span());
        let mut f = Fields::new(block, kw::link::TEXT);
        let inertial = f.entry::<kw::inertial>(self.errors).and_then(|e| {
            self.spans
                .insert(Site::Link(index, LinkField::Inertial), e.key.span());
            let block = as_block(&e.value, self.errors)?;
            let mut i = Fields::new(block, kw::inertial::TEXT);
            let mass = i.value::<kw::mass>(self.errors).and_then(|v| {
                self.spans
                    .insert(Site::Link(index, LinkField::Mass), v.span());
                number(v, Quantity::Mass, "`mass`", self.errors)
            });
            let com = i
                .vector::<kw::com, 3>(Quantity::Length, self.errors)
                .unwrap_or_default();
            let com_rpy = i
                .vector::<kw::com_rpy, 3>(Quantity::Angle, self.errors)
                .unwrap_or_default();
            let inertia = i.vector::<kw::inertia, 6>(Quantity::Plain("kg·m²"), self.errors);
            i.finish(self.errors);
            let mass = mass.or_else(|| {
                if !i.had::<kw::mass>() {
                    self.errors.at(block.span, "inertial needs `mass` (kg)");
                }
                None
            })?;
            let [ixx, ixy, ixz, iyy, iyz, izz] = inertia.or_else(|| {
                if !i.had::<kw::inertia>() {
                    self.errors.at(
                        block.span,
                        "inertial needs `inertia: [ixx, ixy, ixz, iyy, iyz, izz]` (kg·m²)",
                    );
                }
                None
            })?;
            Some(Inertial {
                mass,
                origin: Pose {
                    xyz: com,
                    rpy: com_rpy,
                },
                inertia: Inertia {
                    ixx,
                    ixy,
                    ixz,
                    iyy,
                    iyz,
                    izz,
                },
            })
        });
        let visuals = f
            .all::<kw::visual>()
            .into_iter()
            .filter_map(|e| shape(e, self.errors))
            .collect::<Vec<_>>();
        let collisions = f
            .all::<kw::collision>()
            .into_iter()
            .filter_map(|e| shape(e, self.errors))
            .collect::<Vec<_>>();
        f.finish(self.errors);
        self.links.push(Link {
            name: name(&item.name),
            inertial,
            visuals: Cow::Owned(visuals),
            collisions: Cow::Owned(collisions),
        });
    }
}

impl Lowering<'_> {
    /// `controller name { joints: [a, b], feedforward: gravity }`: a controller group of the
    /// definition's choosing.
    fn controller(&mut self, item: &Item, block: &Block) {
        self.no_kind(item);
        let index = self.controller_groups.len();
        let site = |field| Site::ControllerGroup(index, field);
        self.spans
            .insert(site(ControllerGroupField::Name), item.name.span());
        let mut f = Fields::new(block, kw::controller::TEXT);
        let mut joints = Vec::new();
        match f.value::<kw::joints>(self.errors) {
            Some(Value::List { items, span }) => {
                self.spans.insert(site(ControllerGroupField::Joints), *span);
                for value in items {
                    if let Some(ident) = as_ident(value, self.errors) {
                        self.spans.insert(
                            site(ControllerGroupField::Joint(joints.len())),
                            ident.span(),
                        );
                        joints.push(name(&ident));
                    }
                }
            }
            Some(other) => self.errors.at(
                other.span(),
                "a controller's joints are a list: `joints: [hip_pitch, knee_pitch]`",
            ),
            None => self.errors.at(
                item.name.span(),
                format!("controller `{}` needs `joints: [..]`", item.name),
            ),
        }
        let feedforward = match f.value::<kw::feedforward>(self.errors) {
            Some(value) => self.feedforward(value, site(ControllerGroupField::Feedforward)),
            None => Feedforward::None,
        };
        f.finish(self.errors);
        self.controller_groups.push(ControllerGroup {
            name: name(&item.name),
            joints: Cow::Owned(joints),
            feedforward,
        });
    }

    /// `feedforward: gravity`: one of [`Feedforward::ALL`] by name.
    fn feedforward(&mut self, value: &Value, at: Site) -> Feedforward {
        let Some(ident) = as_ident(value, self.errors) else {
            return Feedforward::None;
        };
        self.spans.insert(at, ident.span());
        let written = ident.to_string();
        let known = Feedforward::ALL.map(Feedforward::name);
        match Feedforward::ALL.into_iter().find(|f| f.name() == written) {
            Some(feedforward) => feedforward,
            None => {
                let hint = hint(&written, &known, || {
                    format!("; expected one of {}", known.join(", "))
                });
                self.errors.at(
                    ident.span(),
                    format!("unknown feedforward `{written}`{hint}"),
                );
                Feedforward::None
            }
        }
    }
}

impl Lowering<'_> {
    /// `allow_contact name { links: [a, b] }`: a contact the design means.
    fn allow_contact(&mut self, item: &Item, block: &Block) {
        self.no_kind(item);
        let index = self.allowed_contacts.len();
        let site = |field| Site::AllowedContact(index, field);
        self.spans
            .insert(site(AllowedContactField::Name), item.name.span());
        let mut f = Fields::new(block, kw::allow_contact::TEXT);
        let mut links = Vec::new();
        let form = "an allowed contact is between two links: `links: [femur, body]`";
        match f.value::<kw::links>(self.errors) {
            Some(Value::List { items, span }) if items.len() == 2 => {
                self.spans.insert(site(AllowedContactField::Links), *span);
                for value in items {
                    if let Some(ident) = as_ident(value, self.errors) {
                        self.spans
                            .insert(site(AllowedContactField::Link(links.len())), ident.span());
                        links.push(name(&ident));
                    }
                }
            }
            Some(other) => self.errors.at(other.span(), form),
            None => self.errors.at(
                item.name.span(),
                format!("allow_contact `{}` needs `links: [a, b]`", item.name),
            ),
        }
        f.finish(self.errors);
        // Empty names when the list was refused above (the entry is then tainted: its rules are
        // not checked again), so the indices stay in step with the spans.
        let links: [Cow<'static, str>; 2] = links.try_into().unwrap_or_default();
        self.allowed_contacts.push(AllowedContact {
            name: name(&item.name),
            links,
        });
    }
}

fn name(ident: &Ident) -> Cow<'static, str> {
    Cow::Owned(ident.unraw().to_string())
}
