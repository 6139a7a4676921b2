//! Interface sets: every joint with the same interfaces, in the same order, shares one state type
//! and one command type (`PositionVelocityEffortStiffnessDampingCommand`), and the per-joint
//! names (`LeftKneePitchCommand`) are aliases of it. So one function written for a set serves
//! every joint that has it, and `command.joints_mut::<T>()` walks every joint of set `T` with its
//! definition (limits, actuator) beside it.

use std::collections::HashMap;

use heck::ToUpperCamelCase;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use robot_model::model::{Interface, Joint};

/// The set types of a robot and which joint has which.
pub struct Sets {
    /// The type definitions, for the robot's module.
    pub types: TokenStream,
    state: HashMap<usize, Ident>,
    command: HashMap<usize, Ident>,
}

impl Sets {
    /// The state set type of joint `index`, if it has state interfaces.
    pub fn state_of(&self, index: usize) -> Option<&Ident> {
        self.state.get(&index)
    }

    /// Whether `name` is one of the set types.
    pub fn is_type(&self, name: &str) -> bool {
        self.state
            .values()
            .chain(self.command.values())
            .any(|t| t == name)
    }

    /// The command set type of joint `index`, if it has command interfaces.
    pub fn command_of(&self, index: usize) -> Option<&Ident> {
        self.command.get(&index)
    }
}

/// Interfaces with repeated kinds removed (a repeat is an error already reported).
pub fn dedup(list: &[Interface]) -> Vec<Interface> {
    let mut out: Vec<Interface> = Vec::new();
    for i in list {
        if !out.iter().any(|o| o.kind == i.kind) {
            out.push(*i);
        }
    }
    out
}

/// `PositionVelocityCommand` for `[position, velocity]` and suffix `Command`.
fn name(list: &[Interface], suffix: &str) -> Ident {
    let kinds: String = list
        .iter()
        .map(|i| i.kind.name().to_upper_camel_case())
        .collect();
    format_ident!("{kinds}{suffix}")
}

/// One state and one command type per distinct interface list of `joints`.
pub fn sets(joints: &[(usize, &Joint)]) -> Sets {
    let mut types = TokenStream::new();
    let mut made: HashMap<Ident, ()> = HashMap::new();
    let mut state = HashMap::new();
    let mut command = HashMap::new();
    for &(index, joint) in joints {
        for (list, suffix, default, map) in [
            (
                &joint.state_interfaces,
                "State",
                quote!(0.0_f64),
                &mut state,
            ),
            (
                &joint.command_interfaces,
                "Command",
                quote!(::core::f64::NAN),
                &mut command,
            ),
        ] {
            let list = dedup(list);
            if list.is_empty() {
                continue;
            }
            let ty = name(&list, suffix);
            map.insert(index, ty.clone());
            if made.insert(ty.clone(), ()).is_some() {
                continue;
            }
            types.extend(set_type(&ty, &list, suffix, &default));
        }
    }
    Sets {
        types,
        state,
        command,
    }
}

