//! `robot!`: define a robot once, in Rust source, and get typed state and command structs plus a
//! static description that every emitter and backend of `robot-core` works from.
//!
//! # Example
//!
//! A two-joint leg on one CAN bus with a base IMU, mirrored left and right:
//!
//! ```
//! use robot_macros::robot;
//!
//! robot! {
//!     /// A small biped, for the docs.
//!     robot DocBiped {
//!         update_rate: 200 Hz,
//!         floating_base: true,               // a free joint in MuJoCo
//!     }
//!
//!     bus left_leg { bitrate: 1_000_000 }
//!     bus right_leg {}                      // 1 Mbit/s by default
//!
//!     link pelvis {
//!         inertial { mass: 2.1, com: [0.0, 0.0, 0.07], inertia: [0.01, 0, 0, 0.008, 0, 0.006] }
//!         collision box { size: [0.1, 0.2, 0.1] }
//!     }
//!     link imu {}
//!     joint imu_frame: fixed { parent: pelvis, child: imu, origin { xyz: [0, 0, 0.08] } }
//!
//!     // Written once; `left | right` values differ per side, names get the side as prefix.
//!     limb leg: left | right {
//!         link thigh {
//!             inertial { mass: 1.5, com: [0, 0, -0.2], inertia: [0.008, 0, 0, 0.008, 0, 0.002] }
//!             collision capsule { radius: 0.04, length: 0.3, origin { xyz: [0, 0, -0.2] } }
//!         }
//!         link shin {
//!             inertial { mass: 1.0, com: [0, 0, -0.18], inertia: [0.005, 0, 0, 0.005, 0, 0.001] }
//!         }
//!         /// Hip flexion.
//!         joint hip_pitch: revolute {
//!             parent: pelvis,
//!             child: thigh,
//!             origin { xyz: [0, 0.07 | -0.07, 0] },
//!             axis: [0, 1, 0],
//!             limits { lower: -135 deg, upper: 45 deg, velocity: 40, effort: 36, current: 43 },
//!             actuator { bus: left_leg | right_leg, can_id: 31 | 41, model: RS06, direction: -1 | 1 },
//!             command: [position, velocity, effort, stiffness, damping],
//!             state: [position = 0.0, velocity, effort],
//!         }
//!         joint knee_pitch: revolute {
//!             parent: thigh,
//!             child: shin,
//!             origin { xyz: [0, 0, -0.33] },
//!             axis: [0, 1, 0],
//!             limits { lower: 0, upper: 2.35, velocity: 40, effort: 36 },
//!             actuator { bus: left_leg | right_leg, can_id: 32 | 42, model: RS06 },
//!             command: [position, velocity, effort, stiffness, damping],
//!             state: [position, velocity, effort],
//!         }
//!     }
//!
//!     imu base_imu { link: imu, plugin: "humanoid_devices_imu_hardware/YahboomImuSensor" }
//! }
//!
//! let mut cmd = DocBipedCommand::default();
//! cmd.left_knee_pitch.position = 0.3;
//! cmd.left_knee_pitch.stiffness = 40.0;
//! let state = DocBipedState::default();
//! let q: f64 = state.left_knee_pitch.position;
//! let quat = state.base_imu.orientation;
//! assert_eq!(DocBiped::LEFT_KNEE_PITCH.POSITION, "left_knee_pitch/position");
//! assert_eq!(DocBiped::DESCRIPTION.joints.len(), 5);
//! assert_eq!(cmd.right_leg().right_hip_pitch.position.is_nan(), true); // no command yet
//! # let _ = (q, quat);
//! ```
//!
//! For controller code that treats joints alike, without index constants:
//!
//! * **One type per interface set.** Every joint with the same interfaces in the same order
//!   shares one state and one command type (`doc_biped::PositionVelocityEffortStiffnessDampingCommand`);
//!   the per-joint names (`doc_biped::LeftKneePitchCommand`) are aliases of it, so one function
//!   written for a set serves every joint that has it.
//! * **Joints with their definition.** `command.joints_mut::<T>()` (and `joints::<T>()`, also on
//!   the state) walks every joint whose type is set `T`, in declaration order, each with its
//!   `robot_core::model::Joint` (limits, actuator): allocation-free, and a `T` that is not one of
//!   the robot's set types is a compile error.
//! * **Per-limb views.** For `limb leg: left | right`, `command.leg()` and `state.leg()` give one
//!   view per side, `[left, right]`, whose fields are the limb's joints without the side
//!   (`leg.knee_pitch.position`), so code for one leg drives both.
//!
//! ```
//! # use robot_macros::robot;
//! # robot! {
//! #     robot Legs { update_rate: 200 Hz }
//! #     bus left_leg {} bus right_leg {}
//! #     link pelvis {}
//! #     limb leg: left | right {
//! #         link thigh {}
//! #         joint hip_pitch: revolute {
//! #             parent: pelvis, child: thigh, axis: [0, 1, 0],
//! #             limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
//! #             actuator { bus: left_leg | right_leg, can_id: 1 | 2, model: RS02 },
//! #             command: [position, stiffness], state: [position],
//! #         }
//! #     }
//! # }
//! let mut cmd = LegsCommand::default();
//! for (joint, command) in cmd.joints_mut::<legs::PositionStiffnessCommand>() {
//!     command.position = joint.limits.and_then(|l| l.upper).unwrap_or(0.0) / 2.0;
//! }
//! for leg in cmd.leg() {
//!     leg.hip_pitch.stiffness = 40.0; // left, then right
//! }
//! assert_eq!((cmd.left_hip_pitch.position, cmd.right_hip_pitch.stiffness), (0.5, 40.0));
//! ```
//!
//! Naming an interface the joint does not declare is a compile error, rustc's own:
//!
//! ```compile_fail
//! # use robot_macros::robot;
//! robot! {
//!     robot Tiny { update_rate: 100 }
//!     bus arm {}
//!     link base {}
//!     link tip {}
//!     joint j: revolute {
//!         parent: base, child: tip,
//!         limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
//!         actuator { bus: arm, can_id: 1, model: RS02 },
//!         command: [position], state: [position],
//!     }
//! }
//! let mut cmd = TinyCommand::default();
//! cmd.j.temperature = 1.0; // no field `temperature`
//! ```
//!
//! # The language
//!
//! Items, in any order:
//! * `robot Name { update_rate: N, floating_base: bool, mock { calculate_dynamics: bool, position_state_following_offset: x, mock_sensor_commands: bool, disable_commands: bool } }`
//!   — exactly one; `Name` is the Rust type name, the ROS name is its snake case.
//! * `bus name [: can] { bitrate: N, max_load: 95 % }` — a CAN bus; which OS interface it is on
//!   is runtime configuration, never part of the definition. Its worst-case load at the update
//!   rate must stay under `max_load`, 80 % by default (why: `robot_core::bus_load`).
//! * `link name { inertial { mass, com: [x, y, z], com_rpy: [r, p, y], inertia: [ixx, ixy, ixz, iyy, iyz, izz] }, visual GEOMETRY { .. }, collision GEOMETRY { .. } }`
//!   with GEOMETRY one of `box { size: [x, y, z] }`, `cylinder { radius, length }`,
//!   `sphere { radius }`, `capsule { radius, length }`, `mesh { filename: "..", scale: [..] }`,
//!   each with an optional `origin { xyz: [..], rpy: [..] }`.
//! * `joint name: revolute|continuous|prismatic|fixed { parent, child, origin { xyz, rpy }, axis,
//!   limits { lower, upper, velocity, effort, current }, dynamics { damping, friction, armature },
//!   actuator { bus, can_id, model: RS00..RS06, direction: 1|-1, zero_offset, four_bar { .. }, lead },
//!   mimic { joint, multiplier, offset }, command: [..], state: [..] }`. A prismatic joint's
//!   actuator needs `lead`, its travel per motor revolution (`lead: 50 mm`: a lead screw's lead,
//!   or 2π times a pinion's pitch radius); its limits are then checked in N and m/s through it.
//!   Interfaces are `position`, `velocity`, `acceleration`, `effort`, `stiffness`, `damping`,
//!   `current` (command or state) and `temperature` (state), each optionally `= initial value`.
//! * `four_bar { ground: [x, z], input_crank, coupler, output_crank, alpha_zero, sign: 1|-1,
//!   branch: counter_clockwise|clockwise }` — conventions in `robot_core::fourbar`.
//! * `imu name { link, plugin: "pkg/Class", params { key: value, .. } }`; likewise
//!   `force_torque name { .. }` (state `force.x` … `torque.z`: the wrench the link's parent exerts
//!   on the link, in its frame) and `contact name { .., threshold: 2 N }` (state `contact`, 1 or 0,
//!   and `normal_force`, N, on the link's collision shapes). Fields `ImuState`,
//!   `ForceTorqueState`, `ContactState` of the state struct; see the repository's `docs/sensors.md`.
//! * `limb label: side | side { links, joints, sensors }` — instantiated once per side; see below.
//! * `allow_contact name { links: [a, b] }` — a contact the design means (two parts that touch at
//!   the home pose): the MJCF excludes it (`<contact><exclude>`), and neither self-collision
//!   check at the home pose reports it (`robot_collision`, from the definition's primitives on
//!   every backend; `backend_mujoco::overlap`, from MuJoCo's contacts). Two
//!   different links of the robot; at top level (after a limb, with their side).
//! * `controller name { joints: [a, b, ..] }` — a controller group of your choosing, at top level
//!   (after a limb, name its joints with their side: `left_hip_pitch`). By default
//!   `controllers.yaml` serves each bus's joints with a `<bus>_trajectory_controller` and
//!   `<bus>_<interface>_controller`s for the interfaces it does not take
//!   (`robot_core::controller_plan`); a group takes its joints out of their buses' groups and
//!   gets `<name>_trajectory_controller` and `<name>_<interface>_controller`s instead. Its joints
//!   must be actuated and not mimic, each in one group, and either all or none take `position`.
//!
//! Names of joints, buses and sensors become fields, types and constants (`left_knee_pitch` →
//! `LeftKneePitchState`, an alias of its interface set's type, `LEFT_KNEE_PITCH`), and the robot's a module (`lite_biped`): keywords are
//! written raw (`r#type`), but a name Rust cannot write at all (`self`, `crate`, `super`, `Self`,
//! `_`, or `_1`, whose type would be `1State`) is an error at the name
//! (`robot_core::validate::names`).
//!
//! Numbers may carry a unit, converted to SI: `deg`, `rad` (angles), `mm`, `m` (lengths), `g`,
//! `kg` (masses), `Hz` (frequencies), `%` (ratios), `rad/s`, `deg/s`, `rpm` (angular
//! velocities), `m/s`, `mm/s` (velocities), `N·m`, `Nm` (torques) and `N` (forces). The unit must
//! measure what the field does: a revolute joint's `velocity` limit takes an angular velocity and
//! its `effort` a torque, a prismatic joint's a velocity and a force; `lower: -1 mm` on a
//! revolute joint, `deg` on a length or `deg` on a velocity limit is an error at the unit, saying
//! which units the field takes. A bare number is in SI units.
//!
//! In a limb, names declared in it get the side as prefix (`hip_pitch` → `left_hip_pitch`, and
//! so does every reference to them), and any value may be written `a | b`: one per side, in side
//! order. The per-side forms:
//! * a number or a name: `can_id: 31 | 41`, `bus: left_leg | right_leg`, `direction: -1 | 1`;
//! * one element of a list: `xyz: [0.02, 0.07 | -0.07, 0]`;
//! * a whole block: `origin: { xyz: [0, 0.1, 0] } | { xyz: [0, -0.1, 0], rpy: [0, 0, 3.14159] }`;
//! * `none`, which leaves the entry out on that side: `four_bar: { .. } | none` gives the left
//!   leg a linkage and the right leg a direct drive.
//!
//! `limb leg: left | right, mirror: y { .. }` writes the limb once for both sides of the robot:
//! the sides come in pairs (a hexapod's `front_left | front_right | middle_left | ...`), and the
//! second of each pair is the mirror image of the first across the XZ plane, every value written
//! as for the first: origins and centres of mass take -y, orientations -roll and -yaw, inertias
//! -ixy and -iyz, a hinge's axis (-x, y, -z) and a slider's (x, -y, z), so the same joint
//! position moves the two sides symmetrically. Limits and actuators are taken as written
//! (`direction: -1 | 1` where the motors are mounted mirrored); per-side values still give each
//! pair its own place (`xyz: [0.1 | 0.1 | 0 | 0, 0.08, 0]`, the y mirrored on the right).
//! A per-side value that negates, on a pair's second side, what the mirror negates already
//! (`xyz: [0, 0.25 | -0.25, 0]`) is an error at that value: the mirror written twice.
//!
//! Every rule of `robot_core::validate` is checked at expansion and reported at the offending
//! token, all errors at once: syntax errors and rule problems together, except rule problems of an
//! item that already has a syntax error (they would be follow-ons of it).

