//! Each named controller group (`controller arm { joints: [..] }`) as a joint set a typed
//! controller claims (`ArmGroup`, handed an `ArmGroupCommand` of the group's joints).

use std::collections::HashSet;

use heck::ToUpperCamelCase;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use robot_model::model::{Joint, Robot};
use robot_model::validate::names;

use super::ident;

/// The view and set types (for the robot's module) and their `JointSet` impls (outside it).
/// `seen`: the type names taken already; a group whose names would repeat one (an error
/// already reported) gets none.
pub(super) fn sets(
    robot: &Robot,
    joints: &[(usize, &Joint)],
    module: &Ident,
    marker: &Ident,
    command: &Ident,
    seen: &mut HashSet<String>,
) -> (TokenStream, TokenStream) {
    let mut views = TokenStream::new();
    let mut joint_sets = TokenStream::new();
    // No method for a group's view: a group's name may be a bus's.
    for group in robot.controller_groups.iter().filter(|g| {
        names::unusable(&g.name).is_none()
            && seen.insert(format!("{}Group", g.name.to_upper_camel_case()))
    }) {
        let members: Vec<&Joint> = (group.joints.iter())
            .filter_map(|name| joints.iter().map(|(_, j)| *j).find(|j| j.name == *name))
            .filter(|j| !j.command_interfaces.is_empty())
            .collect();
        let camel = group.name.to_upper_camel_case();
        let set = format_ident!("{}Group", camel);
        let view = format_ident!("{}GroupCommand", camel);
        let fields: Vec<_> = members
            .iter()
            .map(|j| ident(&j.name, Span::call_site()))
            .collect();
        let types: Vec<_> = members
            .iter()
            .map(|j| format_ident!("{}Command", j.name.to_upper_camel_case()))
            .collect();
        let joint_names: Vec<String> = members.iter().map(|j| j.name.to_string()).collect();
        let view_doc = format!(
            "The commands of the joints of controller group `{}`.",
            group.name
        );
        let set_doc = format!(
            "The joints of controller group `{}` as a controller claims them: a \
             `TypedController<{}>` with `type Claims = {}::{set}` is handed a `{view}` and \
             commands these joints and no other.",
            group.name, robot.type_name, robot.name
        );
        views.extend(quote! {
            #[doc = #view_doc]
            #[derive(::core::fmt::Debug)]
            pub struct #view<'a> { #(#[allow(missing_docs)] pub #fields: &'a mut #types,)* #[doc(hidden)] pub __marker: ::core::marker::PhantomData<&'a mut ()> }
            #[doc = #set_doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::default::Default)]
            pub struct #set;
        });
        joint_sets.extend(quote! {
            #[automatically_derived]
            impl ::robot_core::controller_manager::JointSet<#marker> for #module::#set {
                type View<'a> = #module::#view<'a>;
                const JOINTS: &'static [&'static str] = &[#(#joint_names),*];
                fn view(command: &mut #command) -> Self::View<'_> {
                    #module::#view { #(#fields: &mut command.#fields,)* __marker: ::core::marker::PhantomData }
                }
            }
        });
    }
    (views, joint_sets)
}
