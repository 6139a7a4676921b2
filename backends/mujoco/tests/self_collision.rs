//! The two self-collision checks of the home pose agree: MuJoCo's contact list after the
//! initial state (`backend_mujoco::overlap`) and the definition's primitives without MuJoCo
//! (`robot_collision`) find the same pairs, each as deep to 0.1 mm. On robots that put every
//! rule of MuJoCo's filter to the test (a grandparent, a parent on a floating base and on a
//! fixed one, links fixed together, an allowed contact), every pair of primitives, and the
//! shipped robots.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::collections::BTreeMap;

use backend_mujoco::overlap::{TOLERANCE, overlaps};
use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_core::RobotTypes;
use robot_core::hardware::Component;
use robot_macros::robot;
use robots::{LiteBiped, SixAxisArm};

/// What each check finds on `R`, pair by pair: MuJoCo's depth, then the primitives'.
fn both<R: RobotTypes>() -> BTreeMap<[String; 2], (Option<f64>, Option<f64>)> {
    let mut mujoco = MujocoSystem::<R>::new(MujocoOptions {
        model: ModelSource::Scene,
        ..MujocoOptions::default()
    });
    mujoco.on_init().unwrap();
    mujoco.on_configure().unwrap();
    let mut found: BTreeMap<[String; 2], (Option<f64>, Option<f64>)> = BTreeMap::new();
    for o in overlaps(mujoco.data().unwrap()) {
        found.entry(o.bodies).or_default().0 = Some(o.depth);
    }
    for o in robot_collision::home_pose(R::DESCRIPTION).unwrap().overlaps {
        found.entry(o.links).or_default().1 = Some(o.depth);
    }
    found
}

/// Both checks find exactly `expected` (pairs in name order, depths in mm), each to 0.1 mm.
#[track_caller]
fn assert_agree<R: RobotTypes>(expected: &[(&str, &str, f64)]) {
    let found = both::<R>();
    for (pair, (mujoco, primitives)) in &found {
        let (Some(mujoco), Some(primitives)) = (mujoco, primitives) else {
            panic!("{pair:?}: MuJoCo {mujoco:?} m, the primitives {primitives:?} m");
        };
        assert!(
            (mujoco - primitives).abs() < 1e-4,
            "{pair:?}: MuJoCo {mujoco} m, the primitives {primitives} m"
        );
        eprintln!(
            "{pair:?}: MuJoCo {:.4} mm, the primitives {:.4} mm",
            mujoco * 1e3,
            primitives * 1e3
        );
    }
    let pairs: Vec<(&str, &str)> = found
        .keys()
        .map(|[a, b]| (a.as_str(), b.as_str()))
        .collect();
    let wanted: Vec<(&str, &str)> = expected.iter().map(|&(a, b, _)| (a, b)).collect();
    assert_eq!(pairs, wanted);
    for ((_, (_, depth)), (_, _, mm)) in found.iter().zip(expected) {
        let depth = depth.unwrap_or_default();
        assert!((depth * 1e3 - mm).abs() < 0.1, "{depth} m, not {mm} mm");
    }
}

// The two checks draw the line between contact and overlap at the same depth.
const _: () = assert!(TOLERANCE == robot_collision::TOLERANCE);

#[macro_use]
#[path = "../../../robot-collision/tests/support/folded_arm.rs"]
mod folded_arm;

folded!(Folded, false);
folded!(FoldedAllowed, false allow_contact base_fore { links: [base, fore] });

#[test]
fn the_folded_forearm_is_4_mm_into_its_base_in_both() {
    assert_agree::<Folded>(&[("base", "fore", 4.0)]);
    assert_agree::<FoldedAllowed>(&[]);
}

