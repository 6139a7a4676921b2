//! Orientation: a small Hamilton quaternion and the sensor's Euler-angle convention
//! (`docs/witmotion-protocol.md` §4).
//!
//! The sensor frame is the one printed on the case: x and y as drawn, z up out of the top face,
//! right-handed. The reference frame is WitMotion's "northeast-sky" frame: x east, y north,
//! z up, which is REP-103's ENU. The Euler angles turn the reference frame into the sensor frame
//! about z by yaw, then about the new y by pitch, then about the newest x by roll ("Z-Y-X …
//! first turn around the Z-axis, then … the Y-axis, and then … the X-axis", WT901 datasheet
//! v20-0702 §5.1.4), so
//!
//! ```text
//! q = q_z(yaw) · q_y(pitch) · q_x(roll)          v_reference = q · v_sensor · q*
//! ```
//!
//! which is the orientation `sensor_msgs/Imu` carries (REP-145) and what ROS's
//! `quaternion_from_euler(roll, pitch, yaw)` gives (the SDK's ROS node calls exactly that). Two
//! recordings prove the order and that the device's own quaternion frame (0x59) sends w first:
//! `tests/captures.rs`.
//!
//! The mounting rotation from the robot's definition is not applied here; the component
//! composes it with [`Quaternion`]'s product.

use core::ops::Mul;

/// A quaternion `w + xi + yj + zk`, fields in ROS order (x, y, z, w).
///
/// As an orientation it turns sensor-frame vectors into reference-frame ones
/// ([`Quaternion::rotate`]); products compose rotations right to left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quaternion {
    /// i component.
    pub x: f32,
    /// j component.
    pub y: f32,
    /// k component.
    pub z: f32,
    /// Scalar component.
    pub w: f32,
}

impl Quaternion {
    /// No rotation.
    pub const IDENTITY: Quaternion = Quaternion::new(0.0, 0.0, 0.0, 1.0);

    /// The quaternion `w + xi + yj + zk`.
    #[inline]
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Quaternion {
        Quaternion { x, y, z, w }
    }

    /// The orientation of the sensor's Euler angles, rad: yaw about z, then pitch about y,
    /// then roll about x (intrinsic Z-Y-X). A unit quaternion for finite angles.
    #[inline]
    pub fn from_euler(roll: f32, pitch: f32, yaw: f32) -> Quaternion {
        let (sr, cr) = libm::sincosf(roll * 0.5);
        let (sp, cp) = libm::sincosf(pitch * 0.5);
        let (sy, cy) = libm::sincosf(yaw * 0.5);
        Quaternion {
            x: sr * cp * cy - cr * sp * sy,
            y: cr * sp * cy + sr * cp * sy,
            z: cr * cp * sy - sr * sp * cy,
            w: cr * cp * cy + sr * sp * sy,
        }
    }

    /// The Euler angles `(roll, pitch, yaw)` of a unit quaternion, rad, in the sensor's
    /// convention: roll and yaw in [−π, π], pitch in [−π/2, π/2], as the device reports them.
    pub fn to_euler(self) -> (f32, f32, f32) {
        let Quaternion { x, y, z, w } = self;
        let roll = libm::atan2f(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y));
        // Clamped: rounding can push the sine a hair past ±1 at the poles.
        let sin_pitch = (2.0 * (w * y - z * x)).clamp(-1.0, 1.0);
        let pitch = libm::asinf(sin_pitch);
        let yaw = libm::atan2f(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
        (roll, pitch, yaw)
    }

    /// The Euclidean norm.
    #[inline]
    pub fn norm(self) -> f32 {
        libm::sqrtf(self.dot(self))
    }

    /// The same rotation with unit norm, or `None` if the norm is 0 or not finite.
    #[inline]
    pub fn normalized(self) -> Option<Quaternion> {
        let norm = self.norm();
        if !(norm.is_finite() && norm > 0.0) {
            return None;
        }
        let inverse = 1.0 / norm;
        Some(Quaternion {
            x: self.x * inverse,
            y: self.y * inverse,
            z: self.z * inverse,
            w: self.w * inverse,
        })
    }

    /// The conjugate `w − xi − yj − zk`: the inverse rotation of a unit quaternion.
    #[inline]
    pub const fn conjugate(self) -> Quaternion {
        Quaternion::new(-self.x, -self.y, -self.z, self.w)
    }

    /// The four-dimensional dot product.
    #[inline]
    pub fn dot(self, other: Quaternion) -> f32 {
        self.x * other.x + self.y * other.y + self.z * other.z + self.w * other.w
    }

    /// The angle of the rotation between two unit quaternions, rad in [0, π]; `q` and `−q`
    /// are one orientation, 0 apart.
    pub fn angle_to(self, other: Quaternion) -> f32 {
        // atan2 of the difference's vector and scalar parts: exact near 0, where acos of the
        // dot product loses half its digits.
        let d = self.conjugate() * other;
        let vector = libm::sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
        2.0 * libm::atan2f(vector, d.w.abs())
    }

    /// `v` turned by this unit quaternion: `q · v · q*`, a sensor-frame vector expressed in the
    /// reference frame.
    #[inline]
    pub fn rotate(self, v: [f32; 3]) -> [f32; 3] {
        // v + 2w(u × v) + 2u × (u × v), with u the vector part.
        let u = [self.x, self.y, self.z];
        let t = cross(u, v).map(|c| 2.0 * c);
        let ut = cross(u, t);
        [
            v[0] + self.w * t[0] + ut[0],
            v[1] + self.w * t[1] + ut[1],
            v[2] + self.w * t[2] + ut[2],
        ]
    }
}

impl Default for Quaternion {
    fn default() -> Quaternion {
        Quaternion::IDENTITY
    }
}

impl Mul for Quaternion {
    type Output = Quaternion;

    /// The Hamilton product: `self · rhs` turns by `rhs` first, then by `self`.
    #[inline]
    fn mul(self, rhs: Quaternion) -> Quaternion {
        let (a, b) = (self, rhs);
        Quaternion {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }
}

#[inline]
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use core::f32::consts::FRAC_PI_2;

    use super::*;

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn a_yaw_of_ninety_degrees_turns_x_onto_y() {
        let q = Quaternion::from_euler(0.0, 0.0, FRAC_PI_2);
        assert!(close(q.rotate([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
    }

    #[test]
    fn roll_is_applied_before_pitch_before_yaw() {
        let (roll, pitch, yaw) = (0.3, -0.2, 1.1);
        let composed = Quaternion::from_euler(0.0, 0.0, yaw)
            * Quaternion::from_euler(0.0, pitch, 0.0)
            * Quaternion::from_euler(roll, 0.0, 0.0);
        assert!(composed.angle_to(Quaternion::from_euler(roll, pitch, yaw)) < 1e-6);
    }

    #[test]
    fn euler_angles_round_trip() {
        let q = Quaternion::from_euler(-2.5, 1.2, 3.0);
        let (r, p, y) = q.to_euler();
        assert!((r + 2.5).abs() < 1e-5 && (p - 1.2).abs() < 1e-5 && (y - 3.0).abs() < 1e-5);
        assert_eq!(Quaternion::new(0.0, 0.0, 0.0, 0.0).normalized(), None);
        assert!((q * q.conjugate()).angle_to(Quaternion::IDENTITY) < 1e-6);
    }
}
