//! Each pair of primitives against a depth worked out by hand, and the conventions: a capsule's
//! `length` is its cylindrical part, a cylinder and a capsule lie along their local z.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

use robot_model::kinematics::Transform;
use robot_model::model::{Geometry, Pose};

use super::{Unsupported, penetration};

fn at(xyz: [f64; 3], rpy: [f64; 3]) -> Transform {
    Transform::from_pose(&Pose { xyz, rpy })
}

const NONE: [f64; 3] = [0.0; 3];

fn sphere(radius: f64) -> Geometry {
    Geometry::Sphere { radius }
}

fn cube(edge: f64) -> Geometry {
    Geometry::Box { size: [edge; 3] }
}

/// A 0.2 × 0.2 × 0.1 m slab whose top face is z = 0, when placed at [`SLAB`].
fn slab() -> Geometry {
    Geometry::Box {
        size: [0.2, 0.2, 0.1],
    }
}

const SLAB: [f64; 3] = [0.0, 0.0, -0.05];

fn capsule(radius: f64, length: f64) -> Geometry {
    Geometry::Capsule { radius, length }
}

fn cylinder(radius: f64, length: f64) -> Geometry {
    Geometry::Cylinder { radius, length }
}

/// `a` at `pa` and `b` at `pb` overlap by `depth` (to 1e-6 m), in either order.
#[track_caller]
fn assert_depth(a: &Geometry, pa: Transform, b: &Geometry, pb: Transform, depth: f64) {
    for found in [
        penetration(a, &pa, b, &pb).unwrap(),
        penetration(b, &pb, a, &pa).unwrap(),
    ] {
        assert!((found - depth).abs() < 1e-6, "{found} m, not {depth} m");
    }
}

#[test]
fn sphere_and_sphere() {
    // Radii 0.1 and 0.05, centres 0.12 apart: 0.15 − 0.12.
    let (a, b) = (sphere(0.1), sphere(0.05));
    assert_depth(&a, at(NONE, NONE), &b, at([0.12, 0.0, 0.0], NONE), 0.03);
    assert_depth(&a, at(NONE, NONE), &b, at([0.0, 0.0, 0.16], NONE), 0.0);
}

#[test]
fn sphere_and_box() {
    // Radius 0.05, centre 0.03 above the top face.
    assert_depth(
        &sphere(0.05),
        at([0.0, 0.0, 0.03], NONE),
        &slab(),
        at(SLAB, NONE),
        0.02,
    );
}

#[test]
fn box_and_box_turned() {
    // Two 0.2 m cubes 0.2 m apart, the second turned 45° about z: its edge reaches
    // 0.2 − 0.1·√2 along x, 0.1·√2 − 0.1 into the first's face. No other axis separates less
    // (along the turned cube's face normals they overlap by 0.1, along y and z by 0.2 or more).
    assert_depth(
        &cube(0.2),
        at(NONE, NONE),
        &cube(0.2),
        at([0.2, 0.0, 0.0], [0.0, 0.0, FRAC_PI_4]),
        0.1 * SQRT_2 - 0.1,
    );
    // The 4 mm of the folded arm (tests/home_pose.rs): a 40 mm bar whose centre is 16 mm
    // above the slab's top face.
    let bar = Geometry::Box {
        size: [0.2, 0.04, 0.04],
    };
    assert_depth(
        &bar,
        at([0.1, 0.0, 0.016], NONE),
        &slab(),
        at(SLAB, NONE),
        0.004,
    );
}

#[test]
fn capsule_and_box() {
    // Lying along x (turned a quarter about y), radius 0.02, its axis 0.015 above the top face.
    let lying = capsule(0.02, 0.1);
    let slab = slab();
    let flat = at(SLAB, NONE);
    assert_depth(
        &lying,
        at([0.0, 0.0, 0.015], [0.0, FRAC_PI_2, 0.0]),
        &slab,
        flat,
        0.005,
    );
    // Standing along z: the cap's bottom at 0.06 − 0.05 − 0.02 = −0.01.
    assert_depth(&lying, at([0.0, 0.0, 0.06], NONE), &slab, flat, 0.01);
}

#[test]
fn capsule_length_is_the_cylindrical_part() {
    // Along z, radius 0.02, length 0.1: its top at 0.05 + 0.02. A sphere of 0.01 at 0.075 is
    // 5 mm into the cap; were the length the whole capsule's, they would be apart.
    assert_depth(
        &capsule(0.02, 0.1),
        at(NONE, NONE),
        &sphere(0.01),
        at([0.0, 0.0, 0.075], NONE),
        0.005,
    );
}

#[test]
fn capsule_and_capsule_crossed() {
    // One along x, one along y 0.03 above it, radii 0.02: 0.04 − 0.03.
    let c = capsule(0.02, 0.2);
    assert_depth(
        &c,
        at(NONE, [0.0, FRAC_PI_2, 0.0]),
        &c,
        at([0.0, 0.0, 0.03], [FRAC_PI_2, 0.0, 0.0]),
        0.01,
    );
}

