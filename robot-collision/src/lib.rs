//! Self-collision at the home pose, from the definition alone: the pairs of the robot's links
//! whose collision primitives interpenetrate with every joint at its initial position
//! ([`kinematics::initial_positions`]). A simulation pushes such links apart in its first steps
//! (a hexapod's femurs 4 mm into its body moved two legs 0.09 rad), so a run and `emit` warn.
//!
//! ```
//! # fn report(robot: &robot_model::Robot) -> Result<(), robot_model::kinematics::KinematicsError> {
//! let found = robot_collision::home_pose(robot)?;
//! for warning in found.warnings() {
//!     eprintln!("warning: {warning}");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The same pairs as MuJoCo's contact list (`backend_mujoco::overlap`), so that the two agree:
//! MuJoCo's collision filter applied to the body tree of the emitted MJCF. Links fixed together
//! are one body; a link and its parent are left out, except against a fixed base's root, which
//! MuJoCo welds to the world and so collides with its first moving links; a pair the definition
//! allows (`allow_contact`) is left out. Per pair the deepest penetration of any two of their
//! shapes counts, and only past [`TOLERANCE`], as there.
//!
//! Boxes, spheres, capsules (`length` the cylindrical part, caps beyond, as MJCF keeps them) and
//! cylinders, both along their local z, are checked ([`penetration`]); a mesh has no size in the
//! definition, so each one is named in [`SelfCollision::unchecked`] rather than left out in
//! silence. The depths come from parry (`parry3d-f64`): exact against a sphere, to its GJK/EPA
//! tolerance otherwise.

use std::collections::BTreeMap;

use robot_model::Robot;
use robot_model::kinematics::{self, KinematicsError, Transform};

mod filter;
mod shape;

pub use shape::{REACH, SIZES, Unsupported, penetration};

/// Penetrations shallower than this are contact, not overlap: the same 0.5 mm as the MuJoCo
/// backend's check, where MuJoCo's margins and the rounding of a pose put touching shapes a
/// fraction of a millimetre into each other.
pub const TOLERANCE: f64 = 0.5e-3;

/// Two links whose collision shapes interpenetrate at the home pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlap {
    /// The links, in name order.
    pub links: [String; 2],
    /// How deep, m: the deepest of any two of their shapes.
    pub depth: f64,
}

impl Overlap {
    /// The warning: both links, the depth in mm, and the line that allows the contact; worded as
    /// the MuJoCo backend's (`backend_mujoco::overlap::Overlap::describe`).
    pub fn describe(&self) -> String {
        let [a, b] = &self.links;
        format!(
            "at the home pose `{a}` and `{b}` overlap by {:.1} mm: their collision shapes \
             interpenetrate, and a simulation pushes them apart as it starts; if the contact is \
             meant, allow it in the definition: `allow_contact {a}_{b} {{ links: [{a}, {b}] }}`",
            self.depth * 1e3
        )
    }
}

/// A collision shape the check leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct Unchecked {
    /// Its link.
    pub link: String,
    /// Its index in the link's collisions.
    pub collision: usize,
    /// Why.
    pub why: Unsupported,
}

impl Unchecked {
    /// The shape and why, in a few words: ``collision 1 of `foot`, a mesh (foot.stl)``.
    pub fn describe(&self) -> String {
        let why = match &self.why {
            Unsupported::Mesh { filename } => format!("a mesh ({filename})"),
            Unsupported::BadNumbers => format!(
                "sized or placed out of the range checked (sizes {:e} to {:e} m, within {:e} m of \
                 the root)",
                SIZES.start(),
                SIZES.end(),
                REACH
            ),
        };
        format!("collision {} of `{}`, {why}", self.collision, self.link)
    }
}

/// What the check found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfCollision {
    /// The pairs that overlap by more than [`TOLERANCE`], deepest first.
    pub overlaps: Vec<Overlap>,
    /// The collision shapes left out (meshes), in link and collision order.
    pub unchecked: Vec<Unchecked>,
}

impl SelfCollision {
    /// One line per overlap, then one naming the shapes left out, if any.
    pub fn warnings(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.overlaps.iter().map(Overlap::describe).collect();
        if !self.unchecked.is_empty() {
            let shapes: Vec<String> = self.unchecked.iter().map(Unchecked::describe).collect();
            lines.push(format!(
                "the self-collision check at the home pose leaves out {} (a mesh has no size in \
                 the definition)",
                shapes.join("; ")
            ));
        }
        lines
    }
}

/// The overlaps of `robot`'s links with every joint at its initial position, and the shapes
/// that cannot be checked. An error when the links are not one tree (validation says why).
pub fn home_pose(robot: &Robot) -> Result<SelfCollision, KinematicsError> {
    let poses = kinematics::link_poses(robot, &kinematics::initial_positions(robot))?;
    let filter = filter::Filter::new(robot)?;
    let mut found = SelfCollision::default();
    // Every checkable shape, with its link's index.
    let mut placed = Vec::new();
    for (index, link) in robot.links.iter().enumerate() {
        let pose = poses
            .get(&link.name)
            .copied()
            .unwrap_or(Transform::IDENTITY);
        for (collision, shape) in link.collisions.iter().enumerate() {
            let at = pose.then(&Transform::from_pose(&shape.origin));
            match shape::Placed::new(&shape.geometry, &at) {
                Ok(shape) => placed.push((index, shape)),
                Err(why) => found.unchecked.push(Unchecked {
                    link: link.name.to_string(),
                    collision,
                    why,
                }),
            }
        }
    }
    let mut deepest: BTreeMap<[String; 2], f64> = BTreeMap::new();
    for (i, (link_a, a)) in placed.iter().enumerate() {
        for (link_b, b) in &placed[i + 1..] {
            if !filter.collides(*link_a, *link_b) {
                continue;
            }
            let depth = a.depth(b).unwrap_or(0.0);
            if depth <= TOLERANCE {
                continue;
            }
            let mut links = [link_a, link_b].map(|&l| robot.links[l].name.to_string());
            links.sort();
            let entry = deepest.entry(links).or_insert(0.0);
            *entry = entry.max(depth);
        }
    }
    found.overlaps = (deepest.into_iter())
        .map(|(links, depth)| Overlap { links, depth })
        .collect();
    found.overlaps.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    Ok(found)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