mod check;
mod description;
mod errors;
mod expand;
mod kw;
mod limb;
mod lower;
mod mirror;
mod parse;

use proc_macro::TokenStream;

/// Defines a robot. See the [crate docs](crate) for the language and an example.
#[proc_macro]
pub fn robot(input: TokenStream) -> TokenStream {
    expand_robot(input.into()).into()
}

/// `robot!` over `proc_macro2` tokens, so unit tests can run it outside a compiler.
fn expand_robot(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let parsed = match syn::parse2::<parse::Input>(input) {
        Ok(parsed) => parsed,
        Err(error) => return error.into_compile_error(),
    };
    let mut errors = errors::Errors::default();
    let (items, limbs) = limb::expand(parsed.items, &mut errors);
    let limb_errors = errors.count();
    let lowered = lower::robot(&items, &mut errors);
    // Rule problems are reported next to syntax errors, except where the syntax errors left
    // gaps (see `check::robot`); a broken limb leaves its copies incomplete, so then none.
    if limb_errors == 0 {
        check::robot(&lowered, &limbs, &mut errors);
    }
    // The types are generated even when there are errors, so the user sees the real errors and
    // not a cascade of "cannot find type" in their controller code.
    let mut out = expand::robot(&lowered, &limbs);
    out.extend(errors.into_compile_error());
    out
}

#[cfg(test)]
mod tests;
