//! The control path allocates nothing after activation with the IMU in it: lite_biped's whole
//! real path (two RobStride buses on simulated actuators, the IMU on a simulated device over a
//! pty), the squat, read → update → write for 400 cycles, counted by a global allocator on the
//! control thread (its own test binary). The reader thread allocates nothing either while
//! samples flow, but it is not the control thread: it is not counted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use alloc_counter::allocations;
use common::rig::{Rig, rig};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn read_update_write_with_the_imu_allocate_nothing_after_activation() {
    let mut rig = rig();
    rig.control_loop.configure().unwrap();
    rig.control_loop.activate(Rig::clock(0)).unwrap();
    // Warm up (first-touch paths), then count.
    for cycle in 1..10 {
        rig.advance();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
    }
    let mut counted = 0;
    for cycle in 10..410 {
        rig.advance();
        let before = allocations();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
        counted += allocations() - before;
    }
    assert_eq!(counted, 0, "{counted} allocations in 400 cycles");
    // The IMU was read: its state is the device's, not the NaN of an undriven sensor.
    let imu = rig.control_loop.state().base_imu;
    assert!(
        (imu.linear_acceleration.z - 9.80665).abs() < 0.01,
        "{imu:?}"
    );
    // The counter counts: a Vec allocates.
    let before = allocations();
    let v: Vec<u8> = Vec::with_capacity(16);
    drop(v);
    assert_eq!(allocations() - before, 1);
}
