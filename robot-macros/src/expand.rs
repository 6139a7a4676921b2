//! The typed code: state and command structs with one field per declared interface, interface
//! names as constants, per-bus views, the flat-slot layout for generic backends, and the static
//! description.
//!
//! For `robot LiteBiped { .. }` this generates, in the invoking module:
//! * `LiteBiped`: a marker type implementing `::robot_core::RobotTypes`, with the constants
//!   `LiteBiped::DESCRIPTION` and `LiteBiped::LEFT_KNEE_PITCH.POSITION == "left_knee_pitch/position"`;
//! * `LiteBipedState` and `LiteBipedCommand`: one field per joint (and per IMU, for the state);
//! * a module `lite_biped` holding the per-joint structs (`LeftKneePitchCommand`, ...), the
//!   interface-name structs and the per-bus views (`LeftLegBusCommand<'a>`, ...), and for each bus,
//!   each named controller group and each side of a limb a joint set (`LeftLegBus`, `ArmGroup`,
//!   `LeftLeg`, implementing
//!   `::robot_core::controller_manager::JointSet`) a typed controller claims, being handed that
//!   set's view and no more.

use std::collections::HashSet;

use heck::{ToShoutySnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use robot_model::model::SensorKind;
use robot_model::model::{Joint, Robot};
use robot_model::typed::{self, Slot};
use robot_model::validate::names;

use crate::description;
use crate::limb::Limb;
use crate::lower::Lowered;

mod buses;
mod groups;
mod limbs;
mod sets;

pub(crate) fn ident(name: &str, span: Span) -> Ident {
    syn::parse_str::<Ident>(name).map_or_else(
        |_| Ident::new_raw(name, span),
        |mut i| {
            i.set_span(span);
            i
        },
    )
}

pub fn robot(lowered: &Lowered, limbs: &[Limb]) -> TokenStream {
    let robot = &lowered.robot;
    // A name that cannot become Rust identifiers (a rule error already reported) gets no code:
    // for the robot, none at all; for a joint, bus or IMU, no field, type or method.
    if names::unusable_type_name(&robot.type_name).is_some() {
        return TokenStream::new();
    }
    let usable = |name: &str| names::unusable(name).is_none();
    let span = lowered.span(robot_model::validate::Site::Robot(
        robot_model::validate::RobotField::Name,
    ));
    let marker = ident(&robot.type_name, span);
    let state = format_ident!("{}State", marker);
    let command = format_ident!("{}Command", marker);
    // A raw identifier when the snake-case name is a keyword (`robot Loop` → `mod r#loop`).
    let module = ident(&robot.name, span);
    let docs = &lowered.robot_docs;

    // Joints whose names repeat (an error already reported) are generated once, so the user sees
    // the real error and not a cascade of "field already declared".
    let mut seen = HashSet::new();
    // Joints without interfaces (fixed ones, passive ones) get no types.
    let joints: Vec<(usize, &Joint)> = robot
        .joints
        .iter()
        .enumerate()
        // By type name: names equal up to case and underscores (an error already reported) too.
        .filter(|(_, j)| {
            j.is_controlled() && usable(&j.name) && seen.insert(j.name.to_upper_camel_case())
        })
        .collect();

    let sets = sets::sets(&joints);
    let per_joint = joints
        .iter()
        .map(|&(index, joint)| joint_types(lowered, &sets, index, joint));
    let state_fields = joints
        .iter()
        .filter(|(_, j)| !j.state_interfaces.is_empty())
        .map(|&(index, j)| {
            let field = ident(&j.name, span_of(lowered, index));
            let ty = format_ident!("{}State", j.name.to_upper_camel_case());
            let docs = field_docs(lowered, index, "state");
            quote!(#(#docs)* pub #field: #module::#ty)
        });
    let state_inits: Vec<TokenStream> = joints
        .iter()
        .filter_map(|&(index, j)| {
            let ty = sets.state_of(index)?;
            let field = ident(&j.name, span_of(lowered, index));
            let value = sets::initial(ty, &j.state_interfaces, &quote!(0.0_f64));
            Some(quote!(#field: #module::#value))
        })
        .collect();
    let command_inits: Vec<TokenStream> = joints
        .iter()
        .filter_map(|&(index, j)| {
            let ty = sets.command_of(index)?;
            let field = ident(&j.name, span_of(lowered, index));
            let value = sets::initial(ty, &j.command_interfaces, &quote!(::core::f64::NAN));
            Some(quote!(#field: #module::#value))
        })
        .collect();
    let field_of = |index: usize, j: &Joint| (index, ident(&j.name, span_of(lowered, index)));
    let state_walk: Vec<(usize, Ident)> = joints
        .iter()
        .filter(|(i, _)| sets.state_of(*i).is_some())
        .map(|&(i, j)| field_of(i, j))
        .collect();
    let command_walk: Vec<(usize, Ident)> = joints
        .iter()
        .filter(|(i, _)| sets.command_of(*i).is_some())
        .map(|&(i, j)| field_of(i, j))
        .collect();
    let state_walkers = sets::walkers(
        &marker,
        &module,
        &format_ident!("StateSet"),
        &state_walk,
        false,
    );
    let command_walkers = sets::walkers(
        &marker,
        &module,
        &format_ident!("CommandSet"),
        &command_walk,
        true,
    );
    let set_types = &sets.types;
    let set_markers = sets::markers(&robot.type_name, &module);
    let (limb_views, limb_methods) = limbs::views(
        lowered,
        limbs,
        &joints,
        &sets,
        limbs::Names {
            module: &module,
            marker: &marker,
            state: &state,
            command: &command,
        },
    );
    let mut seen_sensors = HashSet::new();
    let sensors: Vec<(usize, &robot_model::model::Sensor)> = robot
        .sensors
        .iter()
        .enumerate()
        .filter(|(_, s)| usable(&s.name) && seen_sensors.insert(s.name.to_string()))
        .collect();
    let sensor_fields = sensors.iter().map(|(_, s)| {
        let field = ident(&s.name, span);
        let (ty, _) = sensor_types(s.kind);
        let doc = format!("The {} `{}` on link `{}`.", s.kind.noun(), s.name, s.link);
        quote!(#[doc = #doc] pub #field: ::robot_core::typed::#ty)
    });
    let sensor_inits = sensors.iter().map(|(_, s)| {
        let field = ident(&s.name, span);
        quote!(#field: ::core::default::Default::default())
    });
    let command_fields = joints
        .iter()
        .filter(|(_, j)| !j.command_interfaces.is_empty())
        .map(|&(index, j)| {
            let field = ident(&j.name, span_of(lowered, index));
            let ty = format_ident!("{}Command", j.name.to_upper_camel_case());
            let docs = field_docs(lowered, index, "commands");
            quote!(#(#docs)* pub #field: #module::#ty)
        });
    let name_consts = joints.iter().map(|&(index, j)| {
        let constant = ident(&j.name.to_shouty_snake_case(), span_of(lowered, index));
        let ty = format_ident!("{}Interfaces", j.name.to_upper_camel_case());
        let values = interface_kinds(j).into_iter().map(|kind| {
            let field = Ident::new(&kind.name().to_shouty_snake_case(), span);
            let text = format!("{}/{}", j.name, kind.name());
            quote!(#field: #text)
        });
        let doc = format!("ros2_control interface names of joint `{}`.", j.name);
        quote!(#[doc = #doc] pub const #constant: #module::#ty = #module::#ty { #(#values),* };)
    });
    let sensor_consts = sensors.iter().map(|(_, s)| {
        let constant = ident(&s.name.to_shouty_snake_case(), span);
        let fields = s.state_interfaces().iter().map(|component| {
            let field = Ident::new(&component.replace('.', "_").to_shouty_snake_case(), span);
            let text = format!("{}/{}", s.name, component);
            quote!(#field: #text)
        });
        let (_, ty) = sensor_types(s.kind);
        let doc = format!("ros2_control interface names of {} `{}`.", s.kind.noun(), s.name);
        quote!(#[doc = #doc] pub const #constant: ::robot_core::typed::#ty = ::robot_core::typed::#ty { #(#fields),* };)
    });

    let state_slots = generated_slots(typed::state_slots(robot), &joints, &sensors);
    let command_slots = generated_slots(typed::command_slots(robot), &joints, &sensors);
    let (state_len, command_len) = (state_slots.len(), command_slots.len());
    // The layout tables and the struct fields come from the same slot lists; these asserts prove
    // at compile time that slot k of the table is the field at offset 8·k.
    let state_offsets = offset_asserts(robot, &state, &state_slots);
    let command_offsets = offset_asserts(robot, &command, &command_slots);
    let state_slots = state_slots.into_iter().map(slot);
    let command_slots = command_slots.into_iter().map(slot);
    let description = description::robot(robot);
    let (bus_views, bus_methods) =
        buses::views(lowered, &joints, &module, &marker, &state, &command);
    let summary = format!(
        "Robot `{}`: {} links, {} joints ({} actuated), {} buses, {} sensors, at {} Hz. Generated by `robot!`.",
        robot.name,
        robot.links.len(),
        robot.joints.len(),
        robot.actuated_joints().count(),
        robot.buses.len(),
        robot.sensors.len(),
        robot.update_rate
    );
    let state_doc = format!(
        "Every state interface of `{}`, one field per joint and sensor.",
        robot.name
    );
    let command_doc = format!(
        "Every command interface of `{}`, one field per commanded joint. A fresh command is NaN (\"no command yet\") except where the definition gives an initial value.",
        robot.name
    );
    let module_doc = format!(
        "Per-joint and per-bus types of `{}`, generated by `robot!`.",
        robot.name
    );

    quote! {
        #(#docs)*
        #[doc = ""]
        #[doc = #summary]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash, ::core::default::Default)]
        pub struct #marker;

        #[doc = #state_doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq)]
        #[repr(C)]
        pub struct #state {
            #(#state_fields,)*
            #(#sensor_fields,)*
        }
        #[automatically_derived]
        impl ::core::default::Default for #state {
            /// Every joint's initial values, else 0.
            fn default() -> Self { Self { #(#state_inits,)* #(#sensor_inits,)* } }
        }

        #[doc = #command_doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq)]
        #[repr(C)]
        pub struct #command {
            #(#command_fields,)*
        }
        #[automatically_derived]
        impl ::core::default::Default for #command {
            /// Every joint's initial values, else NaN ("no command yet").
            fn default() -> Self { Self { #(#command_inits,)* } }
        }

        #[doc = #module_doc]
        #[allow(non_snake_case)]
        pub mod #module {
            #set_markers
            #set_types
            #(#per_joint)*
            #bus_views
            #limb_views
        }
        #bus_methods
        #limb_methods
        #[automatically_derived]
        impl #state { #state_walkers }
        #[automatically_derived]
        impl #command { #command_walkers }

        #[automatically_derived]
        impl #marker {
            /// The whole definition, from which every emitter and backend works.
            pub const DESCRIPTION: &'static ::robot_core::Robot = {
                // The user's numbers, verbatim: 1.5708 is a measured angle, not a typo of π/2.
                #[allow(clippy::approx_constant, clippy::excessive_precision)]
                static __DESCRIPTION: ::robot_core::Robot = #description;
                &__DESCRIPTION
            };
            #(#name_consts)*
            #(#sensor_consts)*
        }

        // SAFETY: the struct is `#[repr(C)]` and made only of `f64` fields and of per-joint and
        // IMU structs that are themselves `#[repr(C)]` and all `f64`; the size is asserted below.
        #[automatically_derived]
        unsafe impl ::robot_core::Values for #state {
            const LEN: usize = #state_len;
        }
        #[automatically_derived]
        unsafe impl ::robot_core::Values for #command {
            const LEN: usize = #command_len;
        }
        const _: () = {
            ::core::assert!(::core::mem::size_of::<#state>() == #state_len * ::core::mem::size_of::<f64>());
            ::core::assert!(::core::mem::align_of::<#state>() == ::core::mem::align_of::<f64>() || #state_len == 0);
            ::core::assert!(::core::mem::size_of::<#command>() == #command_len * ::core::mem::size_of::<f64>());
            ::core::assert!(::core::mem::align_of::<#command>() == ::core::mem::align_of::<f64>() || #command_len == 0);
                    #state_offsets
            #command_offsets
        };

        #[automatically_derived]
        impl ::robot_core::RobotTypes for #marker {
            type State = #state;
            type Command = #command;
            const DESCRIPTION: &'static ::robot_core::Robot = #marker::DESCRIPTION;
            const STATE_LAYOUT: ::robot_core::typed::Layout = ::robot_core::typed::Layout { slots: &[#(#state_slots),*] };
            const COMMAND_LAYOUT: ::robot_core::typed::Layout = ::robot_core::typed::Layout { slots: &[#(#command_slots),*] };
        }
    }
}

/// The user's doc comment on a joint, or a generated one; for a continuous or multi-turn joint on
/// an actuator, what its backend does about the ±4π position window.
fn field_docs(lowered: &Lowered, index: usize, what: &str) -> Vec<TokenStream> {
    let joint = &lowered.robot.joints[index];
    let docs = &lowered.joint_docs[index];
    let mut out: Vec<TokenStream> = if docs.is_empty() {
        let doc = format!("Joint `{}`: its {what}.", joint.name);
        vec![quote!(#[doc = #doc])]
    } else {
        docs.iter().map(|d| quote!(#d)).collect()
    };
    if joint.kind == robot_model::model::JointKind::Continuous && joint.actuator.is_some() {
        let note = "Continuous: the RobStride frame spans ±4π; the backend counts the turns of the \
            looping angle the motor reports, so `position` is the whole angle over any number of \
            turns, counted from where it was first read (`robot_model::actuator`).";
        out.push(quote!(#[doc = ""] #[doc = #note]));
    }
    if let Some(actuator) = &joint.actuator {
        use robot_model::actuator::{MotorTravel, limit_angles};
        let transmission = robot_model::transmission::Transmission::of(actuator);
        if MotorTravel::of(joint, &transmission) == MotorTravel::MultiTurn {
            let motor: Vec<f64> = limit_angles(joint, &transmission)
                .map(|end| end.motor)
                .collect();
            let span = motor.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - motor.iter().copied().fold(f64::INFINITY, f64::min);
            let note = format!(
                "Multi-turn: its motor turns {:.1} times over the joint's range, past the \
                 RobStride frame's ±4π; the backend counts the turns from the motor's own count \
                 (`mechPos`), so the motor must be powered on in the turn of the joint's zero \
                 (`robot_model::actuator`).",
                span / std::f64::consts::TAU
            );
            out.push(quote!(#[doc = ""] #[doc = #note]));
        }
    }
    out
}

fn span_of(lowered: &Lowered, joint: usize) -> Span {
    lowered.span(robot_model::validate::Site::Joint(
        joint,
        robot_model::validate::JointField::Name,
    ))
}

/// Every interface kind a joint declares, command or state, in first-declared order.
fn interface_kinds(joint: &Joint) -> Vec<robot_model::InterfaceKind> {
    let mut kinds = Vec::new();
    for i in joint
        .command_interfaces
        .iter()
        .chain(joint.state_interfaces.iter())
    {
        if !kinds.contains(&i.kind) {
            kinds.push(i.kind);
        }
    }
    kinds
}

/// The slots of the fields actually generated. For a valid robot that is every slot; a repeated
/// joint, sensor or interface (an error already reported) is generated once, and its repeats must
/// get no slot either, or the size assertions would fail on top of the real error.
fn generated_slots(
    slots: impl Iterator<Item = Slot>,
    joints: &[(usize, &Joint)],
    sensors: &[(usize, &robot_model::model::Sensor)],
) -> Vec<Slot> {
    let mut seen = HashSet::new();
    slots
        .filter(|s| match *s {
            Slot::Joint { joint, kind } => {
                joints.iter().any(|(i, _)| *i == usize::from(joint)) && seen.insert((joint, kind))
            }
            Slot::Sensor { sensor, .. } => sensors.iter().any(|(i, _)| *i == usize::from(sensor)),
        })
        .collect()
}

/// `assert!(offset_of!(Struct, joint.kind) == 8·k)` for every slot k.
fn offset_asserts(robot: &Robot, ty: &Ident, slots: &[Slot]) -> TokenStream {
    let asserts = slots.iter().enumerate().map(|(k, slot)| {
        let path = match *slot {
            Slot::Joint { joint, kind } => {
                let joint = ident(&robot.joints[usize::from(joint)].name, Span::call_site());
                let kind = Ident::new(kind.name(), Span::call_site());
                quote!(#joint.#kind)
            }
            Slot::Sensor { sensor, component } => {
                let sensor = &robot.sensors[usize::from(sensor)];
                let interfaces = sensor.state_interfaces();
                let name = ident(&sensor.name, Span::call_site());
                // `orientation.x` is field `orientation.x` of the sensor's state struct.
                let path = interfaces[usize::from(component) % interfaces.len()]
                    .split('.')
                    .map(|part| Ident::new(part, Span::call_site()));
                quote!(#name #(.#path)*)
            }
        };
        quote!(::core::assert!(::core::mem::offset_of!(#ty, #path) == #k * ::core::mem::size_of::<f64>());)
    });
    quote!(#(#asserts)*)
}

fn slot(slot: Slot) -> TokenStream {
    match slot {
        Slot::Joint { joint, kind } => {
            let kind = description::interface_kind(kind);
            quote!(::robot_core::typed::Slot::Joint { joint: #joint, kind: #kind })
        }
        Slot::Sensor { sensor, component } => {
            quote!(::robot_core::typed::Slot::Sensor { sensor: #sensor, component: #component })
        }
    }
}

/// The state struct and the interface-name struct of a kind of sensor, in `robot_core::typed`.
fn sensor_types(kind: SensorKind) -> (Ident, Ident) {
    let (state, names) = match kind {
        SensorKind::Imu => ("ImuState", "ImuInterfaces"),
        SensorKind::ForceTorque => ("ForceTorqueState", "ForceTorqueInterfaces"),
        SensorKind::Contact => ("ContactState", "ContactInterfaces"),
    };
    (
        Ident::new(state, Span::call_site()),
        Ident::new(names, Span::call_site()),
    )
}

/// The state and command types of one joint (aliases of its interface sets' types) and its
/// interface-name struct.
fn joint_types(lowered: &Lowered, sets: &sets::Sets, index: usize, joint: &Joint) -> TokenStream {
    let camel = joint.name.to_upper_camel_case();
    let span = span_of(lowered, index);
    let names = Ident::new(&format!("{camel}Interfaces"), span);
    let mut out = TokenStream::new();
    for (set, suffix, what) in [
        (sets.state_of(index), "State", "state"),
        (sets.command_of(index), "Command", "command"),
    ] {
        let Some(set) = set else { continue };
        let alias = Ident::new(&format!("{camel}{suffix}"), span);
        let doc = format!(
            "The {what} of joint `{}`: [`{set}`], the type every joint with its interfaces shares.",
            joint.name
        );
        out.extend(quote!(#[doc = #doc] pub type #alias = #set;));
    }
    let name_fields = interface_kinds(joint).into_iter().map(|kind| {
        let field = Ident::new(&kind.name().to_shouty_snake_case(), span);
        let doc = format!("`{}/{}`", joint.name, kind.name());
        quote!(#[doc = #doc] pub #field: &'static str)
    });
    let names_doc = format!("Interface names of joint `{}`.", joint.name);
    out.extend(quote! {
        #[doc = #names_doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq, ::core::cmp::Eq)]
        pub struct #names { #(#name_fields,)* }
    });
    out
}
