//! A `trajectory_msgs/JointTrajectory` checked as joint_trajectory_controller checks one
//! (`validate_trajectory_msg`), plus what it leaves to others here (finite values, the joints'
//! limits), and turned into a [`Trajectory`] in the group's joint order. Runs on the intake
//! thread, never the control thread; a refusal is one [`Refusal`] per rule.

use ros2_msg::msg::{JointTrajectory, JointTrajectoryPoint};

use crate::group::Group;
use crate::trajectory::{Hold, MAX_POINTS, Trajectory};

/// Why a trajectory was refused, one variant per rule; the controller keeps what it was doing
/// (or holding).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// Points, but no joint names.
    #[error("it names no joints")]
    NoJoints,
    /// A joint the group does not have.
    #[error("joint `{joint}` is not one of {controller}'s joints ({})", .known.join(", "))]
    UnknownJoint {
        /// The name given.
        joint: String,
        /// The controller.
        controller: String,
        /// Its joints.
        known: Vec<String>,
    },
    /// A joint named twice.
    #[error("joint `{joint}` is named twice")]
    JointTwice {
        /// The joint.
        joint: String,
    },
    /// Some of the group's joints, where `allow_partial_joints_goal` is off.
    #[error(
        "it names {named} of the {of} joints of {controller}, and allow_partial_joints_goal is \
         false"
    )]
    Partial {
        /// Joints named.
        named: usize,
        /// Joints of the group.
        of: usize,
        /// The controller.
        controller: String,
    },
    /// More points than the buffers hold.
    #[error("it has {points} points; at most {MAX_POINTS} are taken")]
    TooManyPoints {
        /// Points given.
        points: usize,
    },
    /// A point not after the one before it.
    #[error(
        "point {point} is at {time} s, not after the point before it ({previous} s): times must \
         increase"
    )]
    TimesNotIncreasing {
        /// The point.
        point: usize,
        /// Its time from the start, s.
        time: f64,
        /// The point before's, s (−1 for the first).
        previous: f64,
    },
    /// The whole trajectory ends before it arrived.
    #[error("it ended {late:.3} s before it was taken (its header stamp is in the past)")]
    InThePast {
        /// How long before, s.
        late: f64,
    },
    /// The trajectory buffer is full.
    #[error("it does not fit the trajectory buffer")]
    BufferFull,
    /// An array of a point whose length is not one per joint.
    #[error(
        "point {point} has {len} {what} for {joints} joints{}",
        if *.required { "" } else { " (give none or one per joint)" }
    )]
    Length {
        /// The point.
        point: usize,
        /// `positions`, `velocities`, `accelerations` or `efforts`.
        what: &'static str,
        /// Its length.
        len: usize,
        /// Joints named.
        joints: usize,
        /// Whether it must be given.
        required: bool,
    },
    /// A `time_from_start` whose nanoseconds are a second or more.
    #[error("point {point}'s time_from_start has {nanosec} ns, not below 10⁹")]
    Nanoseconds {
        /// The point.
        point: usize,
        /// The nanoseconds given.
        nanosec: u32,
    },
    /// A position or velocity that is not a number.
    #[error("point {point} gives `{joint}` position {position}, velocity {velocity}: not finite")]
    NotFinite {
        /// The point.
        point: usize,
        /// The joint.
        joint: String,
        /// Its position.
        position: f64,
        /// Its velocity.
        velocity: f64,
    },
    /// An acceleration that is not a number.
    #[error("point {point} gives `{joint}` acceleration {acceleration}: not finite")]
    AccelerationNotFinite {
        /// The point.
        point: usize,
        /// The joint.
        joint: String,
        /// Its acceleration.
        acceleration: f64,
    },
    /// A position beyond the joint's limits.
    #[error("point {point} puts `{joint}` at {position}, beyond its limits [{lower}, {upper}]")]
    BeyondLimits {
        /// The point.
        point: usize,
        /// The joint.
        joint: String,
        /// The position.
        position: f64,
        /// Its lower limit (−∞ without one).
        lower: f64,
        /// Its upper limit (∞ without one).
        upper: f64,
    },
}

