//! Self-collision at the home pose: the robot's own bodies that MuJoCo finds interpenetrating
//! when the run starts, which it will push apart with the first steps (a hexapod's femurs 4 mm
//! into its body moved two legs 0.09 rad with no word). Read from MuJoCo's contact list after
//! the initial state is set; the world (floor, stand) and a body's parent, which MuJoCo filters,
//! are not in it, nor the contacts the definition allows (`allow_contact`, emitted as
//! `<exclude>`).

use std::collections::BTreeMap;

use mujoco_rs::prelude::{MjData, MjModel, MjtObjBase};

type Data = MjData<Box<MjModel>>;

/// Penetrations shallower than this are contact, not overlap: MuJoCo's own margins and the
/// rounding of a pose put touching shapes a fraction of a millimetre into each other.
pub const TOLERANCE: f64 = 0.5e-3;

/// Two bodies of the robot that interpenetrate at the home pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlap {
    /// The bodies (links), in name order.
    pub bodies: [String; 2],
    /// How deep, m: the deepest contact between them.
    pub depth: f64,
}

impl Overlap {
    /// The warning the run reports.
    pub fn describe(&self) -> String {
        let [a, b] = &self.bodies;
        format!(
            "at the home pose `{a}` and `{b}` overlap by {:.1} mm: MuJoCo pushes them apart as the \
             run starts; if the contact is meant, allow it in the definition: \
             `allow_contact {a}_{b} {{ links: [{a}, {b}] }}`",
            self.depth * 1e3
        )
    }
}

/// The robot's bodies interpenetrating by more than [`TOLERANCE`] in `data` as it stands (the
/// contacts of its last `mj_forward`), deepest first.
pub fn overlaps(data: &Data) -> Vec<Overlap> {
    let model = data.model();
    let geom_body = model.geom_bodyid();
    let body_of = |geom: i32| {
        usize::try_from(geom)
            .ok()
            .and_then(|g| geom_body.get(g))
            .and_then(|&b| usize::try_from(b).ok())
    };
    let mut deepest: BTreeMap<[String; 2], f64> = BTreeMap::new();
    for contact in data.contact() {
        let (Some(b1), Some(b2)) = (body_of(contact.geom[0]), body_of(contact.geom[1])) else {
            continue;
        };
        // Body 0 is the world: the floor and the stand are not the robot.
        if b1 == 0 || b2 == 0 || b1 == b2 || contact.dist > -TOLERANCE {
            continue;
        }
        let name = |b| {
            model
                .id_to_name(MjtObjBase::mjOBJ_BODY, b)
                .unwrap_or("?")
                .to_string()
        };
        let mut bodies = [name(b1), name(b2)];
        bodies.sort();
        let depth = deepest.entry(bodies).or_insert(0.0);
        *depth = depth.max(-contact.dist);
    }
    let mut found: Vec<Overlap> = deepest
        .into_iter()
        .map(|(bodies, depth)| Overlap { bodies, depth })
        .collect();
    found.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    found
}
