//! Forward kinematics of a definition: where every link is for given joint positions, and how low
//! the collision geometry reaches.
//!
//! Frames follow URDF: a joint's frame is its `origin` in the parent link's frame (translation,
//! then fixed-axis roll-pitch-yaw), the joint moves the child about (revolute, continuous) or
//! along (prismatic) its `axis` in that frame, and the child link's frame is the moved joint frame.
//! The root link sits at the world origin, unrotated. World z is up.
//!
//! ```
//! use robot_model::{Robot, kinematics};
//!
//! fn report(robot: &Robot) -> Result<(), kinematics::KinematicsError> {
//!     let poses = kinematics::link_poses(robot, &kinematics::initial_positions(robot))?;
//!     let lowest = kinematics::lowest_collision_point(robot, &poses);
//!     if let Some(point) = lowest.point {
//!         println!("lowest: {} m, collision {} of `{}`", point.z, point.collision, point.link);
//!     }
//!     // The same as a floating base's standing height: −z of the lowest point.
//!     println!("stands at {:?} m", kinematics::standing_height(robot)?);
//!     Ok(())
//! }
//! ```
//!
//! Collision shapes are bounded exactly: boxes by their corners, spheres, capsules (a segment
//! swept by a sphere) and cylinders (two discs) in closed form. A mesh has no size in the
//! definition (only a file name), so it cannot be bounded here; [`LowestPoint::unbounded`] names
//! each one left out.

use crate::interface::InterfaceKind;
use crate::model::{Geometry, Joint, JointKind, Pose, Robot};

/// A 3×3 rotation matrix, rows first.
pub type Matrix = [[f64; 3]; 3];

/// A rigid transform: a rotation, then a translation. As a pose of frame B in frame A, it maps
/// B coordinates to A coordinates: `p_A = rotation · p_B + translation`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// The rotation, rows first.
    pub rotation: Matrix,
    /// The translation, m.
    pub translation: [f64; 3],
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    /// No rotation, no translation.
    pub const IDENTITY: Transform = Transform {
        rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        translation: [0.0; 3],
    };

    /// The transform of a URDF pose: translation `xyz`, rotation Rz(yaw)·Ry(pitch)·Rx(roll).
    pub fn from_pose(pose: &Pose) -> Transform {
        Transform {
            rotation: rpy_to_matrix(pose.rpy),
            translation: pose.xyz,
        }
    }

    /// A pure rotation by `angle` (rad) about `axis` (any length; a zero axis gives no rotation).
    pub fn rotation_about(axis: [f64; 3], angle: f64) -> Transform {
        let Some([x, y, z]) = unit(axis) else {
            return Transform::IDENTITY;
        };
        let (s, c) = angle.sin_cos();
        let t = 1.0 - c;
        Transform {
            rotation: [
                [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
            ],
            translation: [0.0; 3],
        }
    }

    /// A pure translation by `distance` (m) along `axis` (any length; a zero axis gives none).
    pub fn translation_along(axis: [f64; 3], distance: f64) -> Transform {
        let Some(u) = unit(axis) else {
            return Transform::IDENTITY;
        };
        Transform {
            translation: u.map(|c| c * distance),
            ..Transform::IDENTITY
        }
    }

    /// `self` then `inner`: the pose of frame C in A, when `self` is B in A and `inner` C in B.
    pub fn then(&self, inner: &Transform) -> Transform {
        let r = &self.rotation;
        let rotation = std::array::from_fn(|i| {
            std::array::from_fn(|j| (0..3).map(|k| r[i][k] * inner.rotation[k][j]).sum())
        });
        Transform {
            rotation,
            translation: self.apply(inner.translation),
        }
    }

    /// A point given in the inner frame, in the outer one.
    pub fn apply(&self, point: [f64; 3]) -> [f64; 3] {
        let rotated = self.rotate(point);
        std::array::from_fn(|i| rotated[i] + self.translation[i])
    }

    /// A direction given in the inner frame, in the outer one.
    pub fn rotate(&self, v: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| (0..3).map(|k| self.rotation[i][k] * v[k]).sum())
    }
}

/// The rotation matrix of URDF fixed-axis roll-pitch-yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll).
pub fn rpy_to_matrix([roll, pitch, yaw]: [f64; 3]) -> Matrix {
    let (sr, cr) = roll.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let (sy, cy) = yaw.sin_cos();
    [
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ]
}

