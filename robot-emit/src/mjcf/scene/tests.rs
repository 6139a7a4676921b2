use super::*;
use crate::mjcf::document;
use robot_model::fixture;
use robot_model::model::{Geometry, Shape};

type Doc<'a> = roxmltree::Document<'a>;
type Node<'a> = roxmltree::Node<'a, 'a>;

fn parse(text: &str) -> Doc<'_> {
    Doc::parse(text).unwrap()
}

fn all<'a>(doc: &'a Doc<'a>, tag: &str) -> Vec<Node<'a>> {
    doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

fn sections<'a>(doc: &'a Doc<'a>) -> Vec<&'a str> {
    let root = doc.root_element();
    (root.children().filter(|n| n.is_element()))
        .map(|n| n.tag_name().name())
        .collect()
}

fn qpos(doc: &Doc<'_>) -> Vec<f64> {
    let key = all(doc, "key")[0];
    assert_eq!(key.attribute("name"), Some("home"));
    key.attribute("qpos")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect()
}

fn comments(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("<!--")).collect()
}

/// The fixture's lowest point by hand: the toe box (0.03 × 0.05 × 0.01) hangs from `foot`
/// (0.1 m below `base`, the ankle at 0) 0.02 m lower again, pitched 0.1 rad by the follower
/// (−0.5·0 + 0.1): its lowest corner is 0.015·sin 0.1 + 0.005·cos 0.1 below its centre. The wheel
/// (a 0.05 m radius on edge) reaches −0.05, the carriage sphere −0.03, the base capsule +0.08.
fn fixture_standing_height() -> f64 {
    0.12 + 0.015 * 0.1f64.sin() + 0.005 * 0.1f64.cos()
}

#[test]
fn the_floor_scene_includes_the_model_and_stands_the_base_on_the_floor() {
    let robot = fixture::robot();
    let text = scene(&robot).unwrap();
    let doc = parse(&text);
    let root = doc.root_element();
    assert_eq!(root.attribute("model"), Some("test_bot_scene"));
    assert_eq!(
        sections(&doc),
        ["include", "visual", "asset", "worldbody", "keyframe"]
    );
    assert_eq!(
        all(&doc, "include")[0].attribute("file"),
        Some("test_bot.mjcf.xml")
    );
    let floor = all(&doc, "geom")[0];
    assert_eq!(
        (floor.attribute("name"), floor.attribute("type")),
        (Some("floor"), Some("plane"))
    );
    assert_eq!(
        floor.attribute("pos"),
        None,
        "a floating base's floor is z = 0"
    );
    assert_eq!(all(&doc, "light").len(), 1);
    // Free joint: position, then the identity quaternion.
    let qpos = qpos(&doc);
    let height = fixture_standing_height();
    assert!((qpos[2] - height).abs() < 1e-12, "{qpos:?}");
    assert_eq!(qpos[..2], [0.0, 0.0]);
    assert_eq!(qpos[3..7], [1.0, 0.0, 0.0, 0.0]);
    let standing = kinematics::standing_height(&robot).unwrap().unwrap();
    assert!((standing - height).abs() < 1e-12);
    let lines = comments(&text);
    assert!(lines[0].contains("GENERATED"), "{lines:?}");
    assert!(
        lines[1].contains("collision 0 of link toe"),
        "the lowest point is named: {lines:?}"
    );
}

#[test]
fn the_home_key_lists_the_joints_in_the_model_s_order_at_their_initial_values() {
    let robot = fixture::robot();
    let model = document(&robot).unwrap();
    let model = parse(&model);
    // The MJCF's joints, in document order (the free joint is `freejoint`, not `joint`; an
    // equality's `<joint>` has no name).
    let order: Vec<&str> = all(&model, "joint")
        .iter()
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(order, ["ankle", "follower", "slider", "wheel"]);
    let by_name = |name: &str| {
        let i = robot.joints.iter().position(|j| j.name == name).unwrap();
        kinematics::initial_position(&robot, i)
    };
    let expected: Vec<f64> = order.iter().map(|n| by_name(n)).collect();
    assert_eq!(expected, [0.0, 0.1, 0.01, 0.0]);
    let text = scene(&robot).unwrap();
    assert_eq!(qpos(&parse(&text))[7..], expected);
    let stand = stand_scene(&robot).unwrap().unwrap();
    assert_eq!(
        qpos(&parse(&stand))[7..],
        expected,
        "the free joint is held, not removed"
    );
}

