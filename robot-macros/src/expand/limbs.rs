//! Per-limb views: for `limb leg: left | right { joint hip_pitch ... }`, `command.leg()` gives one
//! `LegCommand` per side (`[left, right]`), whose fields are the limb's joints by their names
//! without the side (`leg.hip_pitch.position`), so code for one leg serves both. Likewise
//! `state.leg()` and `LegState`.
//!
//! A view needs every side's joint to have the same type (the same interface set); a limb whose
//! sides differ, or whose view name would repeat a generated type or method, gets no view.

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use robot_model::model::Joint;
use syn::ext::IdentExt;

use super::{ident, sets::Sets};
use crate::limb::Limb;
use crate::lower::Lowered;

/// The generated names the views are written with.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    /// The robot's module (`lite_biped`).
    pub module: &'a Ident,
    /// The robot's marker type (`LiteBiped`).
    pub marker: &'a Ident,
    /// Its state struct.
    pub state: &'a Ident,
    /// Its command struct.
    pub command: &'a Ident,
}

/// The view types (for the robot's module) and the methods returning them.
pub fn views(
    lowered: &Lowered,
    limbs: &[Limb],
    joints: &[(usize, &Joint)],
    sets: &Sets,
    names: Names<'_>,
) -> (TokenStream, TokenStream) {
    let Names {
        module,
        marker,
        state,
        command,
    } = names;
    let robot = &lowered.robot;
    // Each side of a limb is a joint set a typed controller claims (`LeftLeg`), handed that
    // side's view: one controller type serves every side.
    let mut joint_sets = TokenStream::new();
    let mut types = TokenStream::new();
    let mut state_methods = TokenStream::new();
    let mut command_methods = TokenStream::new();
    // Names the robot's other generated types and methods take.
    let mut taken_types: HashSet<String> = HashSet::new();
    for (_, j) in joints {
        let camel = j.name.to_upper_camel_case();
        for suffix in ["State", "Command", "Interfaces"] {
            taken_types.insert(format!("{camel}{suffix}"));
        }
    }
    let mut taken_methods: HashSet<String> = robot
        .buses
        .iter()
        .map(|b| b.name.to_string())
        .chain(["joints".into(), "joints_mut".into()])
        .collect();
    for limb in limbs {
        let name = limb.name.unraw().to_string();
        let camel = name.to_upper_camel_case();
        let (state_view, command_view) = (
            format_ident!("{camel}State"),
            format_ident!("{camel}Command"),
        );
        if name.to_snake_case() != name
            || taken_methods.contains(&name)
            || [&state_view, &command_view].iter().any(|t| {
                let t = t.to_string();
                taken_types.contains(&t) || sets.is_type(&t)
            })
        {
            continue;
        }
        // Per side: (local name, field of the robot struct, joint index), for the joints that
        // got types.
        let per_side: Vec<Vec<(&Ident, Ident, usize)>> = limb
            .sides
            .iter()
            .map(|side| {
                limb.joints
                    .iter()
                    .filter_map(|local| {
                        let full = format!("{}_{}", side.unraw(), local.unraw());
                        let &(index, joint) = joints.iter().find(|(_, j)| j.name == full)?;
                        Some((local, ident(&joint.name, local.span()), index))
                    })
                    .collect()
            })
            .collect();
        let method = ident(&name, limb.name.span());
        let sides: Vec<String> = limb.sides.iter().map(|s| s.unraw().to_string()).collect();
        let count = sides.len();
        for (set_of, view, mutable, methods) in [
            (
                Sets::state_of as fn(&Sets, usize) -> Option<&Ident>,
                &state_view,
                false,
                &mut state_methods,
            ),
            (Sets::command_of, &command_view, true, &mut command_methods),
        ] {
            // The joints with this kind of interface, and their type, which every side must share.
            let fields: Vec<Vec<(&Ident, &Ident, &Ident)>> = per_side
                .iter()
                .map(|side| {
                    side.iter()
                        .filter_map(|(local, field, index)| {
                            set_of(sets, *index).map(|ty| (*local, field, ty))
                        })
                        .collect()
                })
                .collect();
            let first = &fields[0];
            let same = fields.iter().all(|side| {
                side.len() == first.len()
                    && side
                        .iter()
                        .zip(first)
                        .all(|(a, b)| a.0 == b.0 && a.2 == b.2)
            });
            if first.is_empty() || !same {
                continue;
            }
            let locals: Vec<Ident> = first
                .iter()
                .map(|(l, _, _)| ident(&l.unraw().to_string(), l.span()))
                .collect();
            let tys: Vec<&Ident> = first.iter().map(|(_, _, t)| *t).collect();
            let (what, reference, receiver) = if mutable {
                ("commands", quote!(&'a mut), quote!(&mut self))
            } else {
                ("state", quote!(&'a), quote!(&self))
            };
            let doc = format!(
                "The {what} of limb `{name}`'s joints on one side, by their names without the side."
            );
            let method_doc = format!(
                "The {what} of limb `{name}`, one view per side: [{}].",
                sides.join(", ")
            );
            types.extend(quote! {
                #[doc = #doc]
                #[derive(::core::fmt::Debug)]
                pub struct #view<'a> {
                    /// The side, as the limb names it.
                    pub side: &'static str,
                    #(#[allow(missing_docs)] pub #locals: #reference #tys,)*
                }
            });
            let borrow = if mutable { quote!(&mut) } else { quote!(&) };
            let per_side_values = fields.iter().zip(&sides).map(|(side, side_name)| {
                let robot_fields = side.iter().map(|(_, f, _)| *f);
                let locals = locals.iter();
                quote!(#module::#view { side: #side_name, #(#locals: #borrow self.#robot_fields,)* })
            });
            methods.extend(quote! {
                #[doc = #method_doc]
                pub fn #method(#receiver) -> [#module::#view<'_>; #count] {
                    [#(#per_side_values),*]
                }
            });
            if mutable {
                for (side, side_name) in fields.iter().zip(&sides) {
                    let set = format_ident!("{}{camel}", side_name.to_upper_camel_case());
                    if taken_types.contains(&set.to_string()) || sets.is_type(&set.to_string()) {
                        continue;
                    }
                    let robot_fields: Vec<&Ident> = side.iter().map(|(_, f, _)| *f).collect();
                    let names: Vec<String> =
                        robot_fields.iter().map(|f| f.unraw().to_string()).collect();
                    let set_doc = format!(
                        "Side `{side_name}` of limb `{name}` as a controller claims it: a \
                         `TypedController<{}>` with `type Claims = {}::{set}` is handed a \
                         `{view}` of that side and commands its joints and no other.",
                        robot.type_name, robot.name
                    );
                    types.extend(quote! {
                        #[doc = #set_doc]
                        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::default::Default)]
                        pub struct #set;
                    });
                    let locals = locals.iter();
                    joint_sets.extend(quote! {
                        #[automatically_derived]
                        impl ::robot_core::controller_manager::JointSet<#marker> for #module::#set {
                            type View<'a> = #module::#view<'a>;
                            const JOINTS: &'static [&'static str] = &[#(#names),*];
                            fn view(command: &mut #command) -> Self::View<'_> {
                                #module::#view { side: #side_name, #(#locals: &mut command.#robot_fields,)* }
                            }
                        }
                    });
                    taken_types.insert(set.to_string());
                }
            }
        }
        taken_methods.insert(name);
    }
    let methods = quote! {
        #[automatically_derived]
        impl #state { #state_methods }
        #[automatically_derived]
        impl #command { #command_methods }
        #joint_sets
    };
    (types, methods)
}
