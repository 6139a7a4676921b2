//! Inverse dynamics of a definition by recursive Newton–Euler: the generalised force each joint
//! must apply for given positions, velocities and accelerations, from the definition's
//! kinematics, masses and inertias; and its most used case, the gravity torque, to feed forward.
//!
//! ```
//! use robot_model::{Robot, dynamics::Dynamics, kinematics};
//!
//! fn hold(robot: &Robot) -> Result<(), Box<dyn std::error::Error>> {
//!     // Built once (it allocates); every call after allocates nothing.
//!     let mut dynamics = Dynamics::new(robot)?;
//!     let positions = kinematics::initial_positions(robot);
//!     let mut torque = vec![0.0; robot.joints.len()];
//!     dynamics.gravity(&positions, &mut torque)?;
//!     for (joint, tau) in robot.joints.iter().zip(&torque) {
//!         println!("{}: {tau:.3}", joint.name);
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # The model
//! * Frames are [`kinematics`]'s (URDF's). The root link is held still, unrotated, in a gravity
//!   field of −9.81 m/s² along its z ([`Dynamics::set_gravity`] changes it: a floating base's
//!   gravity in its own axes, from its IMU, for a limb held off the ground). A floating base's
//!   own motion is not modelled: for a leg in stance, the torques here are not what it needs.
//! * Each link is a rigid body: its `inertial` (mass, centre of mass, inertia about it in the
//!   inertial frame's axes); a link without one is massless. A joint's `armature` (the rotor's
//!   reflected inertia, as MuJoCo's) adds `armature · q̈` to its own force. Damping and friction
//!   are not rigid-body dynamics and are left out.
//! * A mimic joint moves with the joint it follows (`q = multiplier · q_followed + offset`,
//!   whatever was given for it); its force is carried by the joint it follows, through the
//!   coupling: [`Dynamics::actuator_forces`] and [`Dynamics::gravity`] add `multiplier · τ` of
//!   each mimic joint to the joint it follows and give the mimic joint 0.
//!
//! # The algorithm
//! Outward, in tree order, each link's angular velocity ω, angular acceleration α and its
//! origin's linear acceleration a, starting from a = −g at the root (gravity as an upward
//! acceleration of the base, which adds every link's weight at once); per link, the force
//! `F = m·a_c` and moment `N = I·α + ω × I·ω` its motion needs at its centre of mass. Inward, in
//! reverse tree order, each link's force and moment about its origin are added to its parent's;
//! a revolute joint's torque is its axis · the moment, a prismatic joint's force its axis · the
//! force. All in the root's axes, O(links) per call. Checked against MuJoCo's own `mj_rne` on
//! the emitted models (`backends/mujoco/tests/dynamics.rs`).

use crate::kinematics::{self, KinematicsError, Matrix, Transform};
use crate::model::{JointKind, Robot};

/// Standard gravity along the root's −z, m/s².
pub const GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];

/// Inputs that do not fit the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DynamicsError {
    /// A slice is not one entry per joint.
    #[error("{found} {what} for {expected} joints")]
    Count {
        /// What the slice holds (`positions`).
        what: &'static str,
        /// The number of joints.
        expected: usize,
        /// Its length.
        found: usize,
    },
}

/// One joint of the tree, as the recursion steps over it.
#[derive(Debug, Clone)]
struct Step {
    /// Its index in `robot.joints`.
    joint: usize,
    kind: JointKind,
    /// Its parent and child links, indices in `robot.links`.
    parent: usize,
    child: usize,
    /// Its origin in the parent link's frame.
    origin: Transform,
    /// Its axis in its own frame (as written; `joint_motion` normalises it).
    axis: [f64; 3],
    /// Its axis, unit length, in its own frame.
    unit_axis: [f64; 3],
}

/// A link's mass properties, in its own frame.
#[derive(Debug, Clone, Copy, Default)]
struct Body {
    mass: f64,
    /// Its centre of mass.
    com: [f64; 3],
    /// Its inertia about the centre of mass, in the link's axes.
    inertia: Matrix,
}

/// Where each link is and how it moves, for one call.
#[derive(Debug, Clone, Copy, Default)]
struct Motion {
    pose: Transform,
    omega: [f64; 3],
    alpha: [f64; 3],
    /// The link origin's linear acceleration (gravity's upward acceleration included).
    accel: [f64; 3],
    /// The axis of the joint it hangs from, unit length (0 for the root).
    axis: [f64; 3],
    /// The force and the moment (about the link's origin) the link and everything beyond it
    /// need.
    force: [f64; 3],
    moment: [f64; 3],
}

/// The inverse dynamics of one robot; see the [module](self).
#[derive(Debug, Clone)]
pub struct Dynamics {
    steps: Vec<Step>,
    bodies: Vec<Body>,
    /// Per joint: the joint it follows, its multiplier and offset.
    mimics: Vec<Option<(usize, f64, f64)>>,
    armature: Vec<f64>,
    gravity: [f64; 3],
    root: usize,
    /// Scratch: per link, per joint (positions, velocities, accelerations with mimics resolved).
    motion: Vec<Motion>,
    q: Vec<f64>,
    qd: Vec<f64>,
    qdd: Vec<f64>,
    /// One zero per joint: the velocities and accelerations at rest.
    zeros: Vec<f64>,
}

