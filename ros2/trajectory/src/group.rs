//! The trajectory controllers of a robot, as its emitted `controllers.yaml` names them
//! (`robot_runtime::controller_plan`: one `<group>_trajectory_controller` per group), and for each
//! of its joints where the state and the command struct hold its values.

use robot_runtime::actuator::MitSlots;
use robot_runtime::controller_plan::{self, ControllerKind, Source};
use robot_runtime::hardware::ServoGains;
use robot_runtime::model::Feedforward;
use robot_runtime::typed::Layout;
use robot_runtime::{InterfaceKind, Robot};

/// One joint of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupJoint {
    /// Its name.
    pub name: String,
    /// Its index in the robot's joints.
    pub(crate) index: usize,
    /// Its position limits (none for a continuous joint).
    pub lower: Option<f64>,
    /// Its position limits (none for a continuous joint).
    pub upper: Option<f64>,
    /// Where its measured position is in the state.
    pub(crate) state_position: Option<usize>,
    /// Where its measured velocity is in the state.
    pub(crate) state_velocity: Option<usize>,
    /// Where its five MIT commands are, where it declares them.
    pub(crate) command: MitSlots,
    /// The stiffness and damping written where the joint takes them (an MIT joint): the servo
    /// the backends stand in with for a joint that does not ([`ServoGains`]).
    pub(crate) gains: (f64, f64),
}

/// One trajectory controller: its name, topic and joints.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// `left_leg_trajectory_controller`.
    pub controller: String,
    /// `/left_leg_trajectory_controller/joint_trajectory`, as joint_trajectory_controller's
    /// `~/joint_trajectory` resolves (in the controller manager's namespace, when it has one).
    pub topic: String,
    /// `/left_leg_trajectory_controller/follow_joint_trajectory`: its FollowJointTrajectory
    /// action.
    pub action: String,
    /// `/left_leg_trajectory_controller/controller_state`: its `~/controller_state`.
    pub state_topic: String,
    /// Its joints, in the plan's order.
    pub joints: Vec<GroupJoint>,
    /// What it feeds forward through its joints' `effort` commands (the definition's
    /// `feedforward:`; a bus's own group: nothing).
    pub feedforward: Feedforward,
}

impl GroupJoint {
    /// Whether `position` is within the joint's limits.
    pub fn within_limits(&self, position: f64) -> bool {
        self.lower.is_none_or(|l| position >= l) && self.upper.is_none_or(|u| position <= u)
    }

    /// `position` brought within the limits.
    pub(crate) fn clamp(&self, position: f64) -> f64 {
        let low = self.lower.unwrap_or(f64::NEG_INFINITY);
        let high = self.upper.unwrap_or(f64::INFINITY);
        position.max(low).min(high)
    }
}

/// The trajectory controllers of `robot`, whose state and command are laid out as given, their
/// topics in `namespace` (empty: none; `/robot1` or `robot1`: `/robot1/<controller>/...`, as a
/// controller manager in that namespace has them).
pub fn groups(robot: &Robot, state: &Layout, command: &Layout, namespace: &str) -> Vec<Group> {
    let namespace = namespace.trim_matches('/');
    let prefix = if namespace.is_empty() {
        String::new()
    } else {
        format!("/{namespace}")
    };
    let servo = ServoGains::default();
    controller_plan::controllers(robot)
        .into_iter()
        .filter(|c| matches!(c.kind, ControllerKind::Trajectory { .. }))
        .map(|c| Group {
            topic: format!("{prefix}/{}/joint_trajectory", c.name),
            action: format!("{prefix}/{}/follow_joint_trajectory", c.name),
            state_topic: format!("{prefix}/{}/controller_state", c.name),
            joints: c
                .joints
                .iter()
                .filter_map(|name| robot.joints.iter().position(|j| j.name == *name))
                .map(|index| {
                    let joint = &robot.joints[index];
                    let gains = servo.servo_for(joint);
                    GroupJoint {
                        name: joint.name.to_string(),
                        index,
                        lower: joint.limits.and_then(|l| l.lower),
                        upper: joint.limits.and_then(|l| l.upper),
                        state_position: state.joint_slot(index, InterfaceKind::Position),
                        state_velocity: state.joint_slot(index, InterfaceKind::Velocity),
                        command: command.mit_slots(index),
                        gains: (gains.stiffness, gains.damping),
                    }
                })
                .collect(),
            feedforward: match c.source {
                Source::Named(group) => (robot.controller_groups.get(group))
                    .map_or(Feedforward::None, |g| g.feedforward),
                Source::Bus(_) => Feedforward::None,
            },
            controller: c.name,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_groups_topic_is_its_controllers_in_the_namespace() {
        let robot = robot_model::fixture::robot();
        let none = Layout { slots: &[] };
        let topics = |ns: &str| -> Vec<String> {
            groups(&robot, &none, &none, ns)
                .into_iter()
                .map(|g| g.topic)
                .collect()
        };
        let plain = topics("");
        assert!(!plain.is_empty());
        assert!(
            plain
                .iter()
                .all(|t| t.starts_with('/')
                    && t.ends_with("_trajectory_controller/joint_trajectory")),
            "{plain:?}"
        );
        for ns in ["/robot1", "robot1", "/robot1/"] {
            let spaced = topics(ns);
            let want: Vec<String> = plain.iter().map(|t| format!("/robot1{t}")).collect();
            assert_eq!(spaced, want, "{ns}");
        }
    }
}
