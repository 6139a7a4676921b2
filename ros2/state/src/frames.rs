//! The transforms RViz needs, from the definition's own kinematics (robot_model::kinematics,
//! the same frames the emitted URDF has): each joint's child link in its parent link, the
//! joint's origin then its motion. Fixed joints go once to `/tf_static`; movable ones to `/tf`
//! every time a state is published.

use robot_runtime::InterfaceKind;
use robot_runtime::Robot;
use robot_runtime::kinematics::{self, Transform};
use robot_runtime::typed::Layout;
use ros2_msg::msg::{self, Header, TFMessage, TransformStamped};

/// One joint's transform: parent link frame → child link frame.
#[derive(Debug, Clone, PartialEq)]
pub struct JointFrame {
    /// The joint's index in the definition.
    pub joint: usize,
    /// The parent link.
    pub parent: String,
    /// The child link.
    pub child: String,
    /// Where its position is in the state, if it has one.
    position_slot: Option<usize>,
    /// Where it starts: what is published until a finite position is read.
    initial_position: f64,
}

/// Every joint's frame, fixed and movable apart, in definition order.
#[derive(Debug, Clone, PartialEq)]
pub struct Frames {
    /// Fixed joints: `/tf_static`.
    pub fixed: Vec<JointFrame>,
    /// Movable joints: `/tf`.
    pub movable: Vec<JointFrame>,
    /// A floating base's frame in the world: on `/tf` too, after the movable joints.
    pub base: Option<BaseFrame>,
}

/// Where a floating base is: its root link in [`WORLD_FRAME`].
#[derive(Debug, Clone, PartialEq)]
pub struct BaseFrame {
    /// The root link.
    pub root: String,
    /// The home pose: upright, its lowest collision point on the floor
    /// ([`kinematics::standing_height`]), where MuJoCo starts it too. Published until a backend
    /// says where the base is.
    pub home: Transform,
}

/// The frame a floating base moves in, as MuJoCo's world and Gazebo's are named.
pub const WORLD_FRAME: &str = "world";

impl Frames {
    /// The frames of `robot`, whose state is laid out as `state`.
    pub fn of(robot: &Robot, state: &Layout) -> Frames {
        let (mut fixed, mut movable) = (Vec::new(), Vec::new());
        for (index, joint) in robot.joints.iter().enumerate() {
            let frame = JointFrame {
                joint: index,
                parent: joint.parent.to_string(),
                child: joint.child.to_string(),
                position_slot: state.joint_slot(index, InterfaceKind::Position),
                initial_position: kinematics::initial_position(robot, index),
            };
            if joint.kind.is_movable() {
                movable.push(frame);
            } else {
                fixed.push(frame);
            }
        }
        let base = robot
            .floating_base
            .then(|| robot.root_link())
            .flatten()
            .map(|root| BaseFrame {
                root: root.name.to_string(),
                home: Transform {
                    translation: [
                        0.0,
                        0.0,
                        kinematics::standing_height(robot)
                            .ok()
                            .flatten()
                            .unwrap_or(0.0),
                    ],
                    ..Transform::IDENTITY
                },
            });
        Frames {
            fixed,
            movable,
            base,
        }
    }

    /// `/tf`'s message: the movable joints' transforms, then the floating base's.
    pub fn tf_message(&self) -> TFMessage {
        let mut message = Frames::message(&self.movable);
        if let Some(base) = &self.base {
            message.transforms.push(TransformStamped {
                header: Header {
                    frame_id: WORLD_FRAME.to_string(),
                    ..Header::default()
                },
                child_frame_id: base.root.clone(),
                transform: ros_transform(&base.home),
            });
        }
        message
    }

    /// Fills `/tf`'s message (made by [`Frames::tf_message`]): the movable joints as
    /// [`Frames::fill`] does, and the floating base at `base`, or at home when no backend knows.
    /// Allocates nothing.
    pub fn fill_tf(
        &self,
        robot: &Robot,
        state: &[f64],
        base: Option<&Transform>,
        stamp: &msg::Time,
        last: &mut [f64],
        message: &mut TFMessage,
    ) {
        Frames::fill(robot, &self.movable, state, stamp, last, message);
        if let (Some(frame), Some(stamped)) = (&self.base, message.transforms.last_mut()) {
            stamped.header.stamp = stamp.clone();
            stamped.transform = ros_transform(base.unwrap_or(&frame.home));
        }
    }

    /// A message of `frames`, frame names set, transforms to be filled.
    pub fn message(frames: &[JointFrame]) -> TFMessage {
        TFMessage {
            transforms: frames
                .iter()
                .map(|frame| TransformStamped {
                    header: Header {
                        frame_id: frame.parent.clone(),
                        ..Header::default()
                    },
                    child_frame_id: frame.child.clone(),
                    ..TransformStamped::default()
                })
                .collect(),
        }
    }

    /// Fills `message` (made by [`Frames::message`] of the same `frames`) for `state`: each
    /// joint at its measured position, or where it last was when the state has none (NaN).
    /// `last` holds those positions, one per frame. Allocates nothing.
    pub fn fill(
        robot: &Robot,
        frames: &[JointFrame],
        state: &[f64],
        stamp: &msg::Time,
        last: &mut [f64],
        message: &mut TFMessage,
    ) {
        for ((frame, last), stamped) in frames.iter().zip(last).zip(&mut message.transforms) {
            let Some(joint) = robot.joints.get(frame.joint) else {
                continue;
            };
            if let Some(q) = frame.position_slot.and_then(|s| state.get(s)).copied()
                && q.is_finite()
            {
                *last = q;
            }
            let transform =
                Transform::from_pose(&joint.origin).then(&kinematics::joint_motion(joint, *last));
            stamped.header.stamp = stamp.clone();
            stamped.transform = ros_transform(&transform);
        }
    }

    /// The starting positions of `frames`, for [`Frames::fill`]'s `last`.
    pub fn initial_positions(frames: &[JointFrame]) -> Vec<f64> {
        frames.iter().map(|f| f.initial_position).collect()
    }
}

/// A kinematics transform as `geometry_msgs/Transform`.
pub fn ros_transform(transform: &Transform) -> msg::Transform {
    let [w, x, y, z] = kinematics::matrix_to_quaternion(&transform.rotation);
    let [tx, ty, tz] = transform.translation;
    msg::Transform {
        translation: msg::Vector3 {
            x: tx,
            y: ty,
            z: tz,
        },
        rotation: msg::Quaternion { x, y, z, w },
    }
}
