use std::borrow::Cow;
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, PI};

use super::*;
use crate::fixture;
use crate::model::{Link, Shape};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn assert_point(a: [f64; 3], b: [f64; 3]) {
    assert!((0..3).all(|i| close(a[i], b[i])), "{a:?} != {b:?}");
}

fn assert_matrix(a: Matrix, b: Matrix) {
    assert!(
        (0..9).all(|n| close(a[n / 3][n % 3], b[n / 3][n % 3])),
        "{a:?} != {b:?}"
    );
}

fn at(xyz: [f64; 3], rpy: [f64; 3]) -> Transform {
    Transform::from_pose(&Pose { xyz, rpy })
}

fn link(name: &'static str, collisions: Vec<Shape>) -> Link {
    Link {
        name: name.into(),
        inertial: None,
        visuals: Cow::Owned(vec![]),
        collisions: Cow::Owned(collisions),
    }
}

fn shape(geometry: Geometry, xyz: [f64; 3], rpy: [f64; 3]) -> Shape {
    Shape {
        origin: Pose { xyz, rpy },
        geometry,
    }
}

fn joint(name: &'static str, kind: JointKind, parent: &'static str, child: &'static str) -> Joint {
    Joint {
        name: name.into(),
        kind,
        parent: parent.into(),
        child: child.into(),
        origin: Pose::IDENTITY,
        axis: [0.0, 0.0, 1.0],
        limits: None,
        dynamics: None,
        actuator: None,
        mimic: None,
        command_interfaces: Cow::Owned(vec![]),
        state_interfaces: Cow::Owned(vec![]),
    }
}

fn robot(links: Vec<Link>, joints: Vec<Joint>) -> Robot {
    Robot {
        links: Cow::Owned(links),
        joints: Cow::Owned(joints),
        ..fixture::robot()
    }
}