impl Dynamics {
    /// The dynamics of `robot`; fails where its joints do not make one tree.
    pub fn new(robot: &Robot) -> Result<Dynamics, KinematicsError> {
        let root = robot.root_link().ok_or(KinematicsError::NoRootLink)?;
        let link_index = |name: &str| robot.links.iter().position(|l| l.name == name);
        let root = link_index(&root.name).ok_or(KinematicsError::NoRootLink)?;
        let mut steps = Vec::with_capacity(robot.joints.len());
        for index in kinematics::tree_order(robot)? {
            let joint = &robot.joints[index];
            let (Some(parent), Some(child)) = (link_index(&joint.parent), link_index(&joint.child))
            else {
                // tree_order has checked both exist.
                return Err(KinematicsError::UnknownChild {
                    joint: joint.name.to_string(),
                    link: joint.child.to_string(),
                });
            };
            steps.push(Step {
                joint: index,
                kind: joint.kind,
                parent,
                child,
                origin: Transform::from_pose(&joint.origin),
                axis: joint.axis,
                unit_axis: unit(joint.axis),
            });
        }
        let bodies = (robot.links.iter())
            .map(|link| match &link.inertial {
                Some(inertial) => {
                    let axes = Transform::from_pose(&inertial.origin);
                    let i = &inertial.inertia;
                    let local = [
                        [i.ixx, i.ixy, i.ixz],
                        [i.ixy, i.iyy, i.iyz],
                        [i.ixz, i.iyz, i.izz],
                    ];
                    Body {
                        mass: inertial.mass,
                        com: inertial.origin.xyz,
                        inertia: similar(&axes.rotation, &local),
                    }
                }
                None => Body::default(),
            })
            .collect();
        let mimics = (robot.joints.iter())
            .map(|joint| {
                let mimic = joint.mimic.as_ref()?;
                let followed = robot.joints.iter().position(|j| j.name == mimic.joint)?;
                Some((followed, mimic.multiplier, mimic.offset))
            })
            .collect();
        let joints = robot.joints.len();
        Ok(Dynamics {
            steps,
            bodies,
            mimics,
            armature: (robot.joints.iter())
                .map(|j| j.dynamics.map_or(0.0, |d| d.armature))
                .collect(),
            gravity: GRAVITY,
            root,
            motion: vec![Motion::default(); robot.links.len()],
            q: vec![0.0; joints],
            qd: vec![0.0; joints],
            qdd: vec![0.0; joints],
            zeros: vec![0.0; joints],
        })
    }

    /// Gravity in the root link's axes, m/s² ([`GRAVITY`] unless set).
    pub fn set_gravity(&mut self, gravity: [f64; 3]) {
        self.gravity = gravity;
    }

    /// Gravity in the root link's axes, m/s².
    pub fn gravity_vector(&self) -> [f64; 3] {
        self.gravity
    }

    /// The force each joint applies itself for `positions`, `velocities` and `accelerations`
    /// (one per joint of `robot.joints`, in declaration order; fixed joints' entries are ignored
    /// and a mimic joint's are its followed joint's, through the coupling), into `out` (N·m for
    /// a revolute joint, N for a prismatic one; 0 for a fixed one). Each joint's own force: a
    /// mimic joint's is not moved to the joint it follows (see [`Dynamics::actuator_forces`]).
    /// Allocates nothing.
    pub fn joint_forces(
        &mut self,
        positions: &[f64],
        velocities: &[f64],
        accelerations: &[f64],
        out: &mut [f64],
    ) -> Result<(), DynamicsError> {
        let joints = self.q.len();
        for (what, found) in [
            ("positions", positions.len()),
            ("velocities", velocities.len()),
            ("accelerations", accelerations.len()),
            ("outputs", out.len()),
        ] {
            if found != joints {
                return Err(DynamicsError::Count {
                    what,
                    expected: joints,
                    found,
                });
            }
        }
        self.resolve_mimics(positions, velocities, accelerations);
        self.outward();
        self.inward(out);
        Ok(())
    }

    /// [`Dynamics::joint_forces`], with each mimic joint's force carried by the joint it follows
    /// (`multiplier · τ` added there, the mimic joint's own entry 0): what the actuators apply.
    /// Allocates nothing.
    pub fn actuator_forces(
        &mut self,
        positions: &[f64],
        velocities: &[f64],
        accelerations: &[f64],
        out: &mut [f64],
    ) -> Result<(), DynamicsError> {
        self.joint_forces(positions, velocities, accelerations, out)?;
        for (index, mimic) in self.mimics.iter().enumerate() {
            if let Some((followed, multiplier, _)) = *mimic {
                let carried = std::mem::take(&mut out[index]);
                out[followed] += multiplier * carried;
            }
        }
        Ok(())
    }

