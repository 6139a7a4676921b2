//! Proof that the control path allocates nothing: after activation, 10,000 cycles of read, update
//! (the shipped squat controller) and write on the mock backend, counted by a global allocator.
//! Only allocations of the test's own thread are counted, so the test harness does not interfere.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::alloc::{GlobalAlloc, Layout, System as SystemAllocator};
use std::cell::Cell;
use std::time::Duration;

use backend_mock::MockSystem;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

struct Counting;

thread_local! {
    // Both per thread: the other test's allocations on its own thread must not count here.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if ARMED.with(Cell::get) {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as ours.
        unsafe { SystemAllocator.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { SystemAllocator.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as ours.
        unsafe { SystemAllocator.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    ARMED.with(|a| a.set(true));
    f();
    ARMED.with(|a| a.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

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