/// The rotation matrix of a quaternion `[w, x, y, z]`, normalised first (MuJoCo's `qpos`
/// quaternions drift off unit length between its own normalisations). A zero quaternion gives
/// no rotation.
pub fn quaternion_to_matrix([w, x, y, z]: [f64; 4]) -> Matrix {
    let norm = (w * w + x * x + y * y + z * z).sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return Transform::IDENTITY.rotation;
    }
    let [w, x, y, z] = [w, x, y, z].map(|c| c / norm);
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// The unit quaternion `[w, x, y, z]` of a rotation matrix, `w ≥ 0` (Shepperd's method: the
/// largest of the four candidates, so no division by a small number).
pub fn matrix_to_quaternion(m: &Matrix) -> [f64; 4] {
    let trace = m[0][0] + m[1][1] + m[2][2];
    let q = if trace > 0.0 {
        let s = 2.0 * (1.0 + trace).sqrt();
        [
            s / 4.0,
            (m[2][1] - m[1][2]) / s,
            (m[0][2] - m[2][0]) / s,
            (m[1][0] - m[0][1]) / s,
        ]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = 2.0 * (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt();
        [
            (m[2][1] - m[1][2]) / s,
            s / 4.0,
            (m[0][1] + m[1][0]) / s,
            (m[0][2] + m[2][0]) / s,
        ]
    } else if m[1][1] > m[2][2] {
        let s = 2.0 * (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt();
        [
            (m[0][2] - m[2][0]) / s,
            (m[0][1] + m[1][0]) / s,
            s / 4.0,
            (m[1][2] + m[2][1]) / s,
        ]
    } else {
        let s = 2.0 * (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt();
        [
            (m[1][0] - m[0][1]) / s,
            (m[0][2] + m[2][0]) / s,
            (m[1][2] + m[2][1]) / s,
            s / 4.0,
        ]
    };
    if q[0] < 0.0 { q.map(|c| -c) } else { q }
}

/// The rigid body link `link` is part of, and its pose in that body: up the tree through fixed
/// joints to the first link that is not attached by one (the root, or the child of a moving
/// joint). For a sensor's link, the body whose motion the sensor measures, and how the sensor
/// frame sits in it. `None` for a link not in the tree, or fixed joints that loop.
pub fn rigid_body_of<'a>(robot: &'a Robot, link: &str) -> Option<(&'a str, Transform)> {
    let mut current: &str = &robot.link(link)?.name;
    let mut pose = Transform::IDENTITY;
    for _ in 0..=robot.joints.len() {
        let parent = robot
            .joints
            .iter()
            .find(|j| j.child == current && j.kind == JointKind::Fixed);
        let Some(joint) = parent else {
            return Some((current, pose));
        };
        pose = Transform::from_pose(&joint.origin).then(&pose);
        current = &joint.parent;
    }
    None
}

fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let norm = v.iter().map(|c| c * c).sum::<f64>().sqrt();
    (norm > 0.0 && norm.is_finite()).then(|| v.map(|c| c / norm))
}

/// The kinematic tree could not be walked: the description breaks a rule that validation reports
/// (`robot_model::validate`); kinematics never guesses around it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum KinematicsError {
    /// Every link is some joint's child (or there are no links).
    #[error("the robot has no root link")]
    NoRootLink,
    /// The positions do not match the joints one for one.
    #[error("{found} joint positions for {expected} joints")]
    PositionCount {
        /// The number of joints.
        expected: usize,
        /// The number of positions given.
        found: usize,
    },
    /// A joint names a child link that does not exist.
    #[error("joint `{joint}` has the unknown child link `{link}`")]
    UnknownChild {
        /// The joint.
        joint: String,
        /// The missing link.
        link: String,
    },
    /// A link is reached twice from the root (two parents, or a loop), or never (a second root).
    #[error("link `{link}` is not in one tree with the root")]
    NotATree {
        /// The link.
        link: String,
    },
}

/// The position (rad or m) joint `index` of `robot.joints` starts at: its `position` state
/// interface's `initial_value`, else 0, as the mock backend starts; a mimic joint is at
/// `multiplier · q + offset` of the joint it follows. Fixed joints and out-of-range indices give 0.
pub fn initial_position(robot: &Robot, index: usize) -> f64 {
    let Some(joint) = robot.joints.get(index) else {
        return 0.0;
    };
    own_initial_position(robot, joint, robot.joints.len())
}