    /// The force each actuated joint applies to hold the robot still at `positions` against
    /// gravity ([`Dynamics::actuator_forces`] at rest): the feed-forward of a position servo.
    /// Allocates nothing.
    pub fn gravity(&mut self, positions: &[f64], out: &mut [f64]) -> Result<(), DynamicsError> {
        let zeros = std::mem::take(&mut self.zeros);
        let result = self.actuator_forces(positions, &zeros, &zeros, out);
        self.zeros = zeros;
        result
    }

    /// The joint values the recursion uses: as given, or a mimic joint's from its followed
    /// joint's (one level: a mimic of a mimic is refused by validation).
    fn resolve_mimics(&mut self, positions: &[f64], velocities: &[f64], accelerations: &[f64]) {
        for (index, mimic) in self.mimics.iter().enumerate() {
            (self.q[index], self.qd[index], self.qdd[index]) = match *mimic {
                Some((followed, multiplier, offset)) => (
                    multiplier * positions[followed] + offset,
                    multiplier * velocities[followed],
                    multiplier * accelerations[followed],
                ),
                None => (positions[index], velocities[index], accelerations[index]),
            };
        }
    }

    /// Every link's pose and motion, root first; each link's own force and moment.
    fn outward(&mut self) {
        self.motion[self.root] = Motion {
            accel: self.gravity.map(|g| -g),
            ..Motion::default()
        };
        for step in &self.steps {
            let parent = self.motion[step.parent];
            let frame = parent.pose.then(&step.origin);
            let q = self.q[step.joint];
            let pose = frame.then(&kinematics::joint_motion_about(step.kind, step.axis, q));
            let r = sub(pose.translation, parent.pose.translation);
            let carried = add(
                parent.accel,
                add(
                    cross(parent.alpha, r),
                    cross(parent.omega, cross(parent.omega, r)),
                ),
            );
            let z = frame.rotate(step.unit_axis);
            let (qd, qdd) = (self.qd[step.joint], self.qdd[step.joint]);
            let (omega, alpha, accel) = match step.kind {
                JointKind::Revolute | JointKind::Continuous => (
                    add(parent.omega, scale(z, qd)),
                    add(
                        parent.alpha,
                        add(scale(z, qdd), cross(parent.omega, scale(z, qd))),
                    ),
                    carried,
                ),
                JointKind::Prismatic => (
                    parent.omega,
                    parent.alpha,
                    add(
                        carried,
                        add(scale(z, qdd), scale(cross(parent.omega, z), 2.0 * qd)),
                    ),
                ),
                JointKind::Fixed => (parent.omega, parent.alpha, carried),
            };
            self.motion[step.child] = Motion {
                pose,
                omega,
                alpha,
                accel,
                axis: z,
                ..Motion::default()
            };
        }
        for (motion, body) in self.motion.iter_mut().zip(&self.bodies) {
            let lever = motion.pose.rotate(body.com);
            let accel_com = add(
                motion.accel,
                add(
                    cross(motion.alpha, lever),
                    cross(motion.omega, cross(motion.omega, lever)),
                ),
            );
            let inertia = similar(&motion.pose.rotation, &body.inertia);
            let spin = mul(&inertia, motion.omega);
            let force = scale(accel_com, body.mass);
            let moment = add(
                add(mul(&inertia, motion.alpha), cross(motion.omega, spin)),
                cross(lever, force),
            );
            motion.force = force;
            motion.moment = moment;
        }
    }

    /// Children's forces into their parents, leaves first; each joint's share into `out`.
    fn inward(&mut self, out: &mut [f64]) {
        out.fill(0.0);
        for step in self.steps.iter().rev() {
            let child = self.motion[step.child];
            let z = child.axis;
            let armature = self.armature[step.joint] * self.qdd[step.joint];
            out[step.joint] = match step.kind {
                JointKind::Revolute | JointKind::Continuous => dot(z, child.moment) + armature,
                JointKind::Prismatic => dot(z, child.force) + armature,
                JointKind::Fixed => 0.0,
            };
            let r = sub(
                child.pose.translation,
                self.motion[step.parent].pose.translation,
            );
            let parent = &mut self.motion[step.parent];
            parent.force = add(parent.force, child.force);
            parent.moment = add(parent.moment, add(child.moment, cross(r, child.force)));
        }
    }
}

fn unit(v: [f64; 3]) -> [f64; 3] {
    let norm = dot(v, v).sqrt();
    if norm > 0.0 && norm.is_finite() {
        v.map(|c| c / norm)
    } else {
        [0.0; 3]
    }
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    a.map(|c| c * s)
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn mul(m: &Matrix, v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| dot(m[i], v))
}

/// `r · m · rᵀ`: a tensor given in rotated axes, in the outer ones.
fn similar(r: &Matrix, m: &Matrix) -> Matrix {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            (0..3)
                .map(|k| r[i][k] * (0..3).map(|l| m[k][l] * r[j][l]).sum::<f64>())
                .sum()
        })
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