#[test]
fn cylinder_lies_along_z() {
    // Radius 0.03, length 0.1, centre 0.04 above the top face: its bottom disc at −0.01. Along
    // y (parry's own axis) its side would stop at 0.04 − 0.03, clear of the face.
    let c = cylinder(0.03, 0.1);
    assert_depth(
        &c,
        at([0.0, 0.0, 0.04], NONE),
        &slab(),
        at(SLAB, NONE),
        0.01,
    );
    // Turned a quarter about x, it lies along y: its side is then what reaches down.
    assert_depth(
        &c,
        at([0.0, 0.0, 0.02], [FRAC_PI_2, 0.0, 0.0]),
        &slab(),
        at(SLAB, NONE),
        0.01,
    );
}

#[test]
fn cylinder_and_sphere() {
    // Radius 0.05, length 0.2 along z; a sphere of 0.03 beside it (centre 0.07 from the axis),
    // then above the top disc (centre 0.12, the disc at 0.1).
    let c = cylinder(0.05, 0.2);
    let s = sphere(0.03);
    assert_depth(&c, at(NONE, NONE), &s, at([0.07, 0.0, 0.0], NONE), 0.01);
    assert_depth(&c, at(NONE, NONE), &s, at([0.0, 0.0, 0.12], NONE), 0.01);
}

#[test]
fn cylinder_and_capsule() {
    // Parallel axes 0.065 apart, radii 0.05 and 0.02.
    assert_depth(
        &cylinder(0.05, 0.2),
        at(NONE, NONE),
        &capsule(0.02, 0.1),
        at([0.065, 0.0, 0.0], NONE),
        0.005,
    );
}

#[test]
fn cylinder_and_cylinder() {
    // Coaxial, each 0.1 long, centres 0.09 apart: the discs overlap by 0.01.
    let c = cylinder(0.04, 0.1);
    assert_depth(&c, at(NONE, NONE), &c, at([0.0, 0.0, 0.09], NONE), 0.01);
}

#[test]
fn a_mesh_or_a_shape_no_solid_has_is_unsupported() {
    let mesh = Geometry::Mesh {
        filename: "package://robot/foot.stl".into(),
        scale: [1.0; 3],
    };
    let origin = at(NONE, NONE);
    assert_eq!(
        penetration(&mesh, &origin, &sphere(0.1), &origin),
        Err(Unsupported::Mesh {
            filename: "package://robot/foot.stl".to_string()
        })
    );
    for bad in [
        sphere(-0.1),
        sphere(f64::NAN),
        cube(0.0),
        capsule(0.1, -0.2),
        cylinder(0.1, f64::INFINITY),
    ] {
        assert_eq!(
            penetration(&bad, &origin, &sphere(0.1), &origin),
            Err(Unsupported::BadNumbers),
            "{bad:?}"
        );
    }
    let nowhere = at([f64::NAN, 0.0, 0.0], NONE);
    assert_eq!(
        penetration(&sphere(0.1), &nowhere, &sphere(0.1), &origin),
        Err(Unsupported::BadNumbers)
    );
}

/// A pseudo-random number in [0, 1) (xorshift), so the sample is the same on every run.
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

#[test]
fn any_sizes_and_places_in_range_give_an_answer_not_a_panic() {
    // parry's EPA indexes out of bounds on sizes near f64's limits (1e300 against 1e-300);
    // such shapes are refused. Within the range accepted, a sample of every kind of pair,
    // a third of them centred on each other and square (the degenerate cases of GJK/EPA).
    let mut state = 0x1234_5678_u64;
    let mut r = move || uniform(&mut state);
    for i in 0..20_000 {
        let mut geometry = || {
            let mut size = || 10f64.powf(-9.0 + 15.0 * r());
            match i % 4 {
                0 => sphere(size()),
                1 => Geometry::Box {
                    size: [size(), size(), size()],
                },
                2 => capsule(size(), if i % 5 == 0 { 0.0 } else { size() }),
                _ => cylinder(size(), size()),
            }
        };
        let (a, b) = (geometry(), geometry());
        let square = i % 3 == 0;
        let mut place = || {
            if square {
                return at(NONE, [0.0, 0.0, FRAC_PI_2 * (i % 4) as f64]);
            }
            let mut x = || (r() - 0.5) * 10f64.powf(6.0 * r());
            at([x(), x(), x()], [x(), x(), x()])
        };
        let (pa, pb) = (place(), place());
        let depth = penetration(&a, &pa, &b, &pb);
        assert!(
            depth.as_ref().is_ok_and(|d| d.is_finite() && *d >= 0.0),
            "{a:?} at {pa:?}, {b:?} at {pb:?}: {depth:?}"
        );
    }
    let origin = at(NONE, NONE);
    for (a, b) in [
        (cube(1e300), cylinder(1e-300, 1e300)),
        (capsule(1e-300, 0.0), cylinder(1e300, 1e-300)),
        (cylinder(1e150, 1e150), cylinder(1e-150, 1e-150)),
    ] {
        let depth = penetration(&a, &origin, &b, &at([1e-3, 0.0, 0.0], [0.3, 0.2, 0.1]));
        assert_eq!(depth, Err(Unsupported::BadNumbers), "{a:?} {b:?}");
    }
    let far = at([2e6, 0.0, 0.0], NONE);
    assert_eq!(
        penetration(&sphere(0.1), &far, &sphere(0.1), &origin),
        Err(Unsupported::BadNumbers)
    );
}