fn own_initial_position(robot: &Robot, joint: &Joint, depth: usize) -> f64 {
    if !joint.kind.is_movable() {
        return 0.0;
    }
    if let Some(mimic) = &joint.mimic {
        // A mimic chain is at most as long as the joint list; the bound stops a bad loop.
        return match robot.joint(&mimic.joint).filter(|_| depth > 0) {
            Some(followed) => {
                mimic.multiplier * own_initial_position(robot, followed, depth - 1) + mimic.offset
            }
            None => mimic.offset,
        };
    }
    joint
        .state_interface(InterfaceKind::Position)
        .and_then(|i| i.initial_value)
        .unwrap_or(0.0)
}

/// [`initial_position`] of every joint, in declaration order.
pub fn initial_positions(robot: &Robot) -> Vec<f64> {
    (0..robot.joints.len())
        .map(|i| initial_position(robot, i))
        .collect()
}

/// The motion of a joint at position `q`: rotation about, or translation along, its axis.
pub fn joint_motion(joint: &Joint, q: f64) -> Transform {
    joint_motion_about(joint.kind, joint.axis, q)
}

/// The motion of a joint of kind `kind` about (or along) `axis` at position `q`.
pub fn joint_motion_about(kind: JointKind, axis: [f64; 3], q: f64) -> Transform {
    match kind {
        JointKind::Revolute | JointKind::Continuous => Transform::rotation_about(axis, q),
        JointKind::Prismatic => Transform::translation_along(axis, q),
        JointKind::Fixed => Transform::IDENTITY,
    }
}

/// The joints in depth-first order from the root, each link's child joints in declaration order:
/// the order of MJCF's nested bodies, and so of MuJoCo's `qpos`. Indices into `robot.joints`.
/// Every link must be reached exactly once.
pub fn tree_order(robot: &Robot) -> Result<Vec<usize>, KinematicsError> {
    let root = robot.root_link().ok_or(KinematicsError::NoRootLink)?;
    let mut reached = vec![false; robot.links.len()];
    mark(robot, &root.name, &mut reached)?;
    let mut order = Vec::with_capacity(robot.joints.len());
    // An explicit stack of (link, next child joint to look at), so a deep chain cannot overflow.
    let mut stack: Vec<(&str, usize)> = vec![(&root.name, 0)];
    while let Some((link, from)) = stack.pop() {
        let next = (robot.joints.iter().enumerate().skip(from)).find(|(_, j)| j.parent == link);
        let Some((index, joint)) = next else {
            continue;
        };
        stack.push((link, index + 1));
        mark(robot, &joint.child, &mut reached).map_err(|e| match e {
            KinematicsError::NotATree { .. } => e,
            _ => KinematicsError::UnknownChild {
                joint: joint.name.to_string(),
                link: joint.child.to_string(),
            },
        })?;
        order.push(index);
        stack.push((&joint.child, 0));
    }
    match (robot.links.iter().zip(&reached)).find(|(_, reached)| !**reached) {
        Some((link, _)) => Err(KinematicsError::NotATree {
            link: link.name.to_string(),
        }),
        None => Ok(order),
    }
}

/// Marks `link` reached; a link reached before is not in a tree, an unknown one is
/// [`KinematicsError::NoRootLink`] (the caller names the joint).
fn mark(robot: &Robot, link: &str, reached: &mut [bool]) -> Result<(), KinematicsError> {
    let index =
        (robot.links.iter().position(|l| l.name == link)).ok_or(KinematicsError::NoRootLink)?;
    if std::mem::replace(&mut reached[index], true) {
        return Err(KinematicsError::NotATree {
            link: link.to_string(),
        });
    }
    Ok(())
}

/// Every link's pose in the world frame, for joint positions `positions` (one per joint of
/// `robot.joints`, in declaration order; fixed joints' values are ignored). The root link is at
/// the world origin.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkPoses {
    /// One per link of `robot.links`, in declaration order.
    poses: Vec<Transform>,
    /// Link names, in declaration order.
    names: Vec<String>,
}

impl LinkPoses {
    /// The pose of the link of that name.
    pub fn get(&self, link: &str) -> Option<&Transform> {
        (self.names.iter().position(|n| n == link)).map(|i| &self.poses[i])
    }

    /// Every link's name and pose, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Transform)> {
        self.names.iter().map(String::as_str).zip(&self.poses)
    }
}

