//! Which slots each joint's position, velocity and effort live in, resolved once from the
//! description, so `read` and `write` only index.

use robot_runtime::hardware::mimic::Mimics;
use robot_runtime::hardware::{ErrorKind, HardwareError};
use robot_runtime::typed::Layout;
use robot_runtime::{InterfaceKind, Robot};

/// The interfaces a `sensor_msgs/JointState` carries, in its array order.
pub(crate) const CARRIED: [InterfaceKind; 3] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Effort,
];

/// The array names, in [`CARRIED`] order.
pub(crate) const ARRAYS: [&str; 3] = ["position", "velocity", "effort"];

/// One joint matched by name in state messages.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StateJoint {
    /// Its name, as the definition (and the message) spell it.
    pub name: &'static str,
    /// State slots of position, velocity, effort, where declared.
    pub slots: [Option<usize>; 3],
}

/// One joint named in command messages.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CommandJoint {
    /// Its name.
    pub name: &'static str,
    /// Command slots of position, velocity, effort, where declared.
    pub command: [Option<usize>; 3],
    /// State slots of the same, where declared: what is sent where the joint has no such
    /// command, or its command is NaN (the held state), and what the threshold compares with.
    pub state: [Option<usize>; 3],
    /// The bounds a position, velocity and effort command is held within: the joint's limits
    /// (position range, ± velocity, ± effort), unbounded where it gives none.
    pub bounds: [(f64, f64); 3],
}

/// Everything a cycle needs.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Plan {
    /// Controlled joints that are not mimics, in declaration order: what states are matched to.
    pub states: Vec<StateJoint>,
    /// The mimic joints' names.
    pub mimic_names: Vec<&'static str>,
    /// Enabled joints with a position, velocity or effort command, in declaration order: the
    /// `name` of every command message.
    pub commands: Vec<CommandJoint>,
    /// Which arrays command messages carry: those some joint commands.
    pub command_arrays: [bool; 3],
    /// Mimic joints, filled from the joints they follow.
    pub mimics: Mimics,
    /// The state slots this component fills, for copying out.
    pub state_slots: Vec<usize>,
    /// What `on_configure` puts in the state slots: initial values, else 0.
    pub initial_state: Vec<(usize, f64)>,
    /// First state slot of the IMU the component drives, if any.
    pub imu: Option<usize>,
}

impl Plan {
    pub(crate) fn resolve(
        robot: &'static Robot,
        state_layout: &Layout,
        command_layout: &Layout,
        disabled: &[usize],
        imu: Option<usize>,
        component: &str,
    ) -> Result<Plan, HardwareError> {
        let mut plan = Plan::default();
        let mut mimics = Vec::new();
        for (index, joint) in robot.joints.iter().enumerate() {
            if !joint.is_controlled() {
                continue;
            }
            let name: &'static str = &joint.name;
            for interface in joint.state_interfaces.iter() {
                let slot = state_layout
                    .joint_slot(index, interface.kind)
                    .ok_or_else(|| {
                        HardwareError::new(
                            component,
                            ErrorKind::Unsupported,
                            format!(
                                "the state layout has no slot for `{name}/{}`",
                                interface.kind
                            ),
                        )
                    })?;
                plan.state_slots.push(slot);
                plan.initial_state
                    .push((slot, interface.initial_value.unwrap_or(0.0)));
            }
            let state = CARRIED.map(|k| {
                joint
                    .state_interface(k)
                    .and_then(|_| state_layout.joint_slot(index, k))
            });
            if joint.mimic.is_some() {
                mimics.push(index);
                plan.mimic_names.push(name);
                continue;
            }
            plan.states.push(StateJoint { name, slots: state });
            let command = CARRIED.map(|k| {
                joint
                    .command_interface(k)
                    .and_then(|_| command_layout.joint_slot(index, k))
            });
            if disabled.contains(&index) || command.iter().all(Option::is_none) {
                continue;
            }
            for (carried, slot) in plan.command_arrays.iter_mut().zip(&command) {
                *carried |= slot.is_some();
            }
            let limits = joint.limits.as_ref();
            let symmetric = |limit: Option<f64>| match limit {
                Some(limit) if limit > 0.0 => (-limit, limit),
                _ => (f64::NEG_INFINITY, f64::INFINITY),
            };
            let bounds = [
                (
                    limits.and_then(|l| l.lower).unwrap_or(f64::NEG_INFINITY),
                    limits.and_then(|l| l.upper).unwrap_or(f64::INFINITY),
                ),
                symmetric(limits.map(|l| l.velocity)),
                symmetric(limits.map(|l| l.effort)),
            ];
            plan.commands.push(CommandJoint {
                name,
                command,
                state,
                bounds,
            });
        }
        plan.mimics = Mimics::new(robot, mimics, state_layout).map_err(|problem| {
            HardwareError::new(component, ErrorKind::Unsupported, "its mimic joints")
                .caused_by(problem)
        })?;
        if let Some(imu) = imu {
            let first = state_layout.sensor_slot(imu).ok_or_else(|| {
                HardwareError::new(
                    component,
                    ErrorKind::Unsupported,
                    "the state layout has no slots for the IMU",
                )
            })?;
            plan.imu = Some(first);
            plan.state_slots
                .extend(first..first + robot_runtime::interface::IMU_STATE_INTERFACES.len());
        }
        Ok(plan)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use robot_runtime::RobotTypes;

    robot_macros::robot! {
        /// A position joint, a velocity joint and a mimic.
        robot Trio { update_rate: 100 Hz }
        bus main {}
        link base {}
        link one {}
        link two {}
        link three {}
        joint a: revolute {
            parent: base, child: one,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: main, can_id: 1, model: RS02 },
            command: [position, stiffness],
            state: [position, velocity],
        }
        joint b: revolute {
            parent: base, child: two,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: main, can_id: 2, model: RS02 },
            command: [velocity],
            state: [position, velocity],
        }
        joint c: revolute {
            parent: one, child: three,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            mimic { joint: a },
            state: [position],
        }
    }

    fn plan(disabled: &[usize]) -> Plan {
        Plan::resolve(
            Trio::DESCRIPTION,
            &Trio::STATE_LAYOUT,
            &Trio::COMMAND_LAYOUT,
            disabled,
            None,
            "TrioHardware",
        )
        .unwrap()
    }

    #[test]
    fn commands_name_the_enabled_joints_that_command_something_and_no_mimic() {
        let all = plan(&[]);
        let names = |p: &Plan| p.commands.iter().map(|j| j.name).collect::<Vec<_>>();
        assert_eq!(names(&all), ["a", "b"]);
        // Position and velocity are commanded by someone; effort by no one; stiffness never sent.
        assert_eq!(all.command_arrays, [true, true, false]);
        // States: every joint that is not a mimic is matched by name.
        let states: Vec<&str> = all.states.iter().map(|j| j.name).collect();
        assert_eq!(states, ["a", "b"]);
        assert!(!all.mimics.is_empty());
        // A disabled joint is still read, never named in commands.
        let without_b = plan(&[1]);
        assert_eq!(names(&without_b), ["a"]);
        assert_eq!(without_b.command_arrays, [true, false, false]);
        assert_eq!(without_b.states.len(), 2);
    }
}
