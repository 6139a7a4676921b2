//! How far a group may stray from its trajectory, as joint_trajectory_controller has it
//! (`tolerances.hpp`): a path tolerance checked while the trajectory runs, a goal tolerance
//! checked after its last point, and how long after the last point the goal tolerance may take
//! to be met. The controller's parameters give the defaults (`constraints.<joint>.trajectory`
//! and `.goal`, `constraints.goal_time`, `constraints.stopped_velocity_tolerance`); a
//! FollowJointTrajectory goal may override them joint by joint (a value above zero replaces the
//! default, zero keeps it, −1 removes it).

use ros2_msg::control::{FollowJointTrajectoryGoal, JointTolerance};

/// One joint's tolerance on position, velocity and acceleration; zero is not checked.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StateTolerance {
    /// rad or m.
    pub position: f64,
    /// rad/s or m/s.
    pub velocity: f64,
    /// rad/s² or m/s² (there is no measured acceleration here: kept for the goal's sake).
    pub acceleration: f64,
}

impl StateTolerance {
    /// Whether an error of `position` and `velocity` is within it (`check_state_tolerance_per_
    /// joint`: a tolerance of zero is not checked).
    pub fn holds(&self, position: f64, velocity: f64) -> bool {
        let within = |tolerance: f64, error: f64| tolerance <= 0.0 || error.abs() <= tolerance;
        within(self.position, position) && within(self.velocity, velocity)
    }
}

/// The tolerances one trajectory is followed with, per group joint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tolerances {
    /// While it runs, up to its last point.
    pub path: Vec<StateTolerance>,
    /// After its last point.
    pub goal: Vec<StateTolerance>,
    /// How long after the last point the goal tolerance may take, s; zero waits for ever.
    pub goal_time: f64,
}

/// A controller's `constraints` parameters: the tolerances when a goal gives none.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraints {
    /// `constraints.goal_time`, s.
    pub goal_time: f64,
    /// `constraints.stopped_velocity_tolerance`: how slow a joint must be at the goal, rad/s.
    pub stopped_velocity_tolerance: f64,
    /// Per group joint: `constraints.<joint>.trajectory` and `constraints.<joint>.goal`.
    pub joints: Vec<(f64, f64)>,
}

impl Constraints {
    /// joint_trajectory_controller's defaults for `joints` joints: nothing checked on the way,
    /// none on the goal's position, stopped below 0.01 rad/s, no time limit.
    pub fn defaults(joints: usize) -> Constraints {
        Constraints {
            goal_time: 0.0,
            stopped_velocity_tolerance: 0.01,
            joints: vec![(0.0, 0.0); joints],
        }
    }

    /// The tolerances these parameters give (`get_segment_tolerances(params)`).
    pub fn tolerances(&self) -> Tolerances {
        Tolerances {
            path: (self.joints.iter())
                .map(|&(trajectory, _)| StateTolerance {
                    position: trajectory,
                    ..StateTolerance::default()
                })
                .collect(),
            goal: (self.joints.iter())
                .map(|&(_, goal)| StateTolerance {
                    position: goal,
                    velocity: self.stopped_velocity_tolerance,
                    ..StateTolerance::default()
                })
                .collect(),
            goal_time: self.goal_time,
        }
    }
}

/// Why a goal's tolerances were not taken (joint_trajectory_controller then logs it and uses
/// its defaults, as this crate does).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ToleranceError {
    /// A tolerance for a joint the controller does not have.
    #[error("joint `{joint}` of the goal's {which} is not one of the controller's joints")]
    UnknownJoint {
        /// The name given.
        joint: String,
        /// `path_tolerance` or `goal_tolerance`.
        which: &'static str,
    },
    /// A negative value other than −1, or one that is not a number.
    #[error("`{joint}`'s {which} {component} is {value}: give > 0, 0 (the default) or −1 (none)")]
    Illegal {
        /// The joint (empty for goal_time_tolerance).
        joint: String,
        /// `path_tolerance`, `goal_tolerance` or `goal_time_tolerance`.
        which: &'static str,
        /// `position`, `velocity` or `acceleration`.
        component: &'static str,
        /// The value.
        value: f64,
    },
}

/// `resolve_tolerance_source`: above zero replaces, −1 removes, zero keeps the default.
fn resolve(default: f64, given: f64) -> Option<f64> {
    if given > 0.0 {
        Some(given)
    } else if (given + 1.0).abs() < f64::from(f32::EPSILON) {
        Some(0.0)
    } else if given == 0.0 {
        Some(default)
    } else {
        None // negative, or NaN
    }
}

