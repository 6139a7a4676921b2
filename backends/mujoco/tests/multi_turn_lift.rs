//! A lift of 300 mm on a 40 mm lead, 7.5 motor turns: `robot!` accepts it now that the RobStride
//! backend counts the turns of a joint whose motor leaves the MIT frame's ±4π. MuJoCo works in
//! joint space and needs no counting; its emitted model takes the whole range, and the lift runs
//! it up and back under the MIT law of the backend. Two small arms of its kind show the check
//! of self-collision at the home pose: an overlap reported with both bodies and its depth, and
//! a contact the definition allows (`allow_contact`) excluded in the MJCF and not reported.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::f64::consts::PI;
use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_core::hardware::{Clock, Component, System};
use robot_macros::robot;

robot! {
    robot Lift { update_rate: 200 Hz }
    bus base {}
    link base {}
    link carriage {
        inertial { mass: 5.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    /// A vertical lift on a lead screw, position-commanded with a velocity feed-forward: the
    /// servo's default gains (`robot_core::hardware::ServoGains`).
    joint lift: prismatic {
        parent: base,
        child: carriage,
        axis: [0, 0, 1],
        limits { lower: 0, upper: 300 mm, velocity: 0.2, effort: 500 },
        // An RS02's rotor, about 0.001 kg·m² at its output, is 0.001 / (0.04 / 2π)² ≈ 25 kg at
        // the carriage.
        dynamics { damping: 20, friction: 10, armature: 25 },
        actuator { bus: base, can_id: 1, model: RS02, lead: 40 mm },
        command: [position, velocity],
        state: [position, velocity, effort],
    }
}

const PERIOD: Duration = Duration::from_millis(5);

fn clock(k: u32) -> Clock {
    Clock {
        time: PERIOD * k,
        period: PERIOD,
    }
}

/// The attribute `name` of the MJCF element `<tag name="joint">`, as numbers.
fn attribute(mjcf: &str, tag: &str, name: &str) -> Vec<f64> {
    let start = mjcf
        .find(&format!("<{tag} name=\"lift\""))
        .unwrap_or_else(|| panic!("no <{tag} name=\"lift\"> in\n{mjcf}"));
    let element = &mjcf[start..start + mjcf[start..].find('>').unwrap()];
    let value = element
        .split(&format!(" {name}=\""))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no {name} in {element}"));
    value
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn the_emitted_model_takes_the_lifts_whole_range() {
    assert!(robot_core::validate::validate(Lift::DESCRIPTION).is_empty());
    let mjcf = robot_core::emit::mjcf(Lift::DESCRIPTION).unwrap();
    assert_eq!(attribute(&mjcf, "joint", "range"), [0.0, 0.3]);
    assert_eq!(attribute(&mjcf, "motor", "ctrlrange"), [-500.0, 500.0]);
}

#[test]
fn the_lift_runs_its_whole_300_mm_up_and_back() {
    let options = MujocoOptions {
        model: ModelSource::Scene,
        ..MujocoOptions::default()
    };
    let component: Box<dyn Component<Lift>> = Box::new(MujocoSystem::<Lift>::new(options));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    let (mut state, mut command) = (LiftState::default(), LiftCommand::default());
    system.read(clock(0), &mut state).unwrap();
    system.activate(clock(0), &mut state, &mut command).unwrap();
    // Half-cosine moves of 3 s (0.157 m/s at most, under the joint's 0.2), each held 0.5 s:
    // 0 → 300 mm → 0.
    let (move_cycles, hold_cycles) = (600, 100);
    let mut k = 0;
    let (mut worst, mut lowest, mut highest) = (0.0_f64, f64::INFINITY, f64::NEG_INFINITY);
    for (from, to) in [(0.0, 0.3), (0.3, 0.0)] {
        for i in 1..=move_cycles + hold_cycles {
            let s = f64::from(i.min(move_cycles)) / f64::from(move_cycles);
            command.lift.position = from + (to - from) * (1.0 - (PI * s).cos()) / 2.0;
            command.lift.velocity = if i <= move_cycles {
                (to - from) * PI / 6.0 * (PI * s).sin()
            } else {
                0.0
            };
            k += 1;
            system.write(clock(k), &command).unwrap();
            system.read(clock(k + 1), &mut state).unwrap();
            let q = state.lift.position;
            worst = worst.max((q - command.lift.position).abs());
            lowest = lowest.min(q);
            highest = highest.max(q);
        }
    }
    eprintln!(
        "MuJoCo: tracking {:.3} mm, {:.2} to {:.2} mm",
        worst * 1e3,
        lowest * 1e3,
        highest * 1e3
    );
    assert!(highest > 0.2995 && highest < 0.3005, "{highest} m");
    assert!(lowest < 0.0005 && lowest > -0.0005, "{lowest} m");
    // The default servo (0.1 motor rad, 0.64 mm, asks for the whole 500 N) with the velocity fed
    // forward, against 5 kg of gravity and 10 N of friction.
    assert!(worst < 1e-3, "tracking {:.3} mm", worst * 1e3);
    assert!(
        (state.lift.position).abs() < 2e-4,
        "{}",
        state.lift.position
    );
}

#[macro_use]
#[path = "../../../robot-collision/tests/support/folded_arm.rs"]
mod folded_arm;

folded!(Folded, false);
folded!(FoldedAllowed, false allow_contact base_fore { links: [base, fore] });

/// What a configured MuJoCo component of `R` reports about its home pose.
fn home_events<R: robot_core::RobotTypes>() -> Vec<String> {
    let component: Box<dyn Component<R>> = Box::new(MujocoSystem::<R>::new(MujocoOptions {
        model: ModelSource::Scene,
        ..MujocoOptions::default()
    }));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    system.report().into_iter().flat_map(|c| c.events).collect()
}

#[test]
fn an_overlap_at_the_home_pose_is_reported_with_both_bodies_and_its_depth() {
    let events = home_events::<Folded>();
    let [overlap] = &events[..] else {
        panic!("one overlap: {events:?}");
    };
    assert!(
        overlap.starts_with("at the home pose `base` and `fore` overlap by 4.0 mm"),
        "{overlap}"
    );
    assert!(
        overlap.contains("allow_contact base_fore { links: [base, fore] }"),
        "{overlap}"
    );
    // The lift's carriage has no collision shape of its own: nothing to report.
    assert!(home_events::<Lift>().is_empty());
}

#[test]
fn a_contact_the_definition_allows_is_excluded_and_not_reported() {
    let mjcf = robot_core::emit::mjcf(FoldedAllowed::DESCRIPTION).unwrap();
    assert!(
        mjcf.contains("<exclude name=\"base_fore\" body1=\"base\" body2=\"fore\"/>"),
        "{mjcf}"
    );
    assert!(home_events::<FoldedAllowed>().is_empty());
}
