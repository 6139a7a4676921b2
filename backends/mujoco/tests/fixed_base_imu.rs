//! An IMU on a robot with a fixed base reads specific force as a real one bolted to a pedestal
//! does: +g up. MuJoCo's accelerometer reads nothing on a body welded to the world (it computes
//! no acceleration there); the backend gives the specific force such a body has at rest. As on
//! every backend, readings are in the axes of the body the IMU is mounted on (the emitted site
//! undoes the mount's rotation, as the WitMotion component's mounting does on the real path), so
//! a tilted mount reads as a level one. (lite_biped's floating base on the stand: physics.rs.)
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use backend_mujoco::{MujocoOptions, MujocoSystem};
use robot_core::hardware::{Clock, Component, System};

robot_macros::robot! {
    robot Pedestal { update_rate: 200 Hz }
    bus b {}
    link base {
        inertial { mass: 5, inertia: [0.1, 0, 0, 0.1, 0, 0.1] },
        collision box { size: [0.2, 0.2, 0.1] },
    }
    link imu_level {}
    link imu_tilted {}
    link head {
        inertial { mass: 1, inertia: [0.01, 0, 0, 0.01, 0, 0.01] },
        collision sphere { radius: 0.05 },
    }
    joint level_mount: fixed { parent: base, child: imu_level, origin { xyz: [0, 0, 0.05] } }
    joint tilted_mount: fixed {
        parent: base,
        child: imu_tilted,
        origin { xyz: [0, 0.05, 0.05], rpy: [0.5, 0, 0] },
    }
    joint neck: revolute {
        parent: base, child: head, axis: [0, 0, 1],
        origin { xyz: [0, 0, 0.3] },
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    imu level { link: imu_level, plugin: "pkg/Imu" }
    imu tilted { link: imu_tilted, plugin: "pkg/Imu" }
}

const PERIOD: Duration = Duration::from_millis(5);

fn read_after(cycles: u32) -> PedestalState {
    let options = MujocoOptions {
        period: Some(PERIOD),
        ..MujocoOptions::default()
    };
    let component: Box<dyn Component<Pedestal>> = Box::new(MujocoSystem::<Pedestal>::new(options));
    let mut system = System::new(vec![component]).unwrap();
    system.configure().unwrap();
    let mut state = PedestalState::default();
    for k in 0..=cycles {
        let clock = Clock {
            time: PERIOD * k,
            period: PERIOD,
        };
        system.read(clock, &mut state).unwrap();
    }
    state
}

#[test]
fn an_imu_on_a_fixed_base_reads_gravity_up_in_its_own_axes() {
    assert!(!Pedestal::DESCRIPTION.floating_base);
    let state = read_after(20);
    let g = 9.81;
    let level = state.level.linear_acceleration;
    assert!(
        level.x.abs() < 1e-6 && level.y.abs() < 1e-6 && (level.z - g).abs() < 0.01,
        "{level:?}"
    );
    // Mounted rolled 0.5 rad: in the body's axes, the same reading and a level orientation.
    let tilted = state.tilted.linear_acceleration;
    assert!(
        tilted.x.abs() < 1e-6 && tilted.y.abs() < 1e-6 && (tilted.z - g).abs() < 0.01,
        "{tilted:?}"
    );
    let q = state.tilted.orientation;
    assert!((q.w.abs() - 1.0).abs() < 1e-9, "{q:?}");
    let w = state.level.angular_velocity;
    assert_eq!([w.x, w.y, w.z], [0.0; 3]);
}
