//! Whether the robot fell: a floating base lower than half its home height, or tilted more than
//! 45° from its home attitude, on the floor scene (a robot on the test stand cannot fall: the
//! weld holds it). The thresholds come from the pose the run started in, never typed in per
//! robot: a biped's pelvis at 0.775 m falls below 0.39 m, a hexapod's body at 0.12 m below
//! 0.06 m.
//!
//! Checked after the physics steps of every `read`, allocation-free; the first fall is kept,
//! with its time, and reported at the end of the run (and ends it with `stop_on_fall`).

use std::time::Duration;

use mujoco_rs::prelude::{MjData, MjModel, MjtJoint};

/// The simulation's data, as the component holds it.
type Data = MjData<Box<MjModel>>;

/// Below this share of its home height, the floating base has fallen.
pub const HEIGHT_SHARE: f64 = 0.5;
/// Tilted further than this from its home attitude, rad, the floating base has fallen.
pub const MAX_TILT: f64 = std::f64::consts::FRAC_PI_4;

/// The floating base's home pose, and the first fall seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FallWatch {
    /// Where the free joint's position and quaternion start in `qpos`.
    qpos: usize,
    home_height: f64,
    /// The home attitude's z axis in the world frame: tilt is measured from it.
    home_up: [f64; 3],
    fell: Option<Fall>,
}

/// A fall: when, and what gave it away.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fall {
    /// Simulated time since the run started.
    pub at: Duration,
    /// The floating base's height then, m.
    pub height: f64,
    /// Its tilt from home then, rad.
    pub tilt: f64,
    /// Its home height, m.
    pub home_height: f64,
}

impl Fall {
    /// What happened, for people.
    pub fn describe(&self) -> String {
        format!(
            "the robot fell at {:.3} s of simulated time: its floating base at {:.3} m (home \
             {:.3} m; a fall is below {:.0} % of it) and tilted {:.1}° (a fall is over {:.0}°)",
            self.at.as_secs_f64(),
            self.height,
            self.home_height,
            HEIGHT_SHARE * 100.0,
            self.tilt.to_degrees(),
            MAX_TILT.to_degrees()
        )
    }
}

/// Where the floating base's free joint starts in `qpos` (position, then quaternion `w x y z`);
/// `None` for a fixed base.
pub fn free_joint_qpos(data: &Data) -> Option<usize> {
    let model = data.model();
    let free = model
        .jnt_type()
        .iter()
        .position(|kind| *kind == MjtJoint::mjJNT_FREE)?;
    let qpos = usize::try_from(*model.jnt_qposadr().get(free)?).ok()?;
    data.qpos().get(qpos..qpos + 7).map(|_| qpos)
}

impl FallWatch {
    /// The watch over `data`'s floating base, as it stands now (the run's initial state); `None`
    /// without one (a fixed base cannot fall) or when it starts on or below the floor.
    pub fn new(data: &Data) -> Option<FallWatch> {
        let qpos = free_joint_qpos(data)?;
        let pose = data.qpos().get(qpos..qpos + 7)?;
        let home_height = pose[2];
        (home_height > 0.0).then_some(FallWatch {
            qpos,
            home_height,
            home_up: up(&pose[3..7]),
            fell: None,
        })
    }

    /// Looks at the floating base now, at simulated time `at`; returns the fall when this is the
    /// first time it is seen fallen.
    pub fn check(&mut self, data: &Data, at: Duration) -> Option<Fall> {
        if self.fell.is_some() {
            return None;
        }
        let pose = data.qpos().get(self.qpos..self.qpos + 7)?;
        let now_up = up(&pose[3..7]);
        let cos = now_up
            .iter()
            .zip(self.home_up)
            .map(|(a, b)| a * b)
            .sum::<f64>()
            .clamp(-1.0, 1.0);
        let tilt = cos.acos();
        let height = pose[2];
        if height < HEIGHT_SHARE * self.home_height || tilt > MAX_TILT {
            let fall = Fall {
                at,
                height,
                tilt,
                home_height: self.home_height,
            };
            self.fell = Some(fall);
            return Some(fall);
        }
        None
    }

    /// The first fall seen, if any.
    pub fn fell(&self) -> Option<Fall> {
        self.fell
    }
}

/// The body's z axis in the world frame, for MuJoCo's quaternion `w, x, y, z`.
fn up(q: &[f64]) -> [f64; 3] {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    [
        2.0 * (x * z + w * y),
        2.0 * (y * z - w * x),
        1.0 - 2.0 * (x * x + y * y),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_is_the_body_z_axis() {
        let half = std::f64::consts::FRAC_PI_4; // a quarter turn about x: z goes to -y
        let about_x = [half.cos(), half.sin(), 0.0, 0.0];
        let u = up(&about_x);
        assert!((u[0]).abs() < 1e-12 && (u[1] + 1.0).abs() < 1e-12 && u[2].abs() < 1e-12);
        assert_eq!(up(&[1.0, 0.0, 0.0, 0.0]), [0.0, 0.0, 1.0]);
    }
}
