//! A robot's bus on the in-process bus: one simulated actuator per joint on it, each at the pose
//! where its joint is at zero, so the whole real path runs with no hardware.

use robot_core::Robot;
use robot_core::config::RuntimeConfig;
use robot_core::model::Dynamics;
use robot_core::transmission::{Transmission, motor_gain};

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
        let node = sim.attach(SimActuator::new(
            actuator.model,
            u16::from(actuator.can_id) as u8,
            MotorModel::new(actuator.model, dynamics.as_ref()),
            motor_angle,
        ));
        nodes.push((index, node));
    }
    nodes
}
