//! Which ros2_controllers serve which joints: the plan `<robot>.controllers.yaml` is written from,
//! and that validation checks.
//!
//! Every command interface of every actuated, non-mimic joint is claimed by exactly one controller
//! of those a bringup starts (the trajectory controllers) and loads inactive for one more
//! interface (the forward command controllers of effort, stiffness, damping...); besides them
//! each group's position interfaces have a forward command controller to switch a trajectory
//! controller off for (its claims are the trajectory controller's position claims: the two are
//! never active together):
//!
//! * **Groups.** The groups the definition names (`controller arm { joints: [..] }`, in
//!   [`Robot::controller_groups`]) come first, in their order. The other joints are grouped by
//!   bus, in bus order, one group per bus, named after it (`left_leg`): a bus is the hardware
//!   unit that is enabled, faulted and driven together, and on a mirrored robot it is the limb.
//! * **Trajectories.** In a group, joints that take `position` commands get a
//!   `joint_trajectory_controller`, over the richest command set it accepts that they declare
//!   (position \[velocity \[acceleration\]\]), with the richest state set that goes with it (see
//!   [`trajectory_interfaces`]). Joints of different such sets (a position-only gripper beside
//!   MIT joints) get a trajectory controller each. A named group gets one trajectory controller,
//!   over the richest set all its joints take (validation requires that either all or none of
//!   them take `position`).
//! * **Forward commands.** Every command interface of the group that no trajectory controller
//!   claims (the MIT `effort`, `stiffness`, `damping`; `velocity` on velocity-only wheels; any
//!   interface of a joint without `position`) gets a `forward_command_controller` over the joints
//!   of the group that declare it. So does `position`, over every joint of the group that takes
//!   it, trajectory or not: `<group>_position_controller`, what a user switches to from the
//!   trajectory controller to stream positions (teleoperation, a policy).
//!
//! Mimic joints are in no controller: they have no command interfaces and follow their joint.
//!
//! # Names
//!
//! * `<group>_trajectory_controller` (`left_leg_trajectory_controller`); when a group has several,
//!   each also names its command set: `<group>_position_trajectory_controller`,
//!   `<group>_position_velocity_trajectory_controller`;
//! * `<group>_<interface>_controller` (`left_leg_stiffness_controller`).
//!
//! * broadcasters: `joint_state_broadcaster`; `imu_sensor_broadcaster` for a robot's only IMU
//!   (`<sensor>_broadcaster` for each of several); `<sensor>_broadcaster` for each force/torque
//!   sensor ([`broadcasters`]).
//!
//! Group names are bus names or names the definition gives, which validation keeps to plain
//! names (a letter or `_`, then letters, digits and `_`), so these are valid ROS names; it also
//! rejects a named group whose controller names collide with another group's.

use crate::interface::InterfaceKind::{self, Acceleration, Effort, Position, Velocity};
use crate::model::{Interface, Joint, List, Robot, Sensor, SensorKind};

/// One group of joints, whose controllers share its name as prefix.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<'a> {
    /// The group's name: the named group's, or its bus's.
    pub name: &'a str,
    /// Where the group comes from.
    pub source: Source,
    /// Its joints: a named group's in its order, a bus's in declaration order.
    pub joints: Vec<&'a Joint>,
}

/// Where a [`Group`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The controller group at this index of [`Robot::controller_groups`].
    Named(usize),
    /// The joints in no named group on the bus at this index of [`Robot::buses`].
    Bus(usize),
}

/// One controller of the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller<'a> {
    /// The controller's name, a ROS name unique in the plan.
    pub name: String,
    /// The group it serves.
    pub group: &'a str,
    /// Where that group comes from.
    pub source: Source,
    /// The joints it commands, in declaration order.
    pub joints: Vec<&'a str>,
    /// What kind of controller it is, with its interfaces.
    pub kind: ControllerKind,
}

/// The kind of a [`Controller`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerKind {
    /// `joint_trajectory_controller/JointTrajectoryController`.
    Trajectory {
        /// Its `command_interfaces`.
        command: &'static [InterfaceKind],
        /// Its `state_interfaces`.
        state: &'static [InterfaceKind],
    },
    /// `forward_command_controller/ForwardCommandController`.
    Forward {
        /// Its `interface_name`.
        interface: InterfaceKind,
    },
}

