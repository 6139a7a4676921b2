//! The work of one read and one write, resolved once (in `on_init`) from the description into flat
//! lists of slot indices, so the cycle only indexes.

use std::ops::Range;

use robot_runtime::hardware::mimic::Mimics;
use robot_runtime::hardware::{ErrorKind, HardwareError};
use robot_runtime::model::Joint;
use robot_runtime::typed::Layout;
use robot_runtime::{InterfaceKind, Robot};

use crate::options::{CommandMode, MockOptions};

/// A command slot mirrored into a state slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pair {
    pub command: usize,
    pub state: usize,
}

/// Position, velocity and acceleration, in that order, as GenericSystem indexes them.
pub(crate) const DERIVATIVES: [InterfaceKind; 3] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Acceleration,
];

/// One joint under `calculate_dynamics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DynamicsJoint {
    pub mode: CommandMode,
    /// State slots of position, velocity, acceleration, where declared.
    pub state: [Option<usize>; 3],
    /// Command slots of position, velocity, acceleration, where declared.
    pub command: [Option<usize>; 3],
}

/// Everything one cycle does, as slot indices into the robot's state and command vectors.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Plan {
    /// The state slots this component fills (every claimed joint's, and the IMUs' with
    /// `mock_sensor_commands`), merged into contiguous runs.
    pub state_ranges: Vec<Range<usize>>,
    /// The command slots `write` takes: every command of every enabled joint, merged.
    pub command_ranges: Vec<Range<usize>>,
    /// Position command → position state, plus the following offset (without dynamics).
    pub positions: Vec<Pair>,
    /// Same-named command → state, as is (GenericSystem's "loopback on all other interfaces").
    pub loopback: Vec<Pair>,
    /// Position command → `custom_interface_with_following_offset` state, plus the offset.
    pub custom: Vec<Pair>,
    /// Joints integrated or differentiated under `calculate_dynamics`.
    pub dynamics: Vec<DynamicsJoint>,
    /// Mimic joints, ordered so a followed mimic joint comes before its followers.
    pub mimics: Mimics,
    /// First state slot of each sensor the component backs, in sensor order.
    pub sensors: Vec<usize>,
    /// What `on_configure` puts in each joint state slot.
    pub initial_state: Vec<(usize, f64)>,
    /// What `on_configure` puts in each command slot `write` takes (the interface's
    /// `initial_value`, else NaN: no command yet).
    pub initial_command: Vec<(usize, f64)>,
    /// Added to mirrored positions: the following offset, unless a custom interface takes it.
    pub position_offset: f64,
}

fn unsupported(component: &str, message: String) -> HardwareError {
    HardwareError::new(component, ErrorKind::Unsupported, message)
}

/// The non-standard state interfaces of our vocabulary, the only ones
/// `custom_interface_with_following_offset` may name (GenericSystem only looks for it among the
/// interfaces outside `position`, `velocity`, `acceleration`, `effort`).
const CUSTOM_OFFSET_KINDS: [InterfaceKind; 2] =
    [InterfaceKind::Current, InterfaceKind::Temperature];

