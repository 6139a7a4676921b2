//! Rules of joints and what drives them: limits, interfaces, actuators and their models,
//! four-bars, mimics, CAN ids, bus load, sensors.

use std::collections::HashMap;

use super::problem::{BusField, JointField, ProblemKind, RobotField, SensorField, Site};
use super::{Problems, suggest};
use crate::bus_load;
use crate::interface::InterfaceKind;
use crate::model::{CanId, Geometry, Joint, JointKind, Robot, Sensor, SensorKind, Shape};

/// urdfdom rejects revolute and prismatic joints without `<limit>`; lower must be below upper;
/// a continuous joint with bounds would be limited by MuJoCo; non-positive velocity or effort
/// limits would clamp every command to nothing.
pub(super) fn joint_limits(index: usize, joint: &Joint, out: &mut Problems) {
    let name = || joint.name.to_string();
    let kind = joint.kind.urdf_name();
    let Some(limits) = &joint.limits else {
        if joint.kind.is_bounded() {
            out.push(
                Site::Joint(index, JointField::Kind),
                ProblemKind::MissingLimits {
                    joint: name(),
                    kind,
                },
            );
        }
        return;
    };
    match (joint.kind, limits.lower, limits.upper) {
        // `partial_cmp` so that a NaN bound is also out of order.
        (JointKind::Revolute | JointKind::Prismatic, Some(lower), Some(upper))
            if lower.partial_cmp(&upper) != Some(std::cmp::Ordering::Less) =>
        {
            out.push(
                Site::Joint(index, JointField::Lower),
                ProblemKind::LimitOrder {
                    joint: name(),
                    lower,
                    upper,
                    unit: if joint.kind == JointKind::Prismatic {
                        "m"
                    } else {
                        "rad"
                    },
                },
            );
        }
        (JointKind::Revolute | JointKind::Prismatic, Some(_), Some(_)) => {}
        (JointKind::Revolute | JointKind::Prismatic, _, _) => {
            out.push(
                Site::Joint(index, JointField::Limits),
                ProblemKind::MissingPositionLimits {
                    joint: name(),
                    kind,
                },
            );
        }
        (JointKind::Continuous, lower, upper) if lower.is_some() || upper.is_some() => {
            let field = if lower.is_some() {
                JointField::Lower
            } else {
                JointField::Upper
            };
            out.push(
                Site::Joint(index, field),
                ProblemKind::ContinuousWithPositionLimits { joint: name() },
            );
        }
        _ => {}
    }
    for (what, value, field) in [
        ("velocity limit", limits.velocity, JointField::Velocity),
        ("effort limit", limits.effort, JointField::Effort),
    ] {
        if !(value.is_finite() && value > 0.0) {
            out.push(
                Site::Joint(index, field),
                ProblemKind::NotPositive {
                    joint: name(),
                    what,
                    value,
                },
            );
        }
    }
    if let Some(current) = limits.current
        && !(current.is_finite() && current > 0.0)
    {
        {
            out.push(
                Site::Joint(index, JointField::Current),
                ProblemKind::NotPositive {
                    joint: name(),
                    what: "current limit",
                    value: current,
                },
            );
        }
    }
}

/// ros2_control keys handles by `<joint>/<interface>`: a second declaration would export the same
/// handle twice. Stiffness and damping are inputs to the MIT law, temperature is only measured.
pub(super) fn joint_interfaces(index: usize, joint: &Joint, out: &mut Problems) {
    for (direction, list, field, allowed) in [
        (
            "command",
            &joint.command_interfaces,
            JointField::Command as fn(usize) -> JointField,
            InterfaceKind::is_command as fn(InterfaceKind) -> bool,
        ),
        (
            "state",
            &joint.state_interfaces,
            JointField::State,
            InterfaceKind::is_state,
        ),
    ] {
        for (i, interface) in list.iter().enumerate() {
            if list[..i]
                .iter()
                .any(|earlier| earlier.kind == interface.kind)
            {
                out.push(
                    Site::Joint(index, field(i)),
                    ProblemKind::DuplicateInterface {
                        joint: joint.name.to_string(),
                        direction,
                        interface: interface.kind,
                    },
                );
            }
            if !allowed(interface.kind) {
                out.push(
                    Site::Joint(index, field(i)),
                    ProblemKind::WrongDirection {
                        joint: joint.name.to_string(),
                        direction,
                        interface: interface.kind,
                    },
                );
            }
        }
    }
}