#[test]
fn rotation_about_an_axis_agrees_with_roll_pitch_yaw() {
    for angle in [0.3, -1.2, FRAC_PI_2, PI] {
        for (axis, rpy) in [
            ([1.0, 0.0, 0.0], [angle, 0.0, 0.0]),
            ([0.0, 2.0, 0.0], [0.0, angle, 0.0]),
            ([0.0, 0.0, -1.0], [0.0, 0.0, -angle]),
        ] {
            assert_matrix(
                Transform::rotation_about(axis, angle).rotation,
                rpy_to_matrix(rpy),
            );
        }
    }
    // Yaw a quarter turn: x goes to y; pitch a quarter turn: z goes to x.
    assert_point(
        at([0.0; 3], [0.0, 0.0, FRAC_PI_2]).rotate([1.0, 0.0, 0.0]),
        [0.0, 1.0, 0.0],
    );
    assert_point(
        at([0.0; 3], [0.0, FRAC_PI_2, 0.0]).rotate([0.0, 0.0, 1.0]),
        [1.0, 0.0, 0.0],
    );
    // Fixed axes: roll first, then yaw. Roll a quarter turn takes y to z, yaw leaves z.
    let r = at([0.0; 3], [FRAC_PI_2, 0.0, FRAC_PI_2]);
    assert_point(r.rotate([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]);
    assert_point(r.rotate([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]);
    // A zero axis is no motion rather than NaN.
    assert_eq!(
        Transform::rotation_about([0.0; 3], 1.0),
        Transform::IDENTITY
    );
    assert_eq!(
        Transform::translation_along([0.0; 3], 1.0),
        Transform::IDENTITY
    );
}

#[test]
fn composing_applies_the_inner_transform_first() {
    // B is 1 m up and yawed a quarter turn; C is 1 m along B's x: C's origin is at (0, 1, 1).
    let b = at([0.0, 0.0, 1.0], [0.0, 0.0, FRAC_PI_2]);
    let c = at([1.0, 0.0, 0.0], [0.0; 3]);
    assert_point(b.then(&c).translation, [0.0, 1.0, 1.0]);
    assert_point(b.then(&c).apply([1.0, 0.0, 0.0]), [0.0, 2.0, 1.0]);
}

#[test]
fn a_box_reaches_down_by_its_rotated_half_extents() {
    let size = [0.2, 0.1, 0.4];
    let geometry = Geometry::Box { size };
    // Upright at z = 1: half its height below.
    assert!(close(
        lowest_z(&geometry, &at([0.0, 0.0, 1.0], [0.0; 3])).unwrap(),
        0.8
    ));
    // Rolled a quarter turn about x: its y edge (0.1) is now vertical.
    let rolled = at([0.0, 0.0, 1.0], [FRAC_PI_2, 0.0, 0.0]);
    assert!(close(lowest_z(&geometry, &rolled).unwrap(), 0.95));
    // Rolled 45°: the lowest corner is (0.05 + 0.2)·cos 45° below the centre.
    let tilted = at([0.0, 0.0, 1.0], [FRAC_PI_4, 0.0, 0.0]);
    assert!(close(
        lowest_z(&geometry, &tilted).unwrap(),
        1.0 - 0.25 * FRAC_1_SQRT_2
    ));
    // The same by brute force over the eight corners.
    let corners = (0..8).map(|n| {
        let corner: [f64; 3] =
            std::array::from_fn(|i| if n >> i & 1 == 1 { 1.0 } else { -1.0 } * size[i] / 2.0);
        tilted.apply(corner)[2]
    });
    let brute = corners.fold(f64::INFINITY, f64::min);
    assert!(close(lowest_z(&geometry, &tilted).unwrap(), brute));
}

#[test]
fn spheres_capsules_and_cylinders_reach_down_as_drawn() {
    let level = at([0.0; 3], [0.0; 3]);
    let lying = at([0.0; 3], [0.0, FRAC_PI_2, 0.0]); // local z along world x
    let leaning = at([0.0; 3], [FRAC_PI_4, 0.0, 0.0]);
    let sphere = Geometry::Sphere { radius: 0.1 };
    let capsule = Geometry::Capsule {
        radius: 0.05,
        length: 0.2,
    };
    let cylinder = Geometry::Cylinder {
        radius: 0.05,
        length: 0.2,
    };
    assert!(close(lowest_z(&sphere, &leaning).unwrap(), -0.1));
    assert!(close(lowest_z(&capsule, &level).unwrap(), -0.15));
    assert!(close(lowest_z(&capsule, &lying).unwrap(), -0.05));
    assert!(close(
        lowest_z(&capsule, &leaning).unwrap(),
        -0.1 * FRAC_1_SQRT_2 - 0.05
    ));
    assert!(close(lowest_z(&cylinder, &level).unwrap(), -0.1));
    assert!(close(lowest_z(&cylinder, &lying).unwrap(), -0.05));
    // Leaning 45°: the bottom disc's centre is 0.1·cos 45° down, its rim 0.05·sin 45° more.
    assert!(close(
        lowest_z(&cylinder, &leaning).unwrap(),
        -(0.1 + 0.05) * FRAC_1_SQRT_2
    ));
    let mesh = Geometry::Mesh {
        filename: "foot.stl".into(),
        scale: [1.0; 3],
    };
    assert_eq!(lowest_z(&mesh, &level), None);
    assert_eq!(
        lowest_z(&Geometry::Sphere { radius: f64::NAN }, &level),
        None
    );
}

/// A pendulum: `top` 1 m up on `base` swings `arm` about y; 0.5 m down the arm, `slide` moves
/// `bob` (a 0.1 m sphere) along the arm; a 0.02 m box on `base` at z = −0.05 is the floor mark.
fn pendulum() -> Robot {
    let mut top = joint("top", JointKind::Revolute, "base", "arm");
    top.origin.xyz = [0.0, 0.0, 1.0];
    top.axis = [0.0, 1.0, 0.0];
    let mut slide = joint("slide", JointKind::Prismatic, "arm", "bob");
    slide.origin.xyz = [0.0, 0.0, -0.5];
    slide.axis = [0.0, 0.0, -1.0];
    robot(
        vec![
            link("base", vec![]),
            link(
                "arm",
                vec![shape(Geometry::Box { size: [0.02; 3] }, [0.0; 3], [0.0; 3])],
            ),
            link(
                "bob",
                vec![shape(Geometry::Sphere { radius: 0.1 }, [0.0; 3], [0.0; 3])],
            ),
        ],
        vec![top, slide],
    )
}

#[test]
fn a_chain_places_each_link_after_its_parent() {
    let robot = pendulum();
    // Hanging straight down: the bob at 0.5 m, its bottom at 0.4 m.
    let poses = link_poses(&robot, &[0.0, 0.0]).unwrap();
    assert_point(poses.get("base").unwrap().translation, [0.0; 3]);
    assert_point(poses.get("arm").unwrap().translation, [0.0, 0.0, 1.0]);
    assert_point(poses.get("bob").unwrap().translation, [0.0, 0.0, 0.5]);
    let lowest = lowest_collision_point(&robot, &poses).point.unwrap();
    assert!(close(lowest.z, 0.4));
    assert_eq!((lowest.link.as_str(), lowest.collision), ("bob", 0));
    // Swung a quarter turn about +y: down (−z) turns to −x; slid 0.2 m further out along the arm.
    let poses = link_poses(&robot, &[FRAC_PI_2, 0.2]).unwrap();
    assert_point(poses.get("bob").unwrap().translation, [-0.7, 0.0, 1.0]);
    assert_matrix(
        poses.get("bob").unwrap().rotation,
        rpy_to_matrix([0.0, FRAC_PI_2, 0.0]),
    );
    let lowest = lowest_collision_point(&robot, &poses).point.unwrap();
    assert!(close(lowest.z, 0.9));
    // Half a turn: the bob is up at 1.5 m, and the arm's box, at the pivot, is lowest: 1 − 0.01.
    let poses = link_poses(&robot, &[PI, 0.0]).unwrap();
    assert_point(poses.get("bob").unwrap().translation, [0.0, 0.0, 1.5]);
    let lowest = lowest_collision_point(&robot, &poses).point.unwrap();
    assert!(close(lowest.z, 0.99));
    assert_eq!(lowest.link, "arm");
}

#[test]
fn a_rotated_joint_origin_turns_the_whole_subtree() {
    // The joint frame is rolled a quarter turn, so its z axis (the hinge) is world −y, and the
    // child's −y runs down world z.
    let mut hinge = joint("hinge", JointKind::Revolute, "base", "link");
    hinge.origin = Pose {
        xyz: [0.0, 0.0, 0.3],
        rpy: [FRAC_PI_2, 0.0, 0.0],
    };
    let capsule = Geometry::Capsule {
        radius: 0.01,
        length: 0.1,
    };
    let robot = robot(
        vec![
            link("base", vec![]),
            link("link", vec![shape(capsule, [0.0, -0.2, 0.0], [0.0; 3])]),
        ],
        vec![hinge],
    );
    let poses = link_poses(&robot, &[0.0]).unwrap();
    let link = poses.get("link").unwrap();
    assert_point(link.apply([0.0, -0.2, 0.0]), [0.0, 0.0, 0.1]);
    // The capsule's axis (local z) lies along world −y, so it reaches down only by its radius.
    let lowest = lowest_collision_point(&robot, &poses).point.unwrap();
    assert!(close(lowest.z, 0.09), "{}", lowest.z);
}

#[test]
fn the_fixture_starts_at_its_initial_values_and_the_mimic_follows() {
    let robot = fixture::robot();
    // ankle 0, slider 0.01 (declared), wheel 0, follower −0.5·0 + 0.1, imu_mount fixed.
    assert_eq!(initial_positions(&robot), [0.0, 0.01, 0.0, 0.1, 0.0]);
    let mut moved = robot.clone();
    let ankle = moved.joints.to_mut().first_mut().unwrap();
    let position = ankle.state_interfaces.to_mut().first_mut().unwrap();
    assert_eq!(position.kind, InterfaceKind::Position);
    position.initial_value = Some(0.4);
    assert!(close(initial_position(&moved, 3), -0.5 * 0.4 + 0.1));
    assert_eq!(initial_position(&moved, 99), 0.0);
}

#[test]
fn tree_order_is_depth_first_in_declaration_order() {
    // base: ankle (foot: follower), slider, wheel, imu_mount.
    assert_eq!(tree_order(&fixture::robot()).unwrap(), [0, 3, 1, 2, 4]);
}

#[test]
fn collision_meshes_are_named_as_unbounded() {
    let mut robot = fixture::robot();
    let foot = robot.links.to_mut().iter_mut().find(|l| l.name == "foot");
    let foot = foot.unwrap();
    foot.collisions = foot.visuals.clone();
    let poses = link_poses(&robot, &initial_positions(&robot)).unwrap();
    let lowest = lowest_collision_point(&robot, &poses);
    assert_eq!(lowest.unbounded, [("foot".to_string(), 0)]);
    assert!(lowest.point.is_some());
}

#[test]
fn a_broken_tree_is_an_error_not_a_panic() {
    let robot = pendulum();
    assert_eq!(
        link_poses(&robot, &[0.0]),
        Err(KinematicsError::PositionCount {
            expected: 2,
            found: 1
        })
    );
    let mut unknown = pendulum();
    unknown.joints.to_mut()[1].child = "ghost".into();
    assert_eq!(
        tree_order(&unknown),
        Err(KinematicsError::UnknownChild {
            joint: "slide".into(),
            link: "ghost".into()
        })
    );
    let mut two_parents = pendulum();
    two_parents.joints.to_mut()[1].parent = "base".into();
    two_parents.joints.to_mut()[1].child = "arm".into();
    assert_eq!(
        tree_order(&two_parents),
        Err(KinematicsError::NotATree { link: "arm".into() })
    );
    let mut looped = pendulum();
    looped.joints.to_mut()[1].child = "base".into();
    // `base` is a child now, so `bob` is the root and nothing else is reached from it.
    assert_eq!(
        tree_order(&looped),
        Err(KinematicsError::NotATree {
            link: "base".into()
        })
    );
    let mut second_root = pendulum();
    second_root.joints.to_mut().pop();
    assert_eq!(
        tree_order(&second_root),
        Err(KinematicsError::NotATree { link: "bob".into() })
    );
}

#[test]
fn the_standing_height_lifts_the_lowest_point_to_zero() {
    // The pendulum at rest: the bob's bottom is 0.4 m above the root.
    assert!(close(standing_height(&pendulum()).unwrap().unwrap(), -0.4));
    let bare = robot(vec![link("base", vec![])], vec![]);
    assert_eq!(standing_height(&bare), Ok(None));
}

#[test]
fn a_quaternion_and_its_matrix_go_both_ways() {
    for rpy in [
        [0.0, 0.0, 0.0],
        [0.3, -1.1, 2.5],
        [PI, 0.2, -0.4],
        [0.0, FRAC_PI_2, 0.0],
    ] {
        let m = rpy_to_matrix(rpy);
        assert_matrix(quaternion_to_matrix(matrix_to_quaternion(&m)), m);
        // Scaled, as MuJoCo's qpos drifts: the same rotation.
        let q = matrix_to_quaternion(&m).map(|c| c * 1.7);
        assert_matrix(quaternion_to_matrix(q), m);
    }
    assert_matrix(quaternion_to_matrix([0.0; 4]), Transform::IDENTITY.rotation);
    assert_matrix(
        quaternion_to_matrix([FRAC_1_SQRT_2, 0.0, 0.0, FRAC_1_SQRT_2]),
        rpy_to_matrix([0.0, 0.0, FRAC_PI_2]),
    );
}
