//! The check on whole definitions: the folded arm of the MuJoCo backend's test (its forearm
//! 4 mm into its base) found at 4.0 mm, and the pairs MuJoCo's filter leaves out left out here:
//! a link and its parent, links fixed together, a contact the definition allows; a fixed base's
//! root, welded to the world, collides with its first moving link as in MuJoCo. Meshes are
//! named, and the home pose is the joints' initial positions.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use robot_collision::{Overlap, SelfCollision, Unchecked, Unsupported, home_pose};
use robot_macros::robot;

#[macro_use]
#[path = "support/folded_arm.rs"]
mod folded_arm;

folded!(Folded, false);
folded!(FoldedAllowed, false allow_contact base_fore { links: [fore, base] });

fn check(robot: &robot_core::Robot) -> SelfCollision {
    home_pose(robot).unwrap()
}

fn pairs(found: &SelfCollision) -> Vec<[&str; 2]> {
    fn names(o: &Overlap) -> [&str; 2] {
        [o.links[0].as_str(), o.links[1].as_str()]
    }
    found.overlaps.iter().map(names).collect()
}

#[test]
fn the_folded_forearm_overlaps_its_base_by_4_mm() {
    let found = check(Folded::DESCRIPTION);
    assert_eq!(pairs(&found), [["base", "fore"]]);
    let depth = found.overlaps[0].depth;
    assert!((depth - 0.004).abs() < 1e-9, "{depth} m");
    assert_eq!(
        found.warnings(),
        [
            "at the home pose `base` and `fore` overlap by 4.0 mm: their collision shapes \
          interpenetrate, and a simulation pushes them apart as it starts; if the contact is \
          meant, allow it in the definition: `allow_contact base_fore { links: [base, fore] }`"
        ]
    );
}

#[test]
fn a_contact_the_definition_allows_is_not_reported() {
    assert_eq!(check(FoldedAllowed::DESCRIPTION), SelfCollision::default());
}

// The forearm hinged on the base itself: its parent. On a floating base MuJoCo leaves the pair
// out; on a fixed one the base is welded to the world, against which MuJoCo filters no parent.
folded!(FoldedOnFloatingBase, true);

robot! {
    robot Hinged { update_rate: 200 Hz, floating_base: true }
    bus b {}
    link base { collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } } }
    link fore { collision box { size: [0.2, 0.04, 0.04], origin { xyz: [0.1, 0, 0.016] } } }
    joint elbow: revolute {
        parent: base, child: fore, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
}

robot! {
    robot HingedOnFixedBase { update_rate: 200 Hz }
    bus b {}
    link base { collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } } }
    link fore { collision box { size: [0.2, 0.04, 0.04], origin { xyz: [0.1, 0, 0.016] } } }
    joint elbow: revolute {
        parent: base, child: fore, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
}

#[test]
fn a_link_and_its_parent_are_left_out_unless_the_parent_is_welded_to_the_world() {
    assert_eq!(check(Hinged::DESCRIPTION), SelfCollision::default());
    let found = check(HingedOnFixedBase::DESCRIPTION);
    assert_eq!(pairs(&found), [["base", "fore"]]);
    // A grandparent collides on a floating base too.
    assert_eq!(
        pairs(&check(FoldedOnFloatingBase::DESCRIPTION)),
        [["base", "fore"]]
    );
}

// Links fixed to others: `shell` and `cover` to the upper arm, into each other and into the
// forearm (the upper arm's child); `plate` to the base, inside it; `tool` to the forearm, 10 mm
// into the base and into `cover`. Only `tool` and the base are reported: each other pair is one
// body, or a body and its parent.
folded!(
    Welded,
    true
    link shell { collision sphere { radius: 0.03, origin { xyz: [0, 0, 0.06] } } }
    joint shell_mount: fixed { parent: upper, child: shell }
    link cover { collision sphere { radius: 0.03, origin { xyz: [0.05, 0, 0.04] } } }
    joint cover_mount: fixed { parent: upper, child: cover }
    link plate { collision box { size: [0.1, 0.1, 0.1], origin { xyz: [0, 0, -0.06] } } }
    joint plate_mount: fixed { parent: base, child: plate }
    link tool { collision sphere { radius: 0.02, origin { xyz: [-0.12, 0, 0.01] } } }
    joint tool_mount: fixed { parent: fore, child: tool, origin { xyz: [0.2, 0, 0] } }
);

#[test]
fn links_fixed_together_are_one_body() {
    let found = check(Welded::DESCRIPTION);
    assert_eq!(pairs(&found), [["base", "tool"], ["base", "fore"]]);
    // The sphere's centre 10 mm above the top face, its radius 20 mm.
    assert!((found.overlaps[0].depth - 0.01).abs() < 1e-9, "{found:?}");
}

folded!(
    WithMeshes,
    true
    link shell {
        collision mesh { filename: "package://arm/meshes/shell.stl" }
        collision sphere { radius: 0.01, origin { xyz: [0, 0, 0.3] } }
    }
    joint shell_mount: fixed { parent: upper, child: shell }
);

#[test]
fn meshes_are_named_as_left_out() {
    let found = check(WithMeshes::DESCRIPTION);
    assert_eq!(pairs(&found), [["base", "fore"]]);
    assert_eq!(
        found.unchecked,
        [Unchecked {
            link: "shell".to_string(),
            collision: 0,
            why: Unsupported::Mesh {
                filename: "package://arm/meshes/shell.stl".to_string()
            },
        }]
    );
    assert_eq!(
        found.warnings()[1],
        "the self-collision check at the home pose leaves out collision 0 of `shell`, a mesh \
         (package://arm/meshes/shell.stl) (a mesh has no size in the definition)"
    );
}

// The elbow 30 mm above the base's top face, the forearm a 0.1 m bar from it, 10 mm clear of
// the base at 0; the elbow starts at 0.5 rad, which tips the bar's far end down into the base.
robot! {
    robot Tipped { update_rate: 200 Hz }
    bus b {}
    link base { collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } } }
    link upper {}
    link fore { collision box { size: [0.1, 0.04, 0.04], origin { xyz: [0.05, 0, 0] } } }
    joint shoulder: revolute {
        parent: base, child: upper, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    joint elbow: revolute {
        parent: upper, child: fore, origin { xyz: [0, 0, 0.03] }, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 2, model: RS02 },
        command: [position], state: [position = 0.5],
    }
}

#[test]
fn the_home_pose_is_the_joints_initial_positions() {
    assert_eq!(pairs(&check(Tipped::DESCRIPTION)), [["base", "fore"]]);
    let mut at_zero = Tipped::DESCRIPTION.clone();
    at_zero.joints.to_mut()[1].state_interfaces.to_mut()[0].initial_value = None;
    assert_eq!(check(&at_zero), SelfCollision::default());
}