fn set_type(ty: &Ident, list: &[Interface], suffix: &str, default: &TokenStream) -> TokenStream {
    let fields = list.iter().map(|i| {
        let field = Ident::new(i.kind.name(), Span::call_site());
        let doc = format!("`<joint>/{}`, {}.", i.kind.name(), i.kind.unit());
        quote!(#[doc = #doc] pub #field: f64)
    });
    let inits = list.iter().map(|i| {
        let field = Ident::new(i.kind.name(), Span::call_site());
        quote!(#field: #default)
    });
    let kinds: Vec<&str> = list.iter().map(|i| i.kind.name()).collect();
    let (what, fresh) = if suffix == "State" {
        ("state", "0")
    } else {
        ("command", "NaN (no command yet)")
    };
    let doc = format!(
        "The {what} of a joint with the interfaces [{}], shared by every such joint. Fresh values \
         are {fresh}; the robot's `Default` applies each joint's initial values.",
        kinds.join(", ")
    );
    let marker = if suffix == "State" {
        quote!(StateSet)
    } else {
        quote!(CommandSet)
    };
    quote! {
        #[doc = #doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq)]
        #[repr(C)]
        pub struct #ty { #(#fields,)* }
        #[automatically_derived]
        impl ::core::default::Default for #ty {
            fn default() -> Self { Self { #(#inits,)* } }
        }
        #[automatically_derived]
        impl #marker for #ty {}
    }
}

/// The marker traits of the set types, for the module of robot `robot` (its type name).
pub fn markers(robot: &str, module: &Ident) -> TokenStream {
    let message = |what: &str| format!("`{{Self}}` is not one of `{robot}`'s {what} types");
    let (state_message, command_message) = (message("state"), message("command"));
    let label = "not an interface-set type of this robot";
    let note = |what: &str| {
        format!(
            "walk an interface-set {what} type of the robot's module, e.g. `{module}::Position{}`",
            if what == "state" { "State" } else { "Command" }
        )
    };
    let (state_note, command_note) = (note("state"), note("command"));
    quote! {
        /// A state type shared by every joint with the same state interfaces: what
        /// `state.joints::<T>()` walks.
        #[diagnostic::on_unimplemented(message = #state_message, label = #label, note = #state_note)]
        pub trait StateSet: ::core::any::Any {}
        /// A command type shared by every joint with the same command interfaces: what
        /// `command.joints_mut::<T>()` walks.
        #[diagnostic::on_unimplemented(message = #command_message, label = #label, note = #command_note)]
        pub trait CommandSet: ::core::any::Any {}
    }
}

/// The value of a joint's set type with its initial values: `Type { position: 0.1, velocity:
/// NaN }`.
pub fn initial(ty: &Ident, list: &[Interface], default: &TokenStream) -> TokenStream {
    let inits = dedup(list).into_iter().map(|i| {
        let field = Ident::new(i.kind.name(), Span::call_site());
        let value = match i.initial_value {
            // One float writer for every generated number: it also spells the non-finite values
            // (rejected by the rules, but still written without a panic).
            Some(v) => crate::description::num(v),
            None => default.clone(),
        };
        quote!(#field: #value)
    });
    quote!(#ty { #(#inits,)* })
}

/// `joints::<T>()` (and `joints_mut` on the command): every joint whose set type is `T`, with
/// its definition, in declaration order. `fields` is `(joint index, field)` of every field.
pub fn walkers(
    marker: &Ident,
    module: &Ident,
    bound: &Ident,
    fields: &[(usize, Ident)],
    mutable: bool,
) -> TokenStream {
    let count = fields.len();
    let indices = fields.iter().map(|(i, _)| *i);
    let names: Vec<&Ident> = fields.iter().map(|(_, f)| f).collect();
    let shared = quote! {
        /// Every joint whose type is the interface set `T`, with its definition (limits,
        /// actuator, ...), in declaration order. Allocation-free.
        pub fn joints<T: #module::#bound>(&self) -> impl ::core::iter::Iterator<Item = (&'static ::robot_core::model::Joint, &T)> + '_ {
            let all: [(usize, &dyn ::core::any::Any); #count] = [#((#indices, &self.#names as &dyn ::core::any::Any)),*];
            all.into_iter().filter_map(|(index, value)| {
                value.downcast_ref::<T>().map(|value| (&#marker::DESCRIPTION.joints[index], value))
            })
        }
    };
    if !mutable {
        return shared;
    }
    let indices = fields.iter().map(|(i, _)| *i);
    quote! {
        #shared
        /// Every joint whose type is the interface set `T`, with its definition (limits,
        /// actuator, ...), in declaration order, for writing. Allocation-free.
        pub fn joints_mut<T: #module::#bound>(&mut self) -> impl ::core::iter::Iterator<Item = (&'static ::robot_core::model::Joint, &mut T)> + '_ {
            let all: [(usize, &mut dyn ::core::any::Any); #count] = [#((#indices, &mut self.#names as &mut dyn ::core::any::Any)),*];
            all.into_iter().filter_map(|(index, value)| {
                value.downcast_mut::<T>().map(|value| (&#marker::DESCRIPTION.joints[index], value))
            })
        }
    }
}