/// The command interface sets this plan gives joint_trajectory_controller, richest first: those
/// with `position` of the sets it accepts (`validate_jtc_parameters.hpp`). JTC also takes
/// `velocity` or `effort` alone, but then it only closes a PID loop of gains we do not write;
/// such joints are driven by forward command controllers.
const JTC_COMMANDS: [&[InterfaceKind]; 3] = [
    &[Position, Velocity, Acceleration],
    &[Position, Velocity],
    &[Position],
];
/// The state interface sets it accepts, richest first: position [velocity [acceleration]].
const JTC_STATES: [&[InterfaceKind]; 3] = [
    &[Position, Velocity, Acceleration],
    &[Position, Velocity],
    &[Position],
];

/// A broadcaster of the plan: what publishes the robot's state and sensors to ROS.
#[derive(Debug, Clone, PartialEq)]
pub struct Broadcaster<'a> {
    /// Its name: `joint_state_broadcaster`, `imu_sensor_broadcaster`, `left_ankle_ft_broadcaster`.
    pub name: String,
    /// What it broadcasts: every joint's state (`None`), or this sensor's readings.
    pub sensor: Option<&'a Sensor>,
}

/// The broadcasters of `robot`, in `controllers.yaml`'s order: the joint state broadcaster, an
/// IMU broadcaster per IMU, a force/torque broadcaster per force/torque sensor. Contact sensors
/// have none (ros2_controllers has no contact broadcaster).
pub fn broadcasters(robot: &Robot) -> Vec<Broadcaster<'_>> {
    let mut out = vec![Broadcaster {
        name: "joint_state_broadcaster".to_string(),
        sensor: None,
    }];
    let imus = robot.sensors_of(SensorKind::Imu).count();
    for (_, imu) in robot.sensors_of(SensorKind::Imu) {
        out.push(Broadcaster {
            name: if imus == 1 {
                "imu_sensor_broadcaster".to_string()
            } else {
                format!("{}_broadcaster", imu.name)
            },
            sensor: Some(imu),
        });
    }
    for (_, sensor) in robot.sensors_of(SensorKind::ForceTorque) {
        out.push(Broadcaster {
            name: format!("{}_broadcaster", sensor.name),
            sensor: Some(sensor),
        });
    }
    out
}

/// The broadcaster of sensor `name`, if it has one.
pub fn broadcaster_of<'a>(broadcasters: &'a [Broadcaster<'_>], name: &str) -> Option<&'a str> {
    (broadcasters.iter())
        .find(|b| b.sensor.is_some_and(|s| s.name == name))
        .map(|b| b.name.as_str())
}

/// The joints that need a controller: actuated, not mimic, with command interfaces.
pub fn commanded(joint: &Joint) -> bool {
    joint.actuator.is_some() && joint.mimic.is_none() && !joint.command_interfaces.is_empty()
}

/// The groups, in order (see the [module docs](self)); none is empty. A named group's joints
/// that do not exist or take no commands (which validation reports) are left out, and a joint
/// in two named groups is in the first.
pub fn groups(robot: &Robot) -> Vec<Group<'_>> {
    let mut placed: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (index, group) in robot.controller_groups.iter().enumerate() {
        let mut joints = Vec::new();
        for name in group.joints.iter() {
            if let Some(joint) = robot.joint(name).filter(|j| commanded(j))
                && !placed.contains(&name.as_ref())
            {
                placed.push(name.as_ref());
                joints.push(joint);
            }
        }
        out.push(Group {
            name: group.name.as_ref(),
            source: Source::Named(index),
            joints,
        });
    }
    for (index, bus) in robot.buses.iter().enumerate() {
        out.push(Group {
            name: bus.name.as_ref(),
            source: Source::Bus(index),
            joints: robot
                .joints
                .iter()
                .filter(|j| commanded(j) && !placed.contains(&j.name.as_ref()))
                .filter(|j| j.actuator.as_ref().is_some_and(|a| a.bus == bus.name))
                .collect(),
        });
    }
    out.retain(|g| !g.joints.is_empty());
    out
}

/// Every controller of the robot, group by group: its trajectory controllers, then its forward
/// command controllers in interface order ([`InterfaceKind::ALL`]).
pub fn controllers(robot: &Robot) -> Vec<Controller<'_>> {
    groups(robot).iter().flat_map(group_controllers).collect()
}