/// The pose of every link for `positions`; see [`LinkPoses`].
pub fn link_poses(robot: &Robot, positions: &[f64]) -> Result<LinkPoses, KinematicsError> {
    if positions.len() != robot.joints.len() {
        return Err(KinematicsError::PositionCount {
            expected: robot.joints.len(),
            found: positions.len(),
        });
    }
    let index_of = |name: &str| robot.links.iter().position(|l| l.name == name);
    let mut poses = vec![Transform::IDENTITY; robot.links.len()];
    // Parents come before their children in tree order, so each parent's pose is final when read.
    for i in tree_order(robot)? {
        let joint = &robot.joints[i];
        let (Some(parent), Some(child)) = (index_of(&joint.parent), index_of(&joint.child)) else {
            continue; // tree_order has checked both exist
        };
        poses[child] = poses[parent]
            .then(&Transform::from_pose(&joint.origin))
            .then(&joint_motion(joint, positions[i]));
    }
    Ok(LinkPoses {
        poses,
        names: robot.links.iter().map(|l| l.name.to_string()).collect(),
    })
}

/// Where the collision geometry reaches lowest, in the world frame.
#[derive(Debug, Clone, PartialEq)]
pub struct LowestPoint {
    /// The lowest point's height and the shape it is on; `None` when no collision shape can be
    /// bounded (there are none, or only meshes).
    pub point: Option<Lowest>,
    /// Collision meshes, which have no size in the definition and are left out:
    /// `(link, index in its collisions)`.
    pub unbounded: Vec<(String, usize)>,
}

/// The lowest collision point and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Lowest {
    /// Its height (world z), m.
    pub z: f64,
    /// The link of the shape.
    pub link: String,
    /// The shape's index in the link's collisions.
    pub collision: usize,
}

/// The lowest point of every collision shape of `robot`, placed by `poses`.
pub fn lowest_collision_point(robot: &Robot, poses: &LinkPoses) -> LowestPoint {
    let mut lowest = LowestPoint {
        point: None,
        unbounded: Vec::new(),
    };
    for link in robot.links.iter() {
        let Some(pose) = poses.get(&link.name) else {
            continue;
        };
        for (index, shape) in link.collisions.iter().enumerate() {
            let placed = pose.then(&Transform::from_pose(&shape.origin));
            match lowest_z(&shape.geometry, &placed) {
                Some(z) if lowest.point.as_ref().is_none_or(|p| z < p.z) => {
                    lowest.point = Some(Lowest {
                        z,
                        link: link.name.to_string(),
                        collision: index,
                    });
                }
                Some(_) => {}
                None => lowest.unbounded.push((link.name.to_string(), index)),
            }
        }
    }
    lowest
}

/// The height a floating base stands at with every joint at its [`initial_position`]: the root
/// link's height that puts the lowest collision point on z = 0, that is −z of
/// [`lowest_collision_point`] with the root at the origin. `None` when no collision shape can be
/// bounded.
pub fn standing_height(robot: &Robot) -> Result<Option<f64>, KinematicsError> {
    let poses = link_poses(robot, &initial_positions(robot))?;
    Ok(lowest_collision_point(robot, &poses).point.map(|p| -p.z))
}

/// The lowest world z a geometry placed at `pose` reaches; `None` for a mesh (no size known) or
/// for numbers that are not finite.
pub fn lowest_z(geometry: &Geometry, pose: &Transform) -> Option<f64> {
    // The world z axis in the geometry's frame is the bottom row of the rotation.
    let up = pose.rotation[2];
    let centre = pose.translation[2];
    let z = match geometry {
        Geometry::Box { size } => centre - (0..3).map(|i| up[i].abs() * size[i] / 2.0).sum::<f64>(),
        Geometry::Sphere { radius } => centre - radius,
        // A segment along local z, swept by a sphere.
        Geometry::Capsule { radius, length } => centre - up[2].abs() * length / 2.0 - radius,
        // Two discs along local z: a disc of normal n reaches r·√(1 − n_z²) below its centre.
        Geometry::Cylinder { radius, length } => {
            let tilt = (1.0 - up[2] * up[2]).max(0.0).sqrt();
            centre - up[2].abs() * length / 2.0 - radius * tilt
        }
        Geometry::Mesh { .. } => return None,
    };
    z.is_finite().then_some(z)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