/// `defaults` with `goal`'s tolerances over them, for a group whose joints are `joints` (in its
/// order); `get_segment_tolerances(defaults, goal, joints)`.
pub fn for_goal<'a>(
    defaults: &Tolerances,
    goal: &FollowJointTrajectoryGoal,
    joints: impl Iterator<Item = &'a str> + Clone,
) -> Result<Tolerances, ToleranceError> {
    let mut out = defaults.clone();
    let time = &goal.goal_time_tolerance;
    let given = f64::from(time.sec) + f64::from(time.nanosec) * 1e-9;
    out.goal_time = resolve(defaults.goal_time, given).ok_or(ToleranceError::Illegal {
        joint: String::new(),
        which: "goal_time_tolerance",
        component: "seconds",
        value: given,
    })?;
    let sets: [(&'static str, &[JointTolerance], &mut Vec<StateTolerance>); 2] = [
        ("path_tolerance", &goal.path_tolerance, &mut out.path),
        ("goal_tolerance", &goal.goal_tolerance, &mut out.goal),
    ];
    for (which, given, into) in sets {
        for tolerance in given {
            let Some(index) = joints.clone().position(|j| j == tolerance.name) else {
                return Err(ToleranceError::UnknownJoint {
                    joint: tolerance.name.clone(),
                    which,
                });
            };
            let Some(slot) = into.get_mut(index) else {
                continue;
            };
            let one = |component, default, value| {
                resolve(default, value).ok_or_else(|| ToleranceError::Illegal {
                    joint: tolerance.name.clone(),
                    which,
                    component,
                    value,
                })
            };
            *slot = StateTolerance {
                position: one("position", slot.position, tolerance.position)?,
                velocity: one("velocity", slot.velocity, tolerance.velocity)?,
                acceleration: one("acceleration", slot.acceleration, tolerance.acceleration)?,
            };
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use ros2_msg::msg::Duration;

    use super::*;

    const JOINTS: [&str; 2] = ["hip", "knee"];

    fn tolerance(name: &str, position: f64, velocity: f64) -> JointTolerance {
        JointTolerance {
            name: name.into(),
            position,
            velocity,
            acceleration: 0.0,
        }
    }

    fn defaults() -> Tolerances {
        Constraints {
            goal_time: 0.5,
            stopped_velocity_tolerance: 0.01,
            joints: vec![(0.1, 0.02), (0.0, 0.0)],
        }
        .tolerances()
    }

    #[test]
    fn the_parameters_give_path_goal_and_stopped_velocity() {
        let t = defaults();
        assert_eq!(t.path[0].position, 0.1);
        assert_eq!((t.goal[0].position, t.goal[0].velocity), (0.02, 0.01));
        assert_eq!((t.goal[1].position, t.goal[1].velocity), (0.0, 0.01));
        assert_eq!(t.goal_time, 0.5);
    }

    #[test]
    fn a_goal_replaces_keeps_or_removes_each_default() {
        let goal = FollowJointTrajectoryGoal {
            path_tolerance: vec![tolerance("hip", -1.0, 0.0), tolerance("knee", 0.3, 0.0)],
            goal_tolerance: vec![tolerance("hip", 0.0, 0.2)],
            goal_time_tolerance: Duration { sec: 2, nanosec: 0 },
            ..FollowJointTrajectoryGoal::default()
        };
        let t = for_goal(&defaults(), &goal, JOINTS.into_iter()).unwrap();
        assert_eq!(t.path[0].position, 0.0, "−1 removes");
        assert_eq!(t.path[1].position, 0.3, "> 0 replaces");
        assert_eq!(t.goal[0].position, 0.02, "0 keeps");
        assert_eq!(t.goal[0].velocity, 0.2);
        assert_eq!(t.goal_time, 2.0);
    }

    #[test]
    fn an_unknown_joint_or_an_illegal_value_is_said() {
        let unknown = FollowJointTrajectoryGoal {
            goal_tolerance: vec![tolerance("ankle", 0.1, 0.0)],
            ..FollowJointTrajectoryGoal::default()
        };
        assert_eq!(
            for_goal(&defaults(), &unknown, JOINTS.into_iter())
                .unwrap_err()
                .to_string(),
            "joint `ankle` of the goal's goal_tolerance is not one of the controller's joints"
        );
        let illegal = FollowJointTrajectoryGoal {
            path_tolerance: vec![tolerance("knee", -0.5, 0.0)],
            ..FollowJointTrajectoryGoal::default()
        };
        assert!(
            for_goal(&defaults(), &illegal, JOINTS.into_iter())
                .unwrap_err()
                .to_string()
                .starts_with("`knee`'s path_tolerance position is -0.5")
        );
    }

    #[test]
    fn zero_is_not_checked() {
        let t = StateTolerance::default();
        assert!(t.holds(10.0, 10.0));
        let t = StateTolerance {
            position: 0.1,
            velocity: 0.0,
            acceleration: 0.0,
        };
        assert!(t.holds(-0.1, 5.0) && !t.holds(0.11, 0.0));
    }
}