fn group_controllers<'a>(group: &Group<'a>) -> Vec<Controller<'a>> {
    // Joints that take a trajectory, by the command set they take, in order of first joint; in
    // a named group, all in one.
    let mut partitions: Vec<(&'static [InterfaceKind], Vec<&'a Joint>)> = Vec::new();
    for &joint in &group.joints {
        let Some((command, _)) = own_trajectory(joint) else {
            continue;
        };
        let key = match group.source {
            Source::Named(_) => &[][..],
            Source::Bus(_) => command,
        };
        match partitions.iter_mut().find(|(c, _)| *c == key) {
            Some((_, joints)) => joints.push(joint),
            None => partitions.push((key, vec![joint])),
        }
    }
    let mut out = Vec::new();
    let several = partitions.len() > 1;
    for (_, joints) in &partitions {
        let commands = shared(joints, |j| &j.command_interfaces);
        let states = shared(joints, |j| &j.state_interfaces);
        let Some((command, state)) = trajectory_interfaces(&commands, &states) else {
            continue;
        };
        let name = if several {
            let set: Vec<&str> = command.iter().map(|k| k.name()).collect();
            format!("{}_{}_trajectory_controller", group.name, set.join("_"))
        } else {
            format!("{}_trajectory_controller", group.name)
        };
        out.push(Controller {
            name,
            group: group.name,
            source: group.source,
            joints: joints.iter().map(|j| j.name.as_ref()).collect(),
            kind: ControllerKind::Trajectory { command, state },
        });
    }
    let claimed_by_trajectory = |joint: &Joint, kind: InterfaceKind| {
        out.iter().any(|c| match c.kind {
            ControllerKind::Trajectory { command, .. } => {
                command.contains(&kind) && c.joints.contains(&joint.name.as_ref())
            }
            ControllerKind::Forward { .. } => false,
        })
    };
    let mut forwards = Vec::new();
    for kind in InterfaceKind::ALL {
        let joints: Vec<&str> = group
            .joints
            .iter()
            .filter(|j| {
                j.command_interface(kind).is_some()
                    && (kind == Position || !claimed_by_trajectory(j, kind))
            })
            .map(|j| j.name.as_ref())
            .collect();
        if !joints.is_empty() {
            forwards.push(Controller {
                name: format!("{}_{kind}_controller", group.name),
                group: group.name,
                source: group.source,
                joints,
                kind: ControllerKind::Forward { interface: kind },
            });
        }
    }
    out.extend(forwards);
    out
}

/// The trajectory interfaces of one joint alone.
pub fn own_trajectory(
    joint: &Joint,
) -> Option<(&'static [InterfaceKind], &'static [InterfaceKind])> {
    let kinds = |list: &List<Interface>| list.iter().map(|i| i.kind).collect::<Vec<_>>();
    trajectory_interfaces(
        &kinds(&joint.command_interfaces),
        &kinds(&joint.state_interfaces),
    )
}

/// The interfaces every joint declares, in canonical order ([`InterfaceKind::ALL`]); none for no
/// joints.
fn shared(joints: &[&Joint], list: impl Fn(&Joint) -> &List<Interface>) -> Vec<InterfaceKind> {
    if joints.is_empty() {
        return Vec::new();
    }
    InterfaceKind::ALL
        .into_iter()
        .filter(|&kind| {
            joints
                .iter()
                .all(|j| list(j).iter().any(|i| i.kind == kind))
        })
        .collect()
}

/// The command and state interfaces of a joint_trajectory_controller over joints that all
/// declare `commands` and `states`: the first (richest) command set of `JTC_COMMANDS` offered
/// that has a state set of `JTC_STATES` to go with it, with the richest such state set. With a
/// velocity command the state must have velocity too (what JTC's velocity feedback needs).
/// `None`: no trajectory controller, as for joints that do not take `position`.
pub fn trajectory_interfaces(
    commands: &[InterfaceKind],
    states: &[InterfaceKind],
) -> Option<(&'static [InterfaceKind], &'static [InterfaceKind])> {
    let offered = |set: &[InterfaceKind], available: &[InterfaceKind]| {
        set.iter().all(|k| available.contains(k))
    };
    JTC_COMMANDS
        .into_iter()
        .filter(|command| offered(command, commands))
        .find_map(|command| {
            let needs_velocity = command.contains(&Velocity) || command.contains(&Effort);
            let state = JTC_STATES.into_iter().find(|state| {
                offered(state, states) && (!needs_velocity || state.contains(&Velocity))
            })?;
            Some((command, state))
        })
}

#[cfg(test)]
mod tests;
