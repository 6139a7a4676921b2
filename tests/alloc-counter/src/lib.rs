//! A global allocator that counts allocations, per thread, for the tests that show a control
//! cycle allocates nothing (`no_alloc.rs` of the mock, RobStride and MuJoCo backends and of the
//! loop). Each such test is a binary of its own, so the allocator is its alone:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;
//!
//! let n = alloc_counter::allocations_in(|| cycle());
//! assert_eq!(n, 0);
//! ```
//!
//! Only the calling thread's allocations are counted, so other tests running on other threads
//! of the harness do not show up. Every call is forwarded to the system allocator unchanged.
#![warn(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator: install it with `#[global_allocator]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // A const-initialised thread local with no destructor: touching it never allocates.
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

// SAFETY: forwards every call to the system allocator unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations (and reallocations) made on this thread so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations made on this thread while `f` ran.
pub fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = allocations();
    f();
    allocations() - before
}
