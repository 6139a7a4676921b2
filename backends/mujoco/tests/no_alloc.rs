//! The control path of the MuJoCo backend allocates nothing after activation (force/torque and
//! contact sensors too, on a robot of their own): lite_biped in
//! MuJoCo, the squat, read → update → write (each read stepping the physics five times) for a
//! thousand cycles, counted by a global allocator on this thread (its own test binary). MuJoCo's
//! own memory is the arena its `mjData` was made with: `mj_step` takes no new memory from C
//! either, and none from Rust, which is what this counts.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations;
use backend_mujoco::{MujocoOptions, MujocoSystem};
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn read_update_write_allocate_nothing_after_activation() {
    let component: Box<dyn Component<LiteBiped>> =
        Box::new(MujocoSystem::<LiteBiped>::new(MujocoOptions::default()));
    let period = Duration::from_millis(5);
    let clock = |cycle: u32| Clock {
        time: period * cycle,
        period,
    };
    let mut control_loop = ControlLoop::new(
        System::new(vec![component]).unwrap(),
        Squat::default(),
        None,
    );
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    // Warm up (first-touch paths), then count.
    for cycle in 1..10 {
        control_loop.cycle(clock(cycle)).unwrap();
    }
    let before = allocations();
    let mut deepest_knee = f64::NEG_INFINITY;
    for cycle in 10..1010 {
        control_loop.cycle(clock(cycle)).unwrap();
        deepest_knee = deepest_knee.max(control_loop.state().left_knee_pitch.position);
    }
    let counted = allocations() - before;
    assert_eq!(counted, 0, "{counted} allocations in 1000 cycles");
    // The squat went down and up again in those 5 s, so the physics did work: the knees bent.
    assert!(deepest_knee > 0.5, "{deepest_knee}");
    // The counter counts: a Vec allocates.
    let before = allocations();
    let v: Vec<u8> = Vec::with_capacity(16);
    drop(v);
    assert_eq!(allocations() - before, 1);
}

robot_macros::robot! {
    /// A block on a foot with an ankle force/torque sensor and a sole of two touch sites.
    robot Stilt { update_rate: 200 Hz, floating_base: true }
    link body {
        inertial { mass: 2.0, com: [0, 0, 0.1], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    link foot {
        inertial { mass: 0.5, com: [0, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        collision box { size: [0.2, 0.2, 0.02] }
        collision sphere { radius: 0.02, origin { xyz: [0.1, 0, 0] } }
    }
    joint ankle: fixed { parent: body, child: foot }
    force_torque ankle_ft { link: foot, plugin: "test/Ft" }
    contact sole { link: foot, plugin: "test/Switch" }
}

#[test]
fn reading_force_torque_and_contact_sensors_allocates_nothing() {
    let component: Box<dyn Component<Stilt>> =
        Box::new(MujocoSystem::<Stilt>::new(MujocoOptions::default()));
    let mut system = System::new(vec![component]).unwrap();
    let (mut state, mut command) = (StiltState::default(), StiltCommand::default());
    let period = Duration::from_millis(5);
    let clock = |cycle: u32| Clock {
        time: period * cycle,
        period,
    };
    system.configure().unwrap();
    system.read(clock(0), &mut state).unwrap();
    system.activate(clock(0), &mut state, &mut command).unwrap();
    for cycle in 1..10 {
        system.write(clock(cycle), &command).unwrap();
        system.read(clock(cycle + 1), &mut state).unwrap();
    }
    let before = allocations();
    for cycle in 10..1010 {
        system.write(clock(cycle), &command).unwrap();
        system.read(clock(cycle + 1), &mut state).unwrap();
    }
    assert_eq!(allocations() - before, 0);
    // Standing on the floor: the sensors were read.
    assert_eq!(state.sole.contact, 1.0);
    assert!(state.ankle_ft.force.z < -15.0, "{:?}", state.ankle_ft);
}
