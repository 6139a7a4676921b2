//! What the simulated IMU measures: the motion of the body it is mounted in, turned into the
//! device's own frame by its mounting.

use witmotion_protocol::Quaternion;
use witmotion_protocol::scale::STANDARD_GRAVITY;

/// The motion of the body the device is mounted in, in its reference frame (z up).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Motion {
    /// Still and level.
    Still,
    /// Still, tilted by `roll` about x, then `pitch` about y (rad, the device's Z-Y-X order with
    /// no yaw).
    Tilted {
        /// rad.
        roll: f32,
        /// rad.
        pitch: f32,
    },
    /// Turning at `rate` rad/s about the fixed reference axis `axis` (a unit vector), from level,
    /// about the device's own origin (no linear acceleration).
    Rotating {
        /// Unit axis in the reference frame.
        axis: [f32; 3],
        /// rad/s.
        rate: f32,
    },
}

/// What the device measures at one instant, in its own frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// The device's orientation in the reference frame.
    pub orientation: Quaternion,
    /// Angular velocity about the device's axes, rad/s.
    pub angular_velocity: [f32; 3],
    /// Specific force along the device's axes, m/s²: gravity's reaction at rest.
    pub acceleration: [f32; 3],
}

impl Motion {
    /// The body's orientation and its angular velocity in the body frame at `t` seconds.
    fn body(&self, t: f32) -> (Quaternion, [f32; 3]) {
        match *self {
            Motion::Still => (Quaternion::IDENTITY, [0.0; 3]),
            Motion::Tilted { roll, pitch } => (Quaternion::from_euler(roll, pitch, 0.0), [0.0; 3]),
            Motion::Rotating { axis, rate } => {
                let (s, c) = (0.5 * rate * t).sin_cos();
                let q = Quaternion::new(axis[0] * s, axis[1] * s, axis[2] * s, c);
                // About a fixed axis from level, the axis is the same in the body frame.
                (q, axis.map(|a| a * rate))
            }
        }
    }

    /// What a device mounted with `mounting` (its frame in the body's) measures at `t` seconds.
    pub fn measured(&self, t: f32, mounting: Quaternion) -> Measured {
        let (body, body_rate) = self.body(t);
        let device = body * mounting;
        let to_device = mounting.conjugate();
        let up_in_device = device.conjugate().rotate([0.0, 0.0, STANDARD_GRAVITY]);
        Measured {
            orientation: device,
            angular_velocity: to_device.rotate(body_rate),
            acceleration: up_in_device,
        }
    }
}