#[test]
fn the_stand_is_the_floor_scene_with_the_root_held_by_a_weld_above_the_standing_height() {
    let robot = fixture::robot();
    let text = stand_scene(&robot).unwrap().unwrap();
    let doc = parse(&text);
    assert_eq!(
        doc.root_element().attribute("model"),
        Some("test_bot_stand")
    );
    assert_eq!(
        sections(&doc),
        [
            "include",
            "visual",
            "asset",
            "worldbody",
            "equality",
            "keyframe"
        ]
    );
    assert_eq!(
        all(&doc, "include")[0].attribute("file"),
        Some("test_bot.mjcf.xml"),
        "the model itself, with its free joint"
    );
    let height = fixture_standing_height() + STAND_CLEARANCE;
    let qpos = qpos(&doc);
    assert!((qpos[2] - height).abs() < 1e-12, "{qpos:?}");
    assert_eq!(qpos[3..7], [1.0, 0.0, 0.0, 0.0]);
    // The stand is drawn, and only drawn: its strap ends at the root, and nothing of it collides.
    let frame: Vec<_> = all(&doc, "geom")
        .into_iter()
        .filter(|g| g.attribute("name").is_some_and(|n| n.starts_with("stand_")))
        .collect();
    assert_eq!(frame.len(), 3);
    for geom in &frame {
        assert_eq!(geom.attribute("contype"), Some("0"));
        assert_eq!(geom.attribute("conaffinity"), Some("0"));
    }
    let strap: Vec<f64> = frame[2]
        .attribute("fromto")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        (strap[5] - height).abs() < 1e-12,
        "the strap holds the root: {strap:?}"
    );
    let welds = all(&doc, "weld");
    assert_eq!(welds.len(), 1);
    let weld = welds[0];
    assert_eq!(weld.attribute("name"), Some(STAND_WELD));
    assert_eq!(weld.attribute("body1"), Some("base"));
    assert_eq!(weld.attribute("body2"), None, "to the world");
    // The world's pose in the root's frame: straight below it by the stand's height.
    let relpose: Vec<f64> = (weld.attribute("relpose").unwrap().split(' '))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(relpose.len(), 7);
    assert!((relpose[2] + height).abs() < 1e-12, "{relpose:?}");
    assert_eq!(relpose[..2], [0.0, 0.0]);
    assert_eq!(relpose[3..], [1.0, 0.0, 0.0, 0.0]);
    assert!(comments(&text)[2].contains("Test stand: the root held by weld `stand` at z = "));
    // Everything else is the floor scene's: the stand's three geoms are the only ones added.
    let floor = scene(&robot).unwrap();
    let floor = parse(&floor);
    for tag in ["light", "geom", "texture", "material"] {
        let added = if tag == "geom" { 3 } else { 0 };
        assert_eq!(
            all(&doc, tag).len(),
            all(&floor, tag).len() + added,
            "{tag}"
        );
    }
}

#[test]
fn a_fixed_base_has_no_stand_and_its_floor_goes_under_its_lowest_point() {
    let robot = Robot {
        floating_base: false,
        ..fixture::robot()
    };
    assert_eq!(stand_scene(&robot).unwrap(), None);
    let text = scene(&robot).unwrap();
    let doc = parse(&text);
    let floor = all(&doc, "geom")[0];
    let z: f64 = floor
        .attribute("pos")
        .unwrap()
        .split(' ')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert!((z + fixture_standing_height()).abs() < 1e-12, "{z}");
    // Joints only: the root has no free joint to place.
    assert_eq!(qpos(&doc), [0.0, 0.1, 0.01, 0.0]);
}

#[test]
fn what_cannot_be_bounded_is_said_not_guessed() {
    let mut robot = fixture::robot();
    for link in robot.links.to_mut() {
        link.collisions = Vec::new().into();
    }
    robot.links.to_mut()[1].collisions = vec![Shape {
        origin: Default::default(),
        geometry: Geometry::Mesh {
            filename: "foot.stl".into(),
            scale: [1.0; 3],
        },
    }]
    .into();
    let text = scene(&robot).unwrap();
    let lines = comments(&text);
    assert!(
        lines[1].contains("no collision geometry that can be bounded"),
        "{lines:?}"
    );
    assert!(lines[3].contains("collision 0 of foot"), "{lines:?}");
    assert_eq!(qpos(&parse(&text))[..3], [0.0, 0.0, 0.0]);
}

#[test]
fn a_robot_without_joints_gets_a_key_without_qpos() {
    let robot = Robot {
        floating_base: false,
        links: fixture::robot().links[..1].to_vec().into(),
        joints: Vec::new().into(),
        sensors: Vec::new().into(),
        ..fixture::robot()
    };
    let text = scene(&robot).unwrap();
    let doc = parse(&text);
    assert_eq!(all(&doc, "key")[0].attribute("qpos"), None);
}

#[test]
fn a_broken_tree_is_an_error_not_a_panic() {
    let mut robot = fixture::robot();
    robot.joints.to_mut()[0].child = "ghost".into();
    let error = scene(&robot).unwrap_err().to_string();
    assert_eq!(
        error,
        "kinematics: joint `ankle` has the unknown child link `ghost`"
    );
    assert!(stand_scene(&robot).is_err());
}
