//! The control path of the MuJoCo backend allocates nothing after activation: lite_biped in
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
