//! Rules of a joint's actuator: its bus exists, its four-bar assembles, a prismatic joint says how
//! motor rotation becomes travel (its `lead`), and the joint asks for nothing the RobStride model
//! cannot do (its ranges: [`crate::actuator::ModelSpec`]), compared in the joint's own units
//! through the transmission: a four-bar's ratio, or a lead's `lead / 2π` m/rad.

use super::problem::{JointField, ProblemKind, Site};
use super::{Problems, suggest};
use crate::actuator::{
    ModelSpec, RobstrideModel, TURN_COUNTER_SPAN, limit_angles, within_turn_counter,
};
use crate::interface::InterfaceKind;
use crate::model::{Actuator, Joint, JointKind, Limits, Robot};
use crate::transmission::{Transmission, motor_gain};

/// Smallest and largest |J| = |dq/dθ| over the joint range: 1 without a linkage, `lead / 2π`
/// through a lead, the four-bar's extremes through one.
type RatioRange = (f64, f64);

/// The units of a joint's quantities: rotary, or prismatic.
struct Units {
    position: &'static str,
    velocity: &'static str,
    effort: &'static str,
    stiffness: &'static str,
    damping: &'static str,
}

impl Units {
    fn of(kind: JointKind) -> Units {
        if kind == JointKind::Prismatic {
            Units {
                position: "m",
                velocity: "m/s",
                effort: "N",
                stiffness: "N/m",
                damping: "N·s/m",
            }
        } else {
            Units {
                position: "rad",
                velocity: "rad/s",
                effort: "N·m",
                stiffness: "N·m/rad",
                damping: "N·m·s/rad",
            }
        }
    }
}

/// The actuator model bounds what the joint may ask for (through the four-bar's ratio where there
/// is one), and a four-bar must assemble, away from toggle poses, over the whole joint range.
pub(super) fn joint_actuator(robot: &Robot, index: usize, joint: &Joint, out: &mut Problems) {
    let Some(actuator) = &joint.actuator else {
        return;
    };
    let name = || joint.name.to_string();
    if robot.bus(&actuator.bus).is_none() {
        out.push(
            Site::Joint(index, JointField::Bus),
            ProblemKind::UnknownBus {
                joint: name(),
                bus: actuator.bus.to_string(),
                suggestion: suggest::closest(&actuator.bus, robot.buses.iter().map(|b| &*b.name))
                    .map(str::to_string),
            },
        );
    }
    let range = joint.limits.and_then(|l| l.lower.zip(l.upper));
    let mut ratio: RatioRange = (1.0, 1.0);
    // Whether joint and motor are related as the definition says: not with a lead on a rotary
    // joint (reported below), whose range then says nothing about the motor's.
    let mut mapped = true;
    match (joint.kind, actuator.lead) {
        (JointKind::Prismatic, None) => {
            // Travel and rotation cannot be compared without it: no model check is meaningful.
            out.push(
                Site::Joint(index, JointField::Actuator),
                ProblemKind::PrismaticNeedsLead { joint: name() },
            );
            return;
        }
        (JointKind::Prismatic, Some(lead)) if !(lead.is_finite() && lead > 0.0) => {
            out.push(
                Site::Joint(index, JointField::Lead),
                ProblemKind::NotPositive {
                    joint: name(),
                    what: "lead",
                    value: lead,
                },
            );
            return;
        }
        (JointKind::Prismatic, Some(_)) => {
            let r = actuator.lead_ratio().unwrap_or(1.0);
            ratio = (r, r);
        }
        (kind, Some(_)) => {
            mapped = false;
            out.push(
                Site::Joint(index, JointField::Lead),
                ProblemKind::LeadOnRotaryJoint {
                    joint: name(),
                    kind: kind.urdf_name(),
                },
            );
        }
        (_, None) => {}
    }
    if let Some(four_bar) = &actuator.four_bar {
        match range.filter(|_| joint.kind == JointKind::Revolute) {
            None => out.push(
                Site::Joint(index, JointField::FourBar),
                ProblemKind::FourBarNeedsRange { joint: name() },
            ),
            Some((lower, upper)) => match four_bar.check_range(lower, upper) {
                Ok(report) => {
                    let (a, b) = (report.min_ratio.abs(), report.max_ratio.abs());
                    ratio = (a.min(b), a.max(b));
                }
                Err(source) => {
                    out.push(
                        Site::Joint(index, JointField::FourBar),
                        ProblemKind::FourBar {
                            joint: name(),
                            source,
                        },
                    );
                    return;
                }
            },
        }
    }
    let spec = actuator.model.spec();
    if let Some(limits) = &joint.limits {
        velocity_and_effort(index, joint, actuator.model, limits, ratio, out);
    }
    if mapped {
        position_range(index, joint, actuator, out);
    }
    gains(index, joint, actuator.model, spec, ratio, out);
}

