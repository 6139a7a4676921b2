//! A description read from JSON is not validated by construction. Library code must not panic on
//! it: the rules report what is wrong, and the emitters return text or an error, whatever the
//! input. Each case here is a broken variant of lite_biped.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::borrow::Cow;

use robot_core::model::{JointKind, Mimic, Robot};
use robot_core::{emit, validate};
use robots::LiteBiped;

fn variants() -> Vec<(&'static str, Robot)> {
    let good = LiteBiped::DESCRIPTION.clone();
    let mut out = Vec::new();
    let mut with = |name, f: &dyn Fn(&mut Robot)| {
        let mut robot = good.clone();
        f(&mut robot);
        out.push((name, robot));
    };
    with("no links", &|r| r.links = Cow::Owned(vec![]));
    with("no joints", &|r| r.joints = Cow::Owned(vec![]));
    with("a joint is its own parent", &|r| {
        let j = &mut r.joints.to_mut()[3];
        j.parent = j.child.clone();
    });
    with("the root becomes a child: a loop and no root", &|r| {
        let root = r.root_link().unwrap().name.clone();
        r.joints.to_mut()[5].child = root;
    });
    with("unknown links everywhere", &|r| {
        for j in r.joints.to_mut() {
            j.parent = "nowhere".into();
        }
    });
    with("NaN and infinity", &|r| {
        let j = &mut r.joints.to_mut()[2];
        j.origin.xyz = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
        j.axis = [0.0; 3];
        if let Some(l) = j.limits.as_mut() {
            l.lower = Some(f64::NAN);
        }
        r.links.to_mut()[1].inertial.as_mut().unwrap().mass = f64::NAN;
    });
    with("a mimic chain that loops", &|r| {
        let joints = r.joints.to_mut();
        let (a, b) = (joints[1].name.clone(), joints[2].name.clone());
        joints[1].mimic = Some(Mimic {
            joint: b,
            multiplier: 1.0,
            offset: 0.0,
        });
        joints[2].mimic = Some(Mimic {
            joint: a,
            multiplier: 1.0,
            offset: 0.0,
        });
        joints[1].actuator = None;
        joints[2].actuator = None;
    });
    with("duplicate names", &|r| {
        let joints = r.joints.to_mut();
        joints[4].name = joints[3].name.clone();
        let links = r.links.to_mut();
        links[4].name = links[3].name.clone();
    });
    with("no buses", &|r| r.buses = Cow::Owned(vec![]));
    with("zero update rate", &|r| r.update_rate = 0);
    with("a continuous joint with limits and a four-bar", &|r| {
        let j = r
            .joints
            .iter()
            .position(|j| j.name == "left_ankle_pitch")
            .unwrap();
        r.joints.to_mut()[j].kind = JointKind::Continuous;
    });
    with("empty names", &|r| {
        r.joints.to_mut()[1].name = "".into();
        r.sensors.to_mut()[0].name = "".into();
    });
    out
}

#[test]
fn broken_descriptions_get_problems_and_never_a_panic() {
    for (name, robot) in variants() {
        let problems = validate::validate(&robot);
        assert!(!problems.is_empty(), "{name}: no problem found");
        // Emitting an invalid robot is allowed to produce nonsense, not to panic.
        let _ = emit::all(&robot);
        let _ = robot_runner::describe::table(&robot);
    }
}
