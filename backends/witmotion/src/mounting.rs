//! Where the IMU sits in the robot, from the definition: the body it is fixed to and the
//! rotation of the sensor frame in that body's frame.
//!
//! The sensor frame is the device's own, the axes printed on its case
//! (`docs/witmotion-protocol.md` §4); the definition's IMU link *is* that frame: a device
//! mounted rotated is described by rotating its link's origin. The body is the first link up the
//! tree that is not attached by a fixed joint (lite_biped's `pelvis`, under link `imu` through
//! the fixed `imu_frame`): what a balance controller wants the orientation of. The rotation is
//! the product of the fixed joints' origins between the two, URDF roll-pitch-yaw.
//!
//! With `m` that rotation (sensor in body) and `q` the device's orientation (sensor in its
//! reference frame), the body's orientation is `q · m*`, and a vector measured in the sensor
//! frame is `m · v · m*` in the body's: the component reports in the body's axes, REP-103's x
//! forward, y left, z up, whatever way the device is turned.

use robot_runtime::Robot;
use robot_runtime::kinematics::{self, Matrix};

/// A rotation as a unit quaternion, `x, y, z, w`, in `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rotation {
    /// i component.
    pub x: f64,
    /// j component.
    pub y: f64,
    /// k component.
    pub z: f64,
    /// Scalar component.
    pub w: f64,
}

impl Rotation {
    /// No rotation.
    pub const IDENTITY: Rotation = Rotation {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };

    /// The Hamilton product `self · rhs` (`rhs` first).
    pub fn then(self, rhs: Rotation) -> Rotation {
        let (a, b) = (self, rhs);
        Rotation {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }

    /// The inverse of a unit quaternion.
    pub fn conjugate(self) -> Rotation {
        Rotation {
            x: -self.x,
            y: -self.y,
            z: -self.z,
            w: self.w,
        }
    }

    /// `v` turned by this rotation.
    pub fn rotate(self, v: [f64; 3]) -> [f64; 3] {
        let u = [self.x, self.y, self.z];
        let t = cross(u, v).map(|c| 2.0 * c);
        let ut = cross(u, t);
        std::array::from_fn(|i| v[i] + self.w * t[i] + ut[i])
    }

    /// The quaternion of a rotation matrix, `w ≥ 0`.
    pub fn of_matrix(m: &Matrix) -> Rotation {
        let [w, x, y, z] = robot_runtime::kinematics::matrix_to_quaternion(m);
        Rotation { x, y, z, w }
    }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Why the definition gives no mounting for a sensor's link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MountingError {
    /// The link is not in the robot.
    #[error("its link `{link}` is not in {robot}")]
    UnknownLink {
        /// The link.
        link: String,
        /// The robot.
        robot: String,
    },
    /// The fixed joints above the link loop.
    #[error("the fixed joints above `{link}` form a cycle")]
    FixedCycle {
        /// The link.
        link: String,
    },
}

/// The IMU's place: the body it is fixed to and the sensor frame's rotation in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Mounting {
    /// The body's link.
    pub body: String,
    /// The sensor frame in the body frame.
    pub rotation: Rotation,
}

impl Mounting {
    /// The mounting of the sensor on `link`, or why the definition does not give one (a link
    /// that is not in the tree, a cycle of fixed joints).
    pub fn of(robot: &Robot, link: &str) -> Result<Mounting, MountingError> {
        if robot.link(link).is_none() {
            return Err(MountingError::UnknownLink {
                link: link.to_string(),
                robot: robot.name.to_string(),
            });
        }
        let (body, pose) =
            kinematics::rigid_body_of(robot, link).ok_or_else(|| MountingError::FixedCycle {
                link: link.to_string(),
            })?;
        Ok(Mounting {
            body: body.to_string(),
            rotation: Rotation::of_matrix(&pose.rotation),
        })
    }

    /// The body's orientation from the sensor's: `q · m*`.
    pub fn body_orientation(&self, sensor: Rotation) -> Rotation {
        sensor.then(self.rotation.conjugate())
    }

    /// A vector measured in the sensor frame, in the body's axes.
    pub fn to_body(&self, v: [f64; 3]) -> [f64; 3] {
        self.rotation.rotate(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn a_matrix_and_its_quaternion_turn_vectors_alike() {
        for rpy in [
            [0.0, 0.0, 0.0],
            [std::f64::consts::PI, 0.0, 0.0],
            [0.3, -1.2, 2.9],
            [0.0, std::f64::consts::FRAC_PI_2, 0.0],
            [-3.0, 0.1, -0.2],
        ] {
            let m = robot_runtime::kinematics::rpy_to_matrix(rpy);
            let q = Rotation::of_matrix(&m);
            for v in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.2, -0.5, 0.7]] {
                let by_matrix = robot_runtime::kinematics::Transform {
                    rotation: m,
                    translation: [0.0; 3],
                }
                .rotate(v);
                assert!(close(q.rotate(v), by_matrix), "{rpy:?} {v:?}");
            }
        }
    }
}