/// Fills `into` with `message` for `group`, or says why not. `received_ns`: when it arrived
/// (ROS time, ns), the start of a message stamped zero; `now_ns`: the time now, which its end
/// must not be before. `allow_partial`: joint_trajectory_controller's
/// `allow_partial_joints_goal` (the joints it leaves out hold).
pub fn fill(
    group: &Group,
    message: &JointTrajectory,
    received_ns: i128,
    now_ns: i128,
    allow_partial: bool,
    into: &mut Trajectory,
) -> Result<(), Refusal> {
    let stamp_ns = message.header.stamp.as_nanos();
    let start_ns = if stamp_ns == 0 { received_ns } else { stamp_ns };
    if message.points.is_empty() {
        // An empty trajectory: stop, and hold where the group is.
        into.set_stop(start_ns, Hold::Desired);
        return Ok(());
    }
    let names = &message.joint_names;
    if names.is_empty() {
        return Err(Refusal::NoJoints);
    }
    // Message column → group joint.
    let mut order = Vec::with_capacity(names.len());
    for (column, name) in names.iter().enumerate() {
        let Some(joint) = group.joints.iter().position(|j| j.name == *name) else {
            return Err(Refusal::UnknownJoint {
                joint: name.clone(),
                controller: group.controller.clone(),
                known: group.joints.iter().map(|j| j.name.clone()).collect(),
            });
        };
        if names[..column].contains(name) {
            return Err(Refusal::JointTwice {
                joint: name.clone(),
            });
        }
        order.push(joint);
    }
    if names.len() < group.joints.len() && !allow_partial {
        return Err(Refusal::Partial {
            named: names.len(),
            of: group.joints.len(),
            controller: group.controller.clone(),
        });
    }
    if message.points.len() > MAX_POINTS {
        return Err(Refusal::TooManyPoints {
            points: message.points.len(),
        });
    }
    let has_velocities = message.points.iter().any(|p| !p.velocities.is_empty());
    let mut previous = -1.0;
    for (index, point) in message.points.iter().enumerate() {
        check_point(group, names, &order, index, point, has_velocities)?;
        let time = seconds(point);
        if time <= previous || time < 0.0 {
            return Err(Refusal::TimesNotIncreasing {
                point: index,
                time,
                previous,
            });
        }
        previous = time;
    }
    let end_ns = start_ns + (previous * 1e9) as i128;
    if end_ns < now_ns {
        return Err(Refusal::InThePast {
            late: (now_ns - end_ns) as f64 * 1e-9,
        });
    }

    let has_accelerations = message.points.iter().all(|p| !p.accelerations.is_empty());
    into.reset(start_ns, has_velocities, has_accelerations);
    let joints = group.joints.len();
    let mut columns = [vec![f64::NAN; joints], vec![0.0; joints], vec![0.0; joints]];
    for point in &message.points {
        let [positions, velocities, accelerations] = &mut columns;
        positions.fill(f64::NAN); // the joints a partial goal leaves out hold
        velocities.fill(0.0);
        accelerations.fill(0.0);
        for (column, &joint) in order.iter().enumerate() {
            positions[joint] = point.positions[column];
            velocities[joint] = point.velocities.get(column).copied().unwrap_or(0.0);
            accelerations[joint] = point.accelerations.get(column).copied().unwrap_or(0.0);
        }
        if !into.push(seconds(point), positions, velocities, accelerations) {
            return Err(Refusal::BufferFull);
        }
    }
    Ok(())
}

fn seconds(point: &JointTrajectoryPoint) -> f64 {
    f64::from(point.time_from_start.sec) + f64::from(point.time_from_start.nanosec) * 1e-9
}