impl Plan {
    /// Resolves the plan of a mock driving every controlled joint of `robot` (and, with
    /// `mock_sensor_commands`, every sensor). Fails with [`ErrorKind::Unsupported`] on anything it
    /// cannot mock, naming it.
    pub fn resolve(
        robot: &Robot,
        state_layout: &Layout,
        command_layout: &Layout,
        options: &MockOptions,
        component: &str,
    ) -> Result<Plan, HardwareError> {
        let params = options.params;
        check_options(robot, options, component)?;
        let mut plan = Plan {
            position_offset: if options.custom_interface_with_following_offset.is_some() {
                0.0
            } else {
                params.position_state_following_offset
            },
            ..Plan::default()
        };
        let mut states = Vec::new();
        let mut commands = Vec::new();
        let mut mimics = Vec::new();
        for (index, joint) in robot.joints.iter().enumerate() {
            if !joint.is_controlled() {
                continue;
            }
            let slots = JointSlots::resolve(index, joint, state_layout, command_layout, component)?;
            for (interface, slot) in joint.state_interfaces.iter().zip(&slots.state) {
                let mut value = interface.initial_value.unwrap_or(0.0);
                // GenericSystem's on_configure adds the offset to every position state, once.
                if interface.kind == InterfaceKind::Position {
                    value += plan.position_offset;
                }
                plan.initial_state.push((*slot, value));
                states.push(*slot);
            }
            if options.is_disabled(index) {
                continue;
            }
            for (interface, slot) in joint.command_interfaces.iter().zip(&slots.command) {
                plan.initial_command
                    .push((*slot, interface.initial_value.unwrap_or(f64::NAN)));
                commands.push(*slot);
            }
            if joint.mimic.is_some() {
                if !joint.command_interfaces.is_empty() {
                    return Err(unsupported(
                        component,
                        format!(
                            "mimic joint `{}` has command interfaces; it can only follow",
                            joint.name
                        ),
                    ));
                }
                mimics.push(index);
                continue;
            }
            plan.plan_joint(index, joint, &slots, options);
        }
        plan.mimics = Mimics::new(robot, mimics, state_layout).map_err(|problem| {
            unsupported(component, "its mimic joints".to_string()).caused_by(problem)
        })?;
        if params.mock_sensor_commands {
            for (index, sensor) in robot.sensors.iter().enumerate() {
                let first = state_layout.sensor_slot(index).ok_or_else(|| {
                    unsupported(
                        component,
                        format!("the state layout has no slots for sensor `{}`", sensor.name),
                    )
                })?;
                plan.sensors.push(first);
                states.extend(first..first + sensor.state_interfaces().len());
            }
        }
        plan.state_ranges = runs(states);
        plan.command_ranges = runs(commands);
        Ok(plan)
    }

    /// What a joint that is neither disabled nor a mimic contributes.
    fn plan_joint(
        &mut self,
        index: usize,
        joint: &Joint,
        slots: &JointSlots,
        options: &MockOptions,
    ) {
        let dynamics = options.params.calculate_dynamics;
        if dynamics {
            let mode = options
                .command_mode_of(index)
                .or_else(|| default_mode(joint));
            if let Some(mode) = mode {
                self.dynamics.push(DynamicsJoint {
                    mode,
                    state: DERIVATIVES.map(|k| slots.state_of(joint, k)),
                    command: DERIVATIVES.map(|k| slots.command_of(joint, k)),
                });
            }
        } else if let Some(pair) = slots.pair(joint, InterfaceKind::Position) {
            self.positions.push(pair);
        }
        // GenericSystem mirrors every other same-named interface as is: all but position, or all
        // but position, velocity and acceleration with dynamics on (those it computes).
        for interface in joint.state_interfaces.iter() {
            let computed = if dynamics {
                DERIVATIVES.contains(&interface.kind)
            } else {
                interface.kind == InterfaceKind::Position
            };
            if computed {
                continue;
            }
            if let Some(pair) = slots.pair(joint, interface.kind) {
                self.loopback.push(pair);
            }
        }
        if let Some(kind) = options.custom_interface_with_following_offset
            && let (Some(command), Some(state)) = (
                slots.command_of(joint, InterfaceKind::Position),
                slots.state_of(joint, kind),
            )
        {
            self.custom.push(Pair { command, state });
        }
    }
}

