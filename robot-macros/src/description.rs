//! Code for the `static` [`robot_core::model::Robot`]: the model as a constant expression of
//! borrowed data, so the description costs nothing at run time.

use proc_macro2::TokenStream;
use quote::quote;
use robot_model::InterfaceKind;
use robot_model::fourbar::FourBar;
use robot_model::model::{
    Actuator, AllowedContact, Bus, BusKind, ControllerGroup, Direction, Dynamics, Feedforward,
    Geometry, Inertial, Interface, Joint, JointKind, Limits, Link, Mimic, MockParams, Param, Pose,
    Robot, Sensor, SensorKind, Shape,
};

const CORE: fn() -> TokenStream = || quote!(::robot_core);

fn text(s: &str) -> TokenStream {
    let core = CORE();
    quote!(#core::__private::Cow::Borrowed(#s))
}

fn list(items: impl IntoIterator<Item = TokenStream>) -> TokenStream {
    let core = CORE();
    let items = items.into_iter();
    quote!(#core::__private::Cow::Borrowed(&[#(#items),*]))
}

fn option<T>(value: &Option<T>, f: impl Fn(&T) -> TokenStream) -> TokenStream {
    match value {
        Some(v) => {
            let v = f(v);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// An `f64` literal that keeps its exact value (`f64` Debug prints the shortest round-trip form).
pub(crate) fn num(value: f64) -> TokenStream {
    if value.is_nan() {
        quote!(::core::f64::NAN)
    } else if value.is_infinite() {
        if value > 0.0 {
            quote!(::core::f64::INFINITY)
        } else {
            quote!(::core::f64::NEG_INFINITY)
        }
    } else {
        let lit = proc_macro2::Literal::f64_suffixed(value);
        quote!(#lit)
    }
}

fn nums<const N: usize>(values: &[f64; N]) -> TokenStream {
    let values = values.iter().map(|&v| num(v));
    quote!([#(#values),*])
}

pub fn robot(robot: &Robot) -> TokenStream {
    let core = CORE();
    let type_name = text(&robot.type_name);
    let name = text(&robot.name);
    let update_rate = robot.update_rate;
    let floating_base = robot.floating_base;
    let links = list(robot.links.iter().map(link));
    let joints = list(robot.joints.iter().map(joint));
    let buses = list(robot.buses.iter().map(bus));
    let sensors = list(robot.sensors.iter().map(sensor));
    let mock = mock(&robot.mock);
    let controller_groups = list(robot.controller_groups.iter().map(controller_group));
    let allowed_contacts = list(robot.allowed_contacts.iter().map(allowed_contact));
    quote! {
        #core::model::Robot {
            type_name: #type_name,
            name: #name,
            update_rate: #update_rate,
            floating_base: #floating_base,
            links: #links,
            joints: #joints,
            buses: #buses,
            sensors: #sensors,
            mock: #mock,
            controller_groups: #controller_groups,
            allowed_contacts: #allowed_contacts,
        }
    }
}

fn mock(m: &MockParams) -> TokenStream {
    let core = CORE();
    let MockParams {
        calculate_dynamics,
        position_state_following_offset,
        mock_sensor_commands,
        disable_commands,
    } = *m;
    let offset = num(position_state_following_offset);
    quote! {
        #core::model::MockParams {
            calculate_dynamics: #calculate_dynamics,
            position_state_following_offset: #offset,
            mock_sensor_commands: #mock_sensor_commands,
            disable_commands: #disable_commands,
        }
    }
}

fn pose(p: &Pose) -> TokenStream {
    let core = CORE();
    let xyz = nums(&p.xyz);
    let rpy = nums(&p.rpy);
    quote!(#core::model::Pose { xyz: #xyz, rpy: #rpy })
}

fn link(l: &Link) -> TokenStream {
    let core = CORE();
    let name = text(&l.name);
    let inertial = option(&l.inertial, inertial);
    let visuals = list(l.visuals.iter().map(shape));
    let collisions = list(l.collisions.iter().map(shape));
    quote!(#core::model::Link { name: #name, inertial: #inertial, visuals: #visuals, collisions: #collisions })
}

fn inertial(i: &Inertial) -> TokenStream {
    let core = CORE();
    let mass = num(i.mass);
    let origin = pose(&i.origin);
    let t = &i.inertia;
    let [ixx, ixy, ixz, iyy, iyz, izz] = [t.ixx, t.ixy, t.ixz, t.iyy, t.iyz, t.izz].map(num);
    quote! {
        #core::model::Inertial {
            mass: #mass,
            origin: #origin,
            inertia: #core::model::Inertia { ixx: #ixx, ixy: #ixy, ixz: #ixz, iyy: #iyy, iyz: #iyz, izz: #izz },
        }
    }
}

fn shape(s: &Shape) -> TokenStream {
    let core = CORE();
    let origin = pose(&s.origin);
    let geometry = match &s.geometry {
        Geometry::Box { size } => {
            let size = nums(size);
            quote!(#core::model::Geometry::Box { size: #size })
        }
        Geometry::Cylinder { radius, length } => {
            let (r, l) = (num(*radius), num(*length));
            quote!(#core::model::Geometry::Cylinder { radius: #r, length: #l })
        }
        Geometry::Sphere { radius } => {
            let r = num(*radius);
            quote!(#core::model::Geometry::Sphere { radius: #r })
        }
        Geometry::Capsule { radius, length } => {
            let (r, l) = (num(*radius), num(*length));
            quote!(#core::model::Geometry::Capsule { radius: #r, length: #l })
        }
        Geometry::Mesh { filename, scale } => {
            let filename = text(filename);
            let scale = nums(scale);
            quote!(#core::model::Geometry::Mesh { filename: #filename, scale: #scale })
        }
    };
    quote!(#core::model::Shape { origin: #origin, geometry: #geometry })
}

fn joint(j: &Joint) -> TokenStream {
    let core = CORE();
    let name = text(&j.name);
    let kind = match j.kind {
        JointKind::Revolute => quote!(Revolute),
        JointKind::Continuous => quote!(Continuous),
        JointKind::Prismatic => quote!(Prismatic),
        JointKind::Fixed => quote!(Fixed),
    };
    let parent = text(&j.parent);
    let child = text(&j.child);
    let origin = pose(&j.origin);
    let axis = nums(&j.axis);
    let limits = option(&j.limits, limits);
    let dynamics = option(&j.dynamics, dynamics);
    let actuator = option(&j.actuator, actuator);
    let mimic = option(&j.mimic, mimic);
    let commands = list(j.command_interfaces.iter().map(interface));
    let states = list(j.state_interfaces.iter().map(interface));
    quote! {
        #core::model::Joint {
            name: #name,
            kind: #core::model::JointKind::#kind,
            parent: #parent,
            child: #child,
            origin: #origin,
            axis: #axis,
            limits: #limits,
            dynamics: #dynamics,
            actuator: #actuator,
            mimic: #mimic,
            command_interfaces: #commands,
            state_interfaces: #states,
        }
    }
}

fn limits(l: &Limits) -> TokenStream {
    let core = CORE();
    let opt = |v: &Option<f64>| option(v, |&v| num(v));
    let (lower, upper, current) = (opt(&l.lower), opt(&l.upper), opt(&l.current));
    let (velocity, effort) = (num(l.velocity), num(l.effort));
    quote! {
        #core::model::Limits { lower: #lower, upper: #upper, velocity: #velocity, effort: #effort, current: #current }
    }
}

fn dynamics(d: &Dynamics) -> TokenStream {
    let core = CORE();
    let (damping, friction, armature) = (num(d.damping), num(d.friction), num(d.armature));
    quote!(#core::model::Dynamics { damping: #damping, friction: #friction, armature: #armature })
}

fn actuator(a: &Actuator) -> TokenStream {
    let core = CORE();
    let bus = text(&a.bus);
    let can_id = u16::from(a.can_id.get());
    let model = proc_macro2::Ident::new(a.model.name(), proc_macro2::Span::call_site());
    let direction = match a.direction {
        Direction::Forward => quote!(Forward),
        Direction::Reversed => quote!(Reversed),
    };
    let zero_offset = num(a.zero_offset);
    let four_bar = option(&a.four_bar, four_bar);
    let lead = option(&a.lead, |lead| num(*lead));
    quote! {
        #core::model::Actuator {
            bus: #bus,
            // Checked at expansion already; checked again here, at compile time, by the same
            // `CanId::new` every other caller uses.
            can_id: match #core::model::CanId::new(#can_id) {
                ::core::result::Result::Ok(__id) => __id,
                ::core::result::Result::Err(_) => ::core::panic!("CAN id out of range 1..=127"),
            },
            model: #core::RobstrideModel::#model,
            direction: #core::model::Direction::#direction,
            zero_offset: #zero_offset,
            four_bar: #four_bar,
            lead: #lead,
        }
    }
}

fn four_bar(f: &FourBar) -> TokenStream {
    let core = CORE();
    let ground = nums(&f.ground);
    let [input_crank, coupler, output_crank, alpha_zero, sign] = [
        f.input_crank,
        f.coupler,
        f.output_crank,
        f.alpha_zero,
        f.sign,
    ]
    .map(num);
    let branch =
        proc_macro2::Ident::new(&format!("{:?}", f.branch), proc_macro2::Span::call_site());
    quote! {
        #core::fourbar::FourBar {
            ground: #ground,
            input_crank: #input_crank,
            coupler: #coupler,
            output_crank: #output_crank,
            alpha_zero: #alpha_zero,
            sign: #sign,
            branch: #core::fourbar::Branch::#branch,
        }
    }
}

fn mimic(m: &Mimic) -> TokenStream {
    let core = CORE();
    let joint = text(&m.joint);
    let (multiplier, offset) = (num(m.multiplier), num(m.offset));
    quote!(#core::model::Mimic { joint: #joint, multiplier: #multiplier, offset: #offset })
}

pub fn interface_kind(kind: InterfaceKind) -> TokenStream {
    let core = CORE();
    let variant = proc_macro2::Ident::new(&format!("{kind:?}"), proc_macro2::Span::call_site());
    quote!(#core::InterfaceKind::#variant)
}

fn interface(i: &Interface) -> TokenStream {
    let core = CORE();
    let kind = interface_kind(i.kind);
    let initial = option(&i.initial_value, |&v| num(v));
    quote!(#core::model::Interface { kind: #kind, initial_value: #initial })
}

fn bus(b: &Bus) -> TokenStream {
    let core = CORE();
    let name = text(&b.name);
    let BusKind::Can { bitrate } = b.kind;
    let max_load = option(&b.max_load, |&v| num(v));
    quote! {
        #core::model::Bus {
            name: #name,
            kind: #core::model::BusKind::Can { bitrate: #bitrate },
            max_load: #max_load,
        }
    }
}

fn sensor(s: &Sensor) -> TokenStream {
    let core = CORE();
    let name = text(&s.name);
    let kind = match s.kind {
        SensorKind::Imu => quote!(Imu),
        SensorKind::ForceTorque => quote!(ForceTorque),
        SensorKind::Contact => quote!(Contact),
    };
    let link = text(&s.link);
    let threshold = option(&s.threshold, |&v| num(v));
    let plugin = text(&s.plugin);
    let params = list(s.params.iter().map(|Param { name, value }| {
        let (name, value) = (text(name), text(value));
        quote!(#core::model::Param { name: #name, value: #value })
    }));
    quote! {
        #core::model::Sensor {
            name: #name,
            kind: #core::model::SensorKind::#kind,
            link: #link,
            plugin: #plugin,
            params: #params,
            threshold: #threshold,
        }
    }
}

fn allowed_contact(c: &AllowedContact) -> TokenStream {
    let core = CORE();
    let name = text(&c.name);
    let [a, b] = c.links.each_ref().map(|l| text(l));
    quote!(#core::model::AllowedContact { name: #name, links: [#a, #b] })
}

fn controller_group(g: &ControllerGroup) -> TokenStream {
    let core = CORE();
    let name = text(&g.name);
    let joints = list(g.joints.iter().map(|j| text(j)));
    let feedforward = match g.feedforward {
        Feedforward::None => quote!(#core::model::Feedforward::None),
        Feedforward::Gravity => quote!(#core::model::Feedforward::Gravity),
    };
    quote!(#core::model::ControllerGroup { name: #name, joints: #joints, feedforward: #feedforward })
}