/// ros2_control refuses fixed joints in a block; every exported joint needs a block, and on real
/// hardware the block is its bus's, so a controlled joint needs an actuator (or follows one).
pub(super) fn joint_control(index: usize, joint: &Joint, out: &mut Problems) {
    let name = || joint.name.to_string();
    if joint.kind == JointKind::Fixed {
        if joint.actuator.is_some() {
            out.push(
                Site::Joint(index, JointField::Actuator),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "an actuator",
                },
            );
        }
        if joint.is_controlled() {
            out.push(
                Site::Joint(index, JointField::Kind),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "interfaces",
                },
            );
        }
        if joint.mimic.is_some() {
            out.push(
                Site::Joint(index, JointField::Mimic),
                ProblemKind::FixedJointControlled {
                    joint: name(),
                    what: "a mimic",
                },
            );
        }
        return;
    }
    if joint.is_controlled() && joint.actuator.is_none() && joint.mimic.is_none() {
        out.push(
            Site::Joint(index, JointField::Name),
            ProblemKind::InterfacesWithoutActuator { joint: name() },
        );
    }
    if joint.actuator.is_some() && !joint.is_controlled() {
        out.push(
            Site::Joint(index, JointField::Actuator),
            ProblemKind::ActuatorWithoutInterfaces { joint: name() },
        );
    }
}

/// ros2_control's parser wants a mimic joint to follow a joint of the same block, and exports only
/// its states; a joint cannot follow itself or a joint that does not exist.
pub(super) fn joint_mimic(robot: &Robot, index: usize, joint: &Joint, out: &mut Problems) {
    let Some(mimic) = &joint.mimic else { return };
    let name = || joint.name.to_string();
    let site = Site::Joint(index, JointField::Mimic);
    if mimic.joint == joint.name {
        out.push(site, ProblemKind::MimicSelf { joint: name() });
        return;
    }
    let Some(target) = robot.joint(&mimic.joint) else {
        out.push(
            site,
            ProblemKind::UnknownMimicJoint {
                joint: name(),
                target: mimic.joint.to_string(),
                suggestion: suggest::closest(&mimic.joint, robot.joints.iter().map(|j| &*j.name))
                    .map(str::to_string),
            },
        );
        return;
    };
    if !joint.command_interfaces.is_empty() {
        out.push(
            Site::Joint(index, JointField::Command(0)),
            ProblemKind::MimicWithCommands { joint: name() },
        );
    }
    if joint.actuator.is_some() {
        out.push(
            Site::Joint(index, JointField::Actuator),
            ProblemKind::MimicWithActuator {
                joint: name(),
                target: target.name.to_string(),
            },
        );
    } else if robot.bus_of(joint).is_none() {
        out.push(
            site,
            ProblemKind::MimicOfUncontrolled {
                joint: name(),
                target: target.name.to_string(),
            },
        );
    }
}

/// Two actuators answering to one id on one bus would both obey every frame.
pub(super) fn can_ids(robot: &Robot, out: &mut Problems) {
    let mut seen: HashMap<(&str, CanId), usize> = HashMap::new();
    for (index, joint) in robot.joints.iter().enumerate() {
        let Some(actuator) = &joint.actuator else {
            continue;
        };
        match seen.get(&(actuator.bus.as_ref(), actuator.can_id)) {
            Some(&first) => out.push_related(
                Site::Joint(index, JointField::CanId),
                ProblemKind::DuplicateCanId {
                    id: actuator.can_id,
                    bus: actuator.bus.to_string(),
                    first: robot.joints[first].name.to_string(),
                    second: joint.name.to_string(),
                },
                Site::Joint(first, JointField::CanId),
                "first used here",
            ),
            None => {
                seen.insert((actuator.bus.as_ref(), actuator.can_id), index);
            }
        }
    }
}