/// The options name real joints and sensible interfaces.
fn check_options(
    robot: &Robot,
    options: &MockOptions,
    component: &str,
) -> Result<(), HardwareError> {
    let controlled = |joint: usize, what: &str| -> Result<&Joint, HardwareError> {
        match robot.joints.get(joint) {
            Some(j) if j.is_controlled() => Ok(j),
            Some(j) => Err(unsupported(
                component,
                format!("{what} joint `{}` has no interfaces to mock", j.name),
            )),
            None => Err(unsupported(
                component,
                format!(
                    "{what} joint #{joint} does not exist: `{}` has {} joints",
                    robot.name,
                    robot.joints.len()
                ),
            )),
        }
    };
    for &joint in &options.disabled_joints {
        // A disabled joint without interfaces (a fixed joint) is trivially never driven.
        if joint >= robot.joints.len() {
            return Err(unsupported(
                component,
                format!(
                    "disabled joint #{joint} does not exist: `{}` has {} joints",
                    robot.name,
                    robot.joints.len()
                ),
            ));
        }
    }
    for &(joint, mode) in &options.command_modes {
        let j = controlled(joint, "command-mode")?;
        if j.command_interface(mode.interface()).is_none() {
            return Err(unsupported(
                component,
                format!(
                    "joint `{}` has no `{}` command to run in that mode",
                    j.name,
                    mode.interface()
                ),
            ));
        }
    }
    if let Some(kind) = options.custom_interface_with_following_offset {
        if !CUSTOM_OFFSET_KINDS.contains(&kind) {
            return Err(unsupported(
                component,
                format!(
                    "custom_interface_with_following_offset must be a non-standard state interface \
                     (`current` or `temperature`), not `{kind}`"
                ),
            ));
        }
        let used = robot.joints.iter().enumerate().any(|(i, j)| {
            !options.is_disabled(i)
                && j.command_interface(InterfaceKind::Position).is_some()
                && j.state_interface(kind).is_some()
        });
        if !used {
            // GenericSystem only warns and applies the offset nowhere; on_init fails loudly.
            return Err(unsupported(
                component,
                format!(
                    "custom_interface_with_following_offset `{kind}`: no joint has a `position` \
                     command and a `{kind}` state"
                ),
            ));
        }
    }
    Ok(())
}

/// The default mode: the lowest derivative the joint takes as a command.
fn default_mode(joint: &Joint) -> Option<CommandMode> {
    [
        CommandMode::Position,
        CommandMode::Velocity,
        CommandMode::Acceleration,
    ]
    .into_iter()
    .find(|m| joint.command_interface(m.interface()).is_some())
}

/// The slots of one joint's declared interfaces, in declaration order.
struct JointSlots {
    state: Vec<usize>,
    command: Vec<usize>,
}

impl JointSlots {
    fn resolve(
        index: usize,
        joint: &Joint,
        state_layout: &Layout,
        command_layout: &Layout,
        component: &str,
    ) -> Result<Self, HardwareError> {
        let lookup = |layout: &Layout, kind: InterfaceKind, what: &str| {
            layout.joint_slot(index, kind).ok_or_else(|| {
                unsupported(
                    component,
                    format!("the {what} layout has no slot for `{}/{kind}`", joint.name),
                )
            })
        };
        Ok(JointSlots {
            state: joint
                .state_interfaces
                .iter()
                .map(|i| lookup(state_layout, i.kind, "state"))
                .collect::<Result<_, _>>()?,
            command: joint
                .command_interfaces
                .iter()
                .map(|i| lookup(command_layout, i.kind, "command"))
                .collect::<Result<_, _>>()?,
        })
    }

    fn state_of(&self, joint: &Joint, kind: InterfaceKind) -> Option<usize> {
        joint
            .state_interfaces
            .iter()
            .position(|i| i.kind == kind)
            .map(|p| self.state[p])
    }

    fn command_of(&self, joint: &Joint, kind: InterfaceKind) -> Option<usize> {
        joint
            .command_interfaces
            .iter()
            .position(|i| i.kind == kind)
            .map(|p| self.command[p])
    }

    fn pair(&self, joint: &Joint, kind: InterfaceKind) -> Option<Pair> {
        Some(Pair {
            command: self.command_of(joint, kind)?,
            state: self.state_of(joint, kind)?,
        })
    }
}

/// Sorted, deduplicated slot indices as contiguous runs.
fn runs(mut slots: Vec<usize>) -> Vec<Range<usize>> {
    slots.sort_unstable();
    slots.dedup();
    let mut out: Vec<Range<usize>> = Vec::new();
    for slot in slots {
        match out.last_mut() {
            Some(run) if run.end == slot => run.end += 1,
            _ => out.push(slot..slot + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_contiguous_slots() {
        assert_eq!(runs(vec![5, 0, 1, 2, 7, 6, 9, 1]), vec![0..3, 5..8, 9..10]);
        assert_eq!(runs(vec![]), Vec::<Range<usize>>::new());
    }
}
