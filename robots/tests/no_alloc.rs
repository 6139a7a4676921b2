//! Proof that the control path allocates nothing: after activation, 10,000 cycles of read, update
//! (the shipped squat controller) and write on the mock backend, counted by a global allocator.
//! Only allocations of the test's own thread are counted, so the test harness does not interfere.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations_in;
use backend_mock::MockSystem;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn the_counter_sees_an_allocation() {
    // Without this the test below could pass with a counter that never counts.
    let n = allocations_in(|| drop(std::hint::black_box(Box::new(42u64))));
    assert_eq!(n, 1);
}

#[test]
fn ten_thousand_active_cycles_allocate_nothing() {
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let system = System::new(components).unwrap();
    let mut control_loop = ControlLoop::new(system, Squat::default(), None);
    let period = control_loop.period();
    let mut clock = Clock {
        time: Duration::ZERO,
        period,
    };
    control_loop.configure().unwrap();
    control_loop.activate(clock).unwrap();
    let n = allocations_in(|| {
        for _ in 0..10_000 {
            clock.time += period;
            control_loop.cycle(clock).unwrap();
        }
    });
    assert_eq!(
        n, 0,
        "read, update or write allocated {n} times over 10,000 cycles"
    );
    // And the cycles did something: the squat has moved the knees.
    assert!(control_loop.state().left_knee_pitch.position > 0.0);
    assert!(control_loop.command().right_knee_pitch.stiffness > 0.0);
}
