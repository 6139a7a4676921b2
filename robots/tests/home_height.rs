//! lite_biped's home height (the pelvis height that puts its lowest collision geometry on the
//! floor, `robot_core::kinematics::standing_height`, the `z` of key `home` in
//! `lite_biped.scene.xml`) against an independent calculation from the reference data: the public
//! lite_description URDF (`tests/reference/lite_biped/lite_biped.urdf`, MIT), walked here with
//! its own frames, composed from elementary rotations, and the corners of its collision boxes and
//! points around the rims of its cylinders. All joints at zero, the biped's initial values.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::collections::HashMap;

use robots::LiteBiped;

type Matrix = [[f64; 3]; 3];

/// A frame: rotation and origin in the world.
#[derive(Clone, Copy)]
struct Frame {
    r: Matrix,
    p: [f64; 3],
}

fn mul(a: Matrix, b: Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// URDF rpy: about the fixed x, then y, then z axes, so R = Rz·Ry·Rx.
fn rpy([roll, pitch, yaw]: [f64; 3]) -> Matrix {
    let ((sr, cr), (sp, cp), (sy, cy)) = (roll.sin_cos(), pitch.sin_cos(), yaw.sin_cos());
    let rx = [[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]];
    let ry = [[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]];
    let rz = [[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]];
    mul(rz, mul(ry, rx))
}

impl Frame {
    fn point(&self, v: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| (0..3).map(|k| self.r[i][k] * v[k]).sum::<f64>() + self.p[i])
    }

    fn child(&self, origin: ([f64; 3], [f64; 3])) -> Frame {
        Frame {
            r: mul(self.r, rpy(origin.1)),
            p: self.point(origin.0),
        }
    }
}

fn numbers(text: Option<&str>) -> Vec<f64> {
    text.unwrap_or("0 0 0")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

fn origin(node: roxmltree::Node) -> ([f64; 3], [f64; 3]) {
    let origin = node.children().find(|n| n.has_tag_name("origin"));
    let xyz = numbers(origin.and_then(|o| o.attribute("xyz")));
    let rpy = numbers(origin.and_then(|o| o.attribute("rpy")));
    ([xyz[0], xyz[1], xyz[2]], [rpy[0], rpy[1], rpy[2]])
}

/// The lowest world z of the reference's collision geometry, the root link at the origin.
fn reference_lowest() -> (f64, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/lite_biped/lite_biped.urdf"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let robot = doc.root_element();
    let joints: Vec<_> = robot
        .children()
        .filter(|n| n.has_tag_name("joint"))
        .collect();
    let child_link = |j: &roxmltree::Node, tag: &str| {
        let node = j.children().find(|n| n.has_tag_name(tag)).unwrap();
        node.attribute("link").unwrap().to_string()
    };
    // Frames from the root down: a link's frame is its joint's origin in the parent's frame.
    let mut frames: HashMap<String, Frame> = HashMap::new();
    frames.insert(
        "pelvis".into(),
        Frame {
            r: rpy([0.0; 3]),
            p: [0.0; 3],
        },
    );
    while frames.len() < joints.len() + 1 {
        for joint in &joints {
            let (parent, child) = (child_link(joint, "parent"), child_link(joint, "child"));
            if let (Some(frame), false) =
                (frames.get(&parent).copied(), frames.contains_key(&child))
            {
                frames.insert(child, frame.child(origin(*joint)));
            }
        }
    }
    let mut lowest = (f64::INFINITY, String::new());
    for link in robot.children().filter(|n| n.has_tag_name("link")) {
        let frame = frames[link.attribute("name").unwrap()];
        for collision in link.children().filter(|n| n.has_tag_name("collision")) {
            let at = frame.child(origin(collision));
            let geometry = collision
                .children()
                .find(|n| n.has_tag_name("geometry"))
                .unwrap();
            let shape = geometry.children().find(|n| n.is_element()).unwrap();
            let points: Vec<[f64; 3]> = match shape.tag_name().name() {
                "box" => {
                    let size = numbers(shape.attribute("size"));
                    (0..8)
                        .map(|n| {
                            let sign = |i: usize| if n >> i & 1 == 1 { 0.5 } else { -0.5 };
                            std::array::from_fn(|i| sign(i) * size[i])
                        })
                        .collect()
                }
                "cylinder" => {
                    let radius: f64 = shape.attribute("radius").unwrap().parse().unwrap();
                    let length: f64 = shape.attribute("length").unwrap().parse().unwrap();
                    (0..7200)
                        .map(|n| {
                            let angle = n as f64 * std::f64::consts::PI / 3600.0;
                            let end = if n % 2 == 0 { 0.5 } else { -0.5 } * length;
                            [radius * angle.cos(), radius * angle.sin(), end]
                        })
                        .collect()
                }
                other => panic!("no {other} in the reference's collisions"),
            };
            for point in points {
                let z = at.point(point)[2];
                if z < lowest.0 {
                    lowest = (z, link.attribute("name").unwrap().to_string());
                }
            }
        }
    }
    lowest
}

#[test]
fn lite_biped_stands_where_the_reference_urdf_puts_its_feet() {
    let (lowest, link) = reference_lowest();
    let home = robot_core::kinematics::standing_height(LiteBiped::DESCRIPTION)
        .unwrap()
        .unwrap();
    // 0.77500054547067 m, on the right foot (the left one is 4e-7 m higher: the reference rounds
    // π/2 to 1.5708 and the legs are not exact mirrors).
    assert!(
        (home + lowest).abs() < 1e-6,
        "home {home} m, the reference's lowest point {lowest} m on {link}"
    );
    assert!(link.ends_with("_foot"), "{link}");
    // And the checked-in scene carries that height in key `home`.
    let scene = include_str!("../descriptions/lite_biped/lite_biped.scene.xml");
    let doc = roxmltree::Document::parse(scene).unwrap();
    let key = doc.descendants().find(|n| n.has_tag_name("key")).unwrap();
    let z: f64 = numbers(key.attribute("qpos"))[2];
    assert!((z + lowest).abs() < 1e-6, "key home z {z}");
}
