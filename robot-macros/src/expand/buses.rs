//! The per-bus views (`state.left_leg()`, `command.left_leg()`) and each bus as a joint set a
//! typed controller claims (`LeftLegBus`).

use std::collections::HashSet;

use heck::ToUpperCamelCase;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use robot_model::model::{Joint, Robot};
use robot_model::validate::names;

use super::{groups, ident};
use crate::lower::Lowered;

/// The bus whose view holds a joint: its own; for a misspelt bus (an error already reported,
/// with this suggestion), the bus meant, so code using the view sees only that error.
fn view_of<'a>(robot: &'a Robot, joint: &'a Joint) -> Option<&'a str> {
    let bus = robot.bus_of(joint)?;
    if robot.bus(bus).is_some() {
        return Some(bus);
    }
    robot_model::validate::suggest::closest(bus, robot.buses.iter().map(|b| b.name.as_ref()))
}

/// One borrowed view per bus: `state.left_leg()` and `command.left_leg()` give the joints of that
/// bus, for code that drives one bus. Returns the view types (for the module) and the methods
/// returning them (for impls outside the module, so that `robot!` also works in a function body).
pub(super) fn views(
    lowered: &Lowered,
    joints: &[(usize, &Joint)],
    module: &Ident,
    marker: &Ident,
    state: &Ident,
    command: &Ident,
) -> (TokenStream, TokenStream) {
    let robot: &Robot = &lowered.robot;
    let mut views = TokenStream::new();
    let mut state_methods = TokenStream::new();
    let mut command_methods = TokenStream::new();
    let mut joint_sets = TokenStream::new();
    // A bus whose view type would repeat another bus's or a joint's (an error already reported)
    // gets no view, so the user sees that error and not a cascade.
    let mut seen: HashSet<String> = joints
        .iter()
        .map(|(_, j)| j.name.to_upper_camel_case())
        .collect();
    for bus in robot.buses.iter().filter(|b| {
        names::unusable(&b.name).is_none()
            && seen.insert(format!("{}Bus", b.name.to_upper_camel_case()))
    }) {
        let on_bus: Vec<&Joint> = joints
            .iter()
            .map(|(_, j)| *j)
            .filter(|j| view_of(robot, j) == Some(bus.name.as_ref()))
            .collect();
        let camel = bus.name.to_upper_camel_case();
        // `Bus` in the name keeps a bus and a joint of the same name apart.
        let state_view = format_ident!("{}BusState", camel);
        let command_view = format_ident!("{}BusCommand", camel);
        let set = format_ident!("{}Bus", camel);
        let method = ident(&bus.name, Span::call_site());
        let with_state: Vec<&Joint> = on_bus
            .iter()
            .copied()
            .filter(|j| !j.state_interfaces.is_empty())
            .collect();
        let with_command: Vec<&Joint> = on_bus
            .iter()
            .copied()
            .filter(|j| !j.command_interfaces.is_empty())
            .collect();
        let field = |j: &&Joint| ident(&j.name, Span::call_site());
        let s_fields: Vec<_> = with_state.iter().map(field).collect();
        let s_types: Vec<_> = with_state
            .iter()
            .map(|j| format_ident!("{}State", j.name.to_upper_camel_case()))
            .collect();
        let c_fields: Vec<_> = with_command.iter().map(field).collect();
        let c_types: Vec<_> = with_command
            .iter()
            .map(|j| format_ident!("{}Command", j.name.to_upper_camel_case()))
            .collect();
        let joint_names: Vec<String> = with_command.iter().map(|j| j.name.to_string()).collect();
        let set_doc = format!(
            "The joints on bus `{}` as a controller claims them: a \
             `TypedController<{}>` with `type Claims = {}::{set}` is handed a `{command_view}` and \
             commands these joints and no other.",
            bus.name, robot.type_name, robot.name
        );
        let s_doc = format!("The state of the joints on bus `{}`.", bus.name);
        let c_doc = format!("The commands of the joints on bus `{}`.", bus.name);
        views.extend(quote! {
            #[doc = #s_doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
            pub struct #state_view<'a> { #(#[allow(missing_docs)] pub #s_fields: &'a #s_types,)* #[doc(hidden)] pub __marker: ::core::marker::PhantomData<&'a ()> }
            #[doc = #c_doc]
            #[derive(::core::fmt::Debug)]
            pub struct #command_view<'a> { #(#[allow(missing_docs)] pub #c_fields: &'a mut #c_types,)* #[doc(hidden)] pub __marker: ::core::marker::PhantomData<&'a mut ()> }
            #[doc = #set_doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::default::Default)]
            pub struct #set;
        });
        joint_sets.extend(quote! {
            #[automatically_derived]
            impl ::robot_core::controller_manager::JointSet<#marker> for #module::#set {
                type View<'a> = #module::#command_view<'a>;
                const JOINTS: &'static [&'static str] = &[#(#joint_names),*];
                fn view(command: &mut #command) -> Self::View<'_> {
                    command.#method()
                }
            }
        });
        state_methods.extend(quote! {
            #[doc = #s_doc]
            pub fn #method(&self) -> #module::#state_view<'_> {
                #module::#state_view { #(#s_fields: &self.#s_fields,)* __marker: ::core::marker::PhantomData }
            }
        });
        command_methods.extend(quote! {
            #[doc = #c_doc]
            pub fn #method(&mut self) -> #module::#command_view<'_> {
                #module::#command_view { #(#c_fields: &mut self.#c_fields,)* __marker: ::core::marker::PhantomData }
            }
        });
    }
    let (group_types, group_sets) = groups::sets(robot, joints, module, marker, command, &mut seen);
    views.extend(group_types);
    joint_sets.extend(group_sets);
    let methods = quote! {
        #[automatically_derived]
        impl #state { #state_methods }
        #[automatically_derived]
        impl #command { #command_methods }
        #joint_sets
    };
    (views, methods)
}