/// Links fixed to the upper arm (into each other and the forearm, its child), to the base
/// (inside it) and to the forearm (10 mm into the base, and into the upper arm's `cover`).
macro_rules! welded {
    ($name:ident, $floating:literal) => {
        folded!(
            $name,
            $floating
            link shell {
                inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision sphere { radius: 0.03, origin { xyz: [0, 0, 0.06] } }
            }
            joint shell_mount: fixed { parent: upper, child: shell }
            link cover {
                inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision sphere { radius: 0.03, origin { xyz: [0.05, 0, 0.04] } }
            }
            joint cover_mount: fixed { parent: upper, child: cover }
            link plate {
                inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision box { size: [0.1, 0.1, 0.1], origin { xyz: [0, 0, -0.06] } }
            }
            joint plate_mount: fixed { parent: base, child: plate }
            link tool {
                inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision sphere { radius: 0.02, origin { xyz: [-0.12, 0, 0.01] } }
            }
            joint tool_mount: fixed { parent: fore, child: tool, origin { xyz: [0.2, 0, 0] } }
        );
    };
}

welded!(Welded, true);
welded!(WeldedToTheWorld, false);

#[test]
fn links_fixed_together_are_one_body_in_both() {
    let expected = [("base", "fore", 4.0), ("base", "tool", 10.0)];
    assert_agree::<Welded>(&expected);
    // The base and the plate are then the world's body: still one body.
    assert_agree::<WeldedToTheWorld>(&expected);
}

/// The forearm hinged on the base, 4 mm into it.
macro_rules! hinged {
    ($name:ident, $floating:literal) => {
        robot! {
            robot $name { update_rate: 200 Hz, floating_base: $floating }
            bus b {}
            link base {
                inertial { mass: 1.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
                collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } }
            }
            link fore {
                inertial { mass: 0.5, com: [0.1, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision box { size: [0.2, 0.04, 0.04], origin { xyz: [0.1, 0, 0.016] } }
            }
            joint elbow: revolute {
                parent: base, child: fore, axis: [0, 1, 0],
                limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
                actuator { bus: b, can_id: 1, model: RS02 },
                command: [position], state: [position],
            }
        }
    };
}

hinged!(Hinged, true);
hinged!(HingedOnFixedBase, false);

#[test]
fn a_parent_is_left_out_in_both_unless_welded_to_the_world() {
    assert_agree::<Hinged>(&[]);
    assert_agree::<HingedOnFixedBase>(&[("base", "fore", 4.0)]);
}

// A cylinder for a base and, on a link between, one link per primitive into it: a capsule
// beside it (5 mm), a box beside it (5 mm), a cylinder across its top disc (10 mm), a sphere
// beside it (10 mm).
robot! {
    robot Primitives { update_rate: 200 Hz, floating_base: true }
    bus b {}
    link base {
        inertial { mass: 1.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
        collision cylinder { radius: 0.05, length: 0.2 }
    }
    link hub {
        inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
    }
    joint turn: revolute {
        parent: base, child: hub, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    link rod {
        inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision capsule { radius: 0.02, length: 0.1, origin { xyz: [0.065, 0, 0] } }
    }
    link block {
        inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision box { size: [0.04, 0.04, 0.04], origin { xyz: [0, -0.065, 0] } }
    }
    link drum {
        inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision cylinder { radius: 0.03, length: 0.1, origin { xyz: [0, 0, 0.12], rpy: [0, 1.5707963267948966, 0] } }
    }
    link ball {
        inertial { mass: 0.1, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision sphere { radius: 0.03, origin { xyz: [-0.07, 0, 0] } }
    }
    joint rod_joint: revolute {
        parent: hub, child: rod, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 2, model: RS02 },
        command: [position], state: [position],
    }
    joint block_joint: revolute {
        parent: hub, child: block, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 3, model: RS02 },
        command: [position], state: [position],
    }
    joint drum_joint: revolute {
        parent: hub, child: drum, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 4, model: RS02 },
        command: [position], state: [position],
    }
    joint ball_joint: revolute {
        parent: hub, child: ball, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
        actuator { bus: b, can_id: 5, model: RS02 },
        command: [position], state: [position],
    }
}

#[test]
fn every_primitive_into_a_cylinder_is_as_deep_in_both() {
    // Rod, block, drum and ball are siblings, clear of each other.
    assert_agree::<Primitives>(&[
        ("ball", "base", 10.0),
        ("base", "block", 5.0),
        ("base", "drum", 10.0),
        ("base", "rod", 5.0),
    ]);
}

#[test]
fn the_shipped_robots_overlap_nowhere_in_either() {
    assert_agree::<LiteBiped>(&[]);
    assert_agree::<SixAxisArm>(&[]);
}