/// A bus must carry every cycle's frames within the cycle, with headroom: see [`bus_load`] for
/// the ceiling (80 % unless the bus raises it) and why.
pub(super) fn buses(robot: &Robot, out: &mut Problems) {
    for (index, bus) in robot.buses.iter().enumerate() {
        let bitrate = bus.kind.bitrate();
        if bitrate == 0 || bitrate > bus_load::MAX_CLASSIC_CAN_BITRATE {
            out.push(
                Site::Bus(index, BusField::Bitrate),
                ProblemKind::BadBitrate {
                    bus: bus.name.to_string(),
                    bitrate,
                },
            );
            continue;
        }
        if let Some(value) = bus.max_load
            && !(value > 0.0 && value <= 1.0)
        {
            out.push(
                Site::Bus(index, BusField::MaxLoad),
                ProblemKind::BadMaxLoad {
                    bus: bus.name.to_string(),
                    value,
                },
            );
            continue;
        }
        if let Some(overload) = bus_load::overload(robot, bus, robot.update_rate) {
            // The load is the rate's as much as the bitrate's: point at both.
            out.push_related(
                Site::Bus(index, BusField::Bitrate),
                ProblemKind::BusOverloaded(overload),
                Site::Robot(RobotField::UpdateRate),
                "the update rate is set here",
            );
        }
    }
}

/// A sensor sits on a link of this robot, and real hardware needs a plugin to drive it.
pub(super) fn sensors(robot: &Robot, out: &mut Problems) {
    for (index, sensor) in robot.sensors.iter().enumerate() {
        if robot.link(&sensor.link).is_none() {
            out.push(
                Site::Sensor(index, SensorField::Link),
                ProblemKind::UnknownSensorLink {
                    sensor: sensor.name.to_string(),
                    link: sensor.link.to_string(),
                    suggestion: suggest::closest(
                        &sensor.link,
                        robot.links.iter().map(|l| &*l.name),
                    )
                    .map(str::to_string),
                },
            );
        }
        if sensor.plugin.trim().is_empty() {
            out.push(
                Site::Sensor(index, SensorField::Plugin),
                ProblemKind::MissingPlugin {
                    sensor: sensor.name.to_string(),
                },
            );
        }
        sensor_kind_rules(robot, index, sensor, out);
    }
}

/// What each kind of sensor needs of its link, and the threshold only a contact sensor has.
fn sensor_kind_rules(robot: &Robot, index: usize, sensor: &Sensor, out: &mut Problems) {
    let name = || sensor.name.to_string();
    match (sensor.kind, sensor.threshold) {
        (SensorKind::Contact, Some(value)) if !(value.is_finite() && value > 0.0) => out.push(
            Site::Sensor(index, SensorField::Threshold),
            ProblemKind::BadContactThreshold {
                sensor: name(),
                value,
            },
        ),
        (SensorKind::Contact, _) | (_, None) => {}
        (kind, Some(_)) => out.push(
            Site::Sensor(index, SensorField::Threshold),
            ProblemKind::ThresholdWithoutContact {
                sensor: name(),
                kind: kind.keyword(),
            },
        ),
    }
    let Some(link) = robot.link(&sensor.link) else {
        return;
    };
    match sensor.kind {
        SensorKind::Imu => {}
        SensorKind::Contact => {
            let primitive = |s: &&Shape| !matches!(s.geometry, Geometry::Mesh { .. });
            if !link.collisions.iter().any(|s| primitive(&s)) {
                out.push(
                    Site::Sensor(index, SensorField::Link),
                    ProblemKind::ContactWithoutGeometry {
                        sensor: name(),
                        link: link.name.to_string(),
                        meshes_only: !link.collisions.is_empty(),
                    },
                );
            }
        }
        SensorKind::ForceTorque => {
            if !robot.joints.iter().any(|j| j.child == link.name) {
                out.push(
                    Site::Sensor(index, SensorField::Link),
                    ProblemKind::ForceTorqueOnRoot {
                        sensor: name(),
                        link: link.name.to_string(),
                    },
                );
            }
        }
    }
}