/// The joint's velocity and effort limits must be reachable everywhere in the range: velocity at
/// the smallest ratio, torque at the largest (joint velocity = J · motor velocity, joint torque =
/// motor torque / J).
fn velocity_and_effort(
    index: usize,
    joint: &Joint,
    model: RobstrideModel,
    limits: &Limits,
    (min_ratio, max_ratio): RatioRange,
    out: &mut Problems,
) {
    let spec = model.spec();
    let units = Units::of(joint.kind);
    let checks = [
        (
            "velocity limit",
            limits.velocity,
            spec.velocity * min_ratio,
            units.velocity,
            JointField::Velocity,
        ),
        (
            "effort limit",
            limits.effort,
            spec.torque / max_ratio,
            units.effort,
            JointField::Effort,
        ),
    ];
    for (what, value, max, unit, field) in checks {
        if value > max * (1.0 + 1e-9) {
            out.push(
                Site::Joint(index, field),
                ProblemKind::BeyondModel {
                    joint: joint.name.to_string(),
                    what,
                    value,
                    max: round3(max),
                    unit,
                    model: model.name(),
                },
            );
        }
    }
}

/// The joint's whole range, through direction, zero offset and four-bar or lead, must take its
/// motor nowhere the turn counter cannot follow it: within ±4096 rad of the motor's zero (see
/// [`crate::actuator`]). Beyond the MIT frame's ±4π the backend counts the turns; beyond the
/// counter, the motor's own multi-turn angle steps coarser than its feedback. A continuous joint
/// has no range to check.
fn position_range(index: usize, joint: &Joint, actuator: &Actuator, out: &mut Problems) {
    // The four-bar was checked to take the whole range (an end it cannot reach is its rule's),
    // and a non-finite limit or offset is the finite-numbers rule's.
    for end in limit_angles(joint, &Transmission::of(actuator)) {
        if within_turn_counter(end.motor) {
            continue;
        }
        let field = if end.end == "lower" {
            JointField::Lower
        } else {
            JointField::Upper
        };
        out.push(
            Site::Joint(index, field),
            ProblemKind::BeyondPositionRange {
                joint: joint.name.to_string(),
                end: end.end,
                limit: end.limit,
                unit: Units::of(joint.kind).position,
                motor: end.motor,
                range: TURN_COUNTER_SPAN,
                model: actuator.model.name(),
            },
        );
    }
}

/// Initial stiffness and damping commands are MIT gains, which the frame encodes in
/// `0..=Kp max` and `0..=Kd max`; through a four-bar or a lead a joint gain K is the motor gain
/// J²·K.
fn gains(
    index: usize,
    joint: &Joint,
    model: RobstrideModel,
    spec: ModelSpec,
    (_, max_ratio): RatioRange,
    out: &mut Problems,
) {
    // The largest motor gain a joint gain K asks for over the range.
    let referred = motor_gain(1.0, max_ratio);
    let units = Units::of(joint.kind);
    for (i, interface) in joint.command_interfaces.iter().enumerate() {
        let (what, max, unit) = match interface.kind {
            InterfaceKind::Stiffness => ("initial stiffness", spec.stiffness, units.stiffness),
            InterfaceKind::Damping => ("initial damping", spec.damping, units.damping),
            _ => continue,
        };
        let Some(value) = interface.initial_value.filter(|v| v.is_finite()) else {
            continue;
        };
        let site = Site::Joint(index, JointField::Command(i));
        if value < 0.0 {
            out.push(
                site,
                ProblemKind::NegativeGain {
                    joint: joint.name.to_string(),
                    what,
                    value,
                },
            );
        } else if value * referred > max * (1.0 + 1e-9) {
            out.push(
                site,
                ProblemKind::BeyondModel {
                    joint: joint.name.to_string(),
                    what,
                    value,
                    max: round3(max / referred),
                    unit,
                    model: model.name(),
                },
            );
        }
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).floor() / 1000.0
}
