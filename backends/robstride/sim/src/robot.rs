//! A robot's bus on the in-process bus: one simulated actuator per joint on it, each at the pose
//! where its joint is at zero, so the whole real path runs with no hardware.
//!
//! Each motor carries its joint's dynamics (armature, damping, friction) as the definition gives
//! them, referred through the transmission. A prismatic joint whose axis cannot turn (every joint
//! above it fixed: a lift on its base, a gantry) carries the links it moves too: their mass as
//! inertia, and their weight along its axis as a load ([`gravity_on`]). Elsewhere gravity depends
//! on the pose and is not simulated: a revolute joint's motor turns as if its links were
//! weightless (MuJoCo simulates them).

use robot_runtime::Robot;
use robot_runtime::config::RuntimeConfig;
use robot_runtime::kinematics::{Transform, rigid_body_of};
use robot_runtime::model::Dynamics;
use robot_runtime::model::{Joint, JointKind};
use robot_runtime::transmission::{Transmission, motor_gain};

use crate::actuator::SimActuator;
use crate::bus::{NodeId, SimBus};
use crate::motor::MotorModel;

/// Attaches to `sim` a simulated actuator for every actuated joint of `robot` on bus `bus`,
/// calibrated as `config` says (or as the definition does); returns `(joint index, node)` of each.
pub fn attach_actuators(
    robot: &Robot,
    bus: &str,
    config: Option<&RuntimeConfig>,
    sim: &SimBus,
) -> Vec<(usize, NodeId)> {
    let mut nodes = Vec::new();
    for (index, joint) in robot.joints.iter().enumerate() {
        let Some(actuator) = joint.actuator.as_ref().filter(|a| a.bus == bus) else {
            continue;
        };
        let zero = config.map_or(actuator.zero_offset, |c| c.zero_offset(joint));
        // Standing at the joint's zero (or as near as its range allows).
        let rest = joint.limits.as_ref().map_or(0.0, |l| {
            0.0_f64.clamp(l.lower.unwrap_or(f64::MIN), l.upper.unwrap_or(f64::MAX))
        });
        let motor_angle = Transmission::of(actuator)
            .with_zero_offset(zero)
            .motor_position(rest)
            .unwrap_or(zero);
        // The joint's dynamics as the motor feels them: through a lead, a mass of m kg is
        // m·r² kg·m², damping likewise, friction r·F N·m (r = lead / 2π).
        let r = actuator.lead_ratio().unwrap_or(1.0);
        let dynamics = joint.dynamics.map(|d| Dynamics {
            damping: motor_gain(d.damping, r),
            friction: d.friction * r,
            armature: motor_gain(d.armature, r),
        });
        let mut mechanics = MotorModel::new(actuator.model, dynamics.as_ref());
        if let Some(carried) = gravity_on(robot, joint) {
            // Through the lead, as its direction turns the motor: q = sign · r · θ.
            let sign = f64::from(i8::from(actuator.direction));
            mechanics.inertia += motor_gain(carried.mass, r);
            mechanics.load = carried.force * r * sign;
        }
        let node = sim.attach(SimActuator::new(
            actuator.model,
            u16::from(actuator.can_id) as u8,
            mechanics,
            motor_angle,
        ));
        nodes.push((index, node));
    }
    nodes
}

/// What a prismatic joint whose axis cannot turn moves against gravity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Carried {
    /// The mass of every link it moves, kg.
    pub mass: f64,
    /// Their weight along the joint's axis, N (negative where the axis points up).
    pub force: f64,
}

/// Standard gravity, m/s².
const GRAVITY: f64 = 9.80665;

/// What `joint` carries, if it is prismatic and fixed to the root through fixed joints only, so
/// that its axis stays where the definition puts it (the root at the world's origin, z up).
pub fn gravity_on(robot: &Robot, joint: &Joint) -> Option<Carried> {
    if joint.kind != JointKind::Prismatic {
        return None;
    }
    let (body, pose) = rigid_body_of(robot, &joint.parent)?;
    if robot.root_link().is_none_or(|root| root.name != body) {
        return None;
    }
    let axis = pose
        .then(&Transform::from_pose(&joint.origin))
        .rotate(joint.axis);
    let norm = axis.iter().map(|c| c * c).sum::<f64>().sqrt();
    if norm <= 0.0 || !norm.is_finite() {
        return None;
    }
    let mass = moved_mass(robot, &joint.child, robot.joints.len());
    Some(Carried {
        mass,
        force: -mass * GRAVITY * axis[2] / norm,
    })
}

/// The mass of `link` and every link below it; `depth` bounds a tree that loops.
fn moved_mass(robot: &Robot, link: &str, depth: usize) -> f64 {
    let own = robot
        .link(link)
        .and_then(|l| l.inertial)
        .map_or(0.0, |i| i.mass);
    if depth == 0 {
        return own;
    }
    own + robot
        .joints
        .iter()
        .filter(|j| j.parent == link)
        .map(|j| moved_mass(robot, &j.child, depth - 1))
        .sum::<f64>()
}