/// One point's arrays: their lengths, finite values, positions within the limits.
fn check_point(
    group: &Group,
    names: &[String],
    order: &[usize],
    index: usize,
    point: &JointTrajectoryPoint,
    has_velocities: bool,
) -> Result<(), Refusal> {
    let n = names.len();
    let length = |what: &'static str, len: usize, required: bool| {
        if len == n || (len == 0 && !required) {
            Ok(())
        } else {
            Err(Refusal::Length {
                point: index,
                what,
                len,
                joints: n,
                required,
            })
        }
    };
    length("positions", point.positions.len(), true)?;
    length("velocities", point.velocities.len(), has_velocities)?;
    length("accelerations", point.accelerations.len(), false)?;
    length("efforts", point.effort.len(), false)?;
    if point.time_from_start.nanosec >= 1_000_000_000 {
        return Err(Refusal::Nanoseconds {
            point: index,
            nanosec: point.time_from_start.nanosec,
        });
    }
    for (column, (&joint, name)) in order.iter().zip(names).enumerate() {
        let position = point.positions[column];
        let velocity = point.velocities.get(column).copied().unwrap_or(0.0);
        if !position.is_finite() || !velocity.is_finite() {
            return Err(Refusal::NotFinite {
                point: index,
                joint: name.clone(),
                position,
                velocity,
            });
        }
        let acceleration = point.accelerations.get(column).copied().unwrap_or(0.0);
        if !acceleration.is_finite() {
            return Err(Refusal::AccelerationNotFinite {
                point: index,
                joint: name.clone(),
                acceleration,
            });
        }
        let Some(joint) = group.joints.get(joint) else {
            continue;
        };
        if !joint.within_limits(position) {
            return Err(Refusal::BeyondLimits {
                point: index,
                joint: name.clone(),
                position,
                lower: joint.lower.unwrap_or(f64::NEG_INFINITY),
                upper: joint.upper.unwrap_or(f64::INFINITY),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ros2_msg::msg::{Duration, Header, Time};

    use super::*;
    use crate::group::GroupJoint;

    fn group() -> Group {
        let joint = |name: &str, lower, upper| GroupJoint {
            name: name.into(),
            index: 0,
            lower: Some(lower),
            upper: Some(upper),
            state_position: None,
            state_velocity: None,
            command: Default::default(),
            gains: (0.0, 0.0),
        };
        Group {
            controller: "leg_trajectory_controller".into(),
            topic: "/leg_trajectory_controller/joint_trajectory".into(),
            action: "/leg_trajectory_controller/follow_joint_trajectory".into(),
            state_topic: "/leg_trajectory_controller/controller_state".into(),
            joints: vec![joint("hip", -1.0, 1.0), joint("knee", 0.0, 2.0)],
            feedforward: Default::default(),
        }
    }

    fn point(positions: &[f64], seconds: f64) -> JointTrajectoryPoint {
        JointTrajectoryPoint {
            positions: positions.to_vec(),
            time_from_start: Duration {
                sec: seconds.trunc() as i32,
                nanosec: (seconds.fract() * 1e9).round() as u32,
            },
            ..JointTrajectoryPoint::default()
        }
    }

    fn goal(names: &[&str], points: Vec<JointTrajectoryPoint>) -> JointTrajectory {
        JointTrajectory {
            header: Header::default(), // stamp zero: on receipt
            joint_names: names.iter().map(|n| n.to_string()).collect(),
            points,
        }
    }

    const NOW: i128 = 1_000_000_000_000;

    fn check(message: &JointTrajectory, allow_partial: bool) -> Result<Trajectory, Refusal> {
        let mut into = Trajectory::with_capacity(2);
        fill(&group(), message, NOW, NOW, allow_partial, &mut into).map(|()| into)
    }

    fn refusal(message: &JointTrajectory) -> String {
        check(message, false).unwrap_err().to_string()
    }

    #[test]
    fn joints_in_any_order_land_in_the_groups_order() {
        let t = check(
            &goal(&["knee", "hip"], vec![point(&[1.5, -0.5], 1.0)]),
            false,
        )
        .unwrap();
        assert_eq!(t.start_ns, NOW, "a zero stamp starts on receipt");
        assert_eq!(t.stop, None);
        assert_eq!(t.sample(0, 2.0), (-0.5, 0.0));
        assert_eq!(t.sample(1, 2.0), (1.5, 0.0));
    }

    #[test]
    fn an_empty_goal_is_the_order_to_stop() {
        let t = check(&goal(&[], vec![]), false).unwrap();
        assert_eq!(t.stop, Some(Hold::Desired));
    }

    #[test]
    fn bad_goals_are_refused_with_the_reason() {
        assert_eq!(
            refusal(&goal(&["hip", "ankle"], vec![point(&[0.0, 0.0], 1.0)])),
            "joint `ankle` is not one of leg_trajectory_controller's joints (hip, knee)"
        );
        assert_eq!(
            refusal(&goal(&["hip"], vec![point(&[0.0], 1.0)])),
            "it names 1 of the 2 joints of leg_trajectory_controller, and \
             allow_partial_joints_goal is false"
        );
        assert_eq!(
            refusal(&goal(&["hip", "hip"], vec![point(&[0.0, 0.0], 1.0)])),
            "joint `hip` is named twice"
        );
        assert_eq!(
            refusal(&goal(&["hip", "knee"], vec![point(&[0.0], 1.0)])),
            "point 0 has 1 positions for 2 joints"
        );
        assert_eq!(
            refusal(&goal(&["hip", "knee"], vec![point(&[f64::NAN, 0.0], 1.0)])),
            "point 0 gives `hip` position NaN, velocity 0: not finite"
        );
        assert_eq!(
            refusal(&goal(&["hip", "knee"], vec![point(&[0.0, 2.5], 1.0)])),
            "point 0 puts `knee` at 2.5, beyond its limits [0, 2]"
        );
        assert_eq!(
            refusal(&goal(
                &["hip", "knee"],
                vec![point(&[0.0, 1.0], 2.0), point(&[0.0, 1.0], 1.0)]
            )),
            "point 1 is at 1 s, not after the point before it (2 s): times must increase"
        );
        let mut past = goal(&["hip", "knee"], vec![point(&[0.0, 1.0], 1.0)]);
        past.header.stamp = Time {
            sec: 900,
            nanosec: 0,
        };
        assert!(refusal(&past).starts_with("it ended 99.000 s before it was taken"));
    }

    #[test]
    fn a_partial_goal_when_allowed_holds_the_joints_it_leaves_out() {
        let mut t = check(&goal(&["knee"], vec![point(&[1.0], 1.0)]), true).unwrap();
        t.take_over(&[0.25, 0.0], &[0.0, 0.0]);
        assert_eq!(t.sample(0, 5.0), (0.25, 0.0), "hip holds");
        assert_eq!(t.sample(1, 5.0), (1.0, 0.0));
    }
}
