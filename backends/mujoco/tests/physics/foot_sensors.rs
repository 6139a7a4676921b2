//! Force/torque and contact sensors backed by MuJoCo: a block on a foot, hanging on the test
//! stand and then standing on the floor. The sensors must read what the physics says: in the air
//! no contact and the foot's own weight held by its parent; on the floor a contact carrying the
//! whole robot and the body's weight pressing on the foot.

use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_core::hardware::{Clock, Component, System};
use robot_macros::robot;

robot! {
    robot Stilt { update_rate: 200 Hz, floating_base: true }
    link body {
        inertial { mass: 2.0, com: [0, 0, 0.1], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
        collision box { size: [0.1, 0.1, 0.1], origin { xyz: [0, 0, 0.15] } }
    }
    link foot {
        inertial { mass: 0.5, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision box { size: [0.2, 0.2, 0.02] }
    }
    joint ankle: fixed { parent: body, child: foot }
    force_torque ankle_ft { link: foot, plugin: "test/Ft" }
    contact sole { link: foot, plugin: "test/Switch", threshold: 5 N }
}

const G: f64 = 9.81;
const PERIOD: Duration = Duration::from_millis(5);

/// The state after a second in `model`, the robot left alone.
fn settled(model: ModelSource) -> StiltState {
    let options = MujocoOptions {
        model,
        ..MujocoOptions::default()
    };
    let component: Box<dyn Component<Stilt>> = Box::new(MujocoSystem::<Stilt>::new(options));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    let (mut state, mut command) = (StiltState::default(), StiltCommand::default());
    let clock = |k: u32| Clock {
        time: PERIOD * k,
        period: PERIOD,
    };
    system.read(clock(0), &mut state).unwrap();
    system.activate(clock(0), &mut state, &mut command).unwrap();
    for k in 1..=200 {
        system.write(clock(k), &command).unwrap();
        system.read(clock(k + 1), &mut state).unwrap();
    }
    system.shutdown().unwrap();
    state
}

#[test]
fn in_the_air_no_contact_and_the_parent_holds_the_foots_weight() {
    let state = settled(ModelSource::Stand);
    eprintln!("stand: {:?} {:?}", state.ankle_ft, state.sole);
    assert_eq!(state.sole.contact, 0.0);
    assert_eq!(state.sole.normal_force, 0.0);
    let f = state.ankle_ft.force;
    // MuJoCo's force sensor: what the parent exerts on the foot, here holding up 0.5 kg.
    assert!((f.z - 0.5 * G).abs() < 0.05, "{f:?}");
    assert!(f.x.abs() < 1e-6 && f.y.abs() < 1e-6, "{f:?}");
    let t = state.ankle_ft.torque;
    assert!(
        t.x.abs() < 1e-6 && t.y.abs() < 1e-6 && t.z.abs() < 1e-6,
        "{t:?}"
    );
}

#[test]
fn on_the_floor_the_contact_carries_the_robot_and_the_body_presses_on_the_foot() {
    let state = settled(ModelSource::Scene);
    eprintln!("floor: {:?} {:?}", state.ankle_ft, state.sole);
    assert_eq!(state.sole.contact, 1.0);
    let weight = 2.5 * G;
    let n = state.sole.normal_force;
    assert!(
        (n - weight).abs() < 0.02 * weight,
        "{n} N, weight {weight} N"
    );
    let f = state.ankle_ft.force;
    // The body's 2 kg pushes down on the foot: the parent's force on it is now downward.
    assert!((f.z + 2.0 * G).abs() < 0.02 * 2.0 * G, "{f:?}");
}
