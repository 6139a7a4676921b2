//! Which pairs of links collide: the body-pair filter of MuJoCo's broad phase, applied to the
//! body tree the MJCF emitter writes (`robot_core::emit::mjcf`), so that this check and MuJoCo's
//! contact list leave out the same pairs.
//!
//! That MJCF makes every link a body of the same name, nested as the link tree; a movable joint
//! becomes a `<joint>` of the child body, a fixed joint none (the child is only nested, and
//! MuJoCo's compiler fuses nothing: `fusestatic` is off for MJCF), and a floating base's root
//! gets a free joint. MuJoCo then gives each body a *weld body*: itself if it has a joint, else
//! its parent's weld body, the world's (0) for bodies fixed to the world (a fixed base's root
//! and everything fixed to it). Two bodies are left out when
//!
//! * they have the same weld body: links fixed together are one rigid body;
//! * neither weld body is the world's and one weld body is the parent weld body of the other
//!   (the weld body of the parent of its weld body): a link and its parent, through fixed
//!   joints on either side. Not against the world: a fixed base's root and its first moving
//!   links do collide, as every body collides with the world's geometry (the floor);
//! * an `<exclude>` names the two bodies: the definition's `allow_contact`, by link, not by
//!   rigid body (the exclude names bodies, and the other bodies fixed to them still collide).

use robot_model::Robot;
use robot_model::kinematics::{self, KinematicsError};

/// A weld body: a link index, or `None` for the world.
type Weld = Option<usize>;

/// The links' weld bodies and the pairs the definition allows.
#[derive(Debug)]
pub(crate) struct Filter<'a> {
    weld: Vec<Weld>,
    parent_weld: Vec<Weld>,
    allowed: Vec<[&'a str; 2]>,
    names: Vec<&'a str>,
}

impl<'a> Filter<'a> {
    /// The filter of `robot`'s tree, which must be one (as [`kinematics::tree_order`] checks).
    pub(crate) fn new(robot: &'a Robot) -> Result<Filter<'a>, KinematicsError> {
        let names: Vec<&str> = robot.links.iter().map(|l| l.name.as_ref()).collect();
        let index = |name: &str| names.iter().position(|n| *n == name);
        let root = (robot.root_link())
            .and_then(|l| index(&l.name))
            .ok_or(KinematicsError::NoRootLink)?;
        let mut weld: Vec<Weld> = vec![None; names.len()];
        // The parent of each link's body, `None` for the root's (the world).
        let mut parent: Vec<Option<usize>> = vec![None; names.len()];
        weld[root] = robot.floating_base.then_some(root);
        // Parents come before their children, so a parent's weld body is known when read.
        for i in kinematics::tree_order(robot)? {
            let joint = &robot.joints[i];
            let (Some(p), Some(c)) = (index(&joint.parent), index(&joint.child)) else {
                continue; // tree_order has checked both exist
            };
            parent[c] = Some(p);
            weld[c] = if joint.kind.is_movable() {
                Some(c)
            } else {
                weld[p]
            };
        }
        let parent_weld = (weld.iter())
            .map(|w| w.and_then(|body| parent[body]).and_then(|p| weld[p]))
            .collect();
        let allowed = (robot.allowed_contacts.iter())
            .map(|c| [c.links[0].as_ref(), c.links[1].as_ref()])
            .collect();
        Ok(Filter {
            weld,
            parent_weld,
            allowed,
            names,
        })
    }

    /// Whether MuJoCo collides links `a` and `b` (indices into `robot.links`).
    pub(crate) fn collides(&self, a: usize, b: usize) -> bool {
        let (Some(&weld_a), Some(&weld_b)) = (self.weld.get(a), self.weld.get(b)) else {
            return false;
        };
        if weld_a == weld_b {
            return false;
        }
        let parent_or_child = weld_a.is_some()
            && weld_b.is_some()
            && (weld_a == self.parent_weld[b] || weld_b == self.parent_weld[a]);
        if parent_or_child {
            return false;
        }
        let (name_a, name_b) = (self.names[a], self.names[b]);
        !(self.allowed.iter())
            .any(|&[x, y]| (x, y) == (name_a, name_b) || (y, x) == (name_a, name_b))
    }
}
