//! The definition's collision primitives as parry's shapes, and how deep two of them overlap.
//!
//! A sphere's pairs have exact answers in parry (the projection of its centre); every other pair
//! goes through parry's GJK/EPA on the shapes' support functions, to its tolerance: within
//! 1e-6 m of the depths worked out by hand in the tests, and of MuJoCo's own, far under the
//! tenth of a millimetre the warning gives.

use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::query;
use parry3d_f64::shape::{Ball, Capsule, Cuboid, Cylinder, Shape};
use robot_model::kinematics::{Transform, matrix_to_quaternion};
use robot_model::model::Geometry;

/// Why a collision shape is not checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Unsupported {
    /// A mesh: the definition holds its file name, not its size.
    Mesh {
        /// The mesh file, as the definition names it.
        filename: String,
    },
    /// A size that is not in [`SIZES`] (negative, zero where a solid needs it positive, not
    /// finite), or a placement farther than [`REACH`] (validation reports the numbers that are
    /// not finite).
    BadNumbers,
}

/// The sizes checked, m: parry's EPA indexes out of bounds on sizes near the limits of `f64`
/// (1e300 against 1e-300); no part of a robot is outside this range.
pub const SIZES: std::ops::RangeInclusive<f64> = 1e-9..=1e6;

/// How far from the root a shape may be placed and still be checked, m, in any coordinate.
pub const REACH: f64 = 1e6;

/// One primitive in parry's terms.
enum Primitive {
    Ball(Ball),
    Cuboid(Cuboid),
    Capsule(Capsule),
    Cylinder(Cylinder),
}

impl Primitive {
    fn of(geometry: &Geometry) -> Result<Primitive, Unsupported> {
        let positive = |v: f64| SIZES.contains(&v);
        let primitive = match *geometry {
            Geometry::Sphere { radius } if positive(radius) => Primitive::Ball(Ball::new(radius)),
            Geometry::Box { size } if size.iter().all(|&s| positive(s)) => {
                Primitive::Cuboid(Cuboid::new(Vector::from_array(size) / 2.0))
            }
            // `length` is the cylindrical part only (the MJCF's capsule keeps it so): the
            // segment's half length, the caps beyond it.
            Geometry::Capsule { radius, length }
                if positive(radius) && (length == 0.0 || positive(length)) =>
            {
                Primitive::Capsule(Capsule::new_z(length / 2.0, radius))
            }
            Geometry::Cylinder { radius, length } if positive(radius) && positive(length) => {
                Primitive::Cylinder(Cylinder::new(length / 2.0, radius))
            }
            Geometry::Mesh { ref filename, .. } => {
                return Err(Unsupported::Mesh {
                    filename: filename.to_string(),
                });
            }
            _ => return Err(Unsupported::BadNumbers),
        };
        Ok(primitive)
    }

    fn shape(&self) -> &dyn Shape {
        match self {
            Primitive::Ball(s) => s,
            Primitive::Cuboid(s) => s,
            Primitive::Capsule(s) => s,
            Primitive::Cylinder(s) => s,
        }
    }

    /// The pose of parry's shape for a definition's shape at `pose`: parry's cylinder lies along
    /// its y axis, the definition's (as URDF's and MJCF's) along z; a quarter turn about x takes
    /// y to z.
    fn pose(&self, pose: &Transform) -> Pose {
        let [w, x, y, z] = matrix_to_quaternion(&pose.rotation);
        let placed = Pose::from_parts(
            Vector::from_array(pose.translation),
            Rotation::from_xyzw(x, y, z, w),
        );
        match self {
            Primitive::Cylinder(_) => {
                placed * Pose::from_rotation(Rotation::from_rotation_x(std::f64::consts::FRAC_PI_2))
            }
            _ => placed,
        }
    }
}

/// A collision shape ready to be checked: its primitive where it is.
pub(crate) struct Placed {
    primitive: Primitive,
    pose: Pose,
}

impl Placed {
    /// `geometry` at `pose` (its frame in the world), or why it cannot be checked.
    pub(crate) fn new(geometry: &Geometry, pose: &Transform) -> Result<Placed, Unsupported> {
        let primitive = Primitive::of(geometry)?;
        let finite = pose.rotation.iter().flatten().all(|v| v.is_finite());
        if !finite || !pose.translation.iter().all(|v| v.abs() <= REACH) {
            return Err(Unsupported::BadNumbers);
        }
        let pose = primitive.pose(pose);
        Ok(Placed { primitive, pose })
    }

    /// How deep `self` and `other` interpenetrate, m: 0 when they are apart or touch; `None`
    /// when parry finds no answer (no pair of these primitives lacks one).
    pub(crate) fn depth(&self, other: &Placed) -> Option<f64> {
        let contact = query::contact(
            &self.pose,
            self.primitive.shape(),
            &other.pose,
            other.primitive.shape(),
            0.0,
        )
        .ok()?;
        let depth = contact.map_or(0.0, |c| (-c.dist).max(0.0));
        depth.is_finite().then_some(depth)
    }
}

/// How deep two collision shapes, each placed in the world, interpenetrate, m: 0 when they are
/// apart or touch. The error names the first shape that cannot be checked (a mesh, or numbers
/// that are not a solid).
pub fn penetration(
    a: &Geometry,
    pose_a: &Transform,
    b: &Geometry,
    pose_b: &Transform,
) -> Result<f64, Unsupported> {
    let a = Placed::new(a, pose_a)?;
    let b = Placed::new(b, pose_b)?;
    // parry answers every pair of these four primitives; a `None` would be a degenerate case
    // its algorithms gave up on, reported as no overlap rather than a guess.
    Ok(a.depth(&b).unwrap_or(0.0))
}
