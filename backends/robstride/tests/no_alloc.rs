//! The control path of the RobStride backend allocates nothing after activation: lite_biped's
//! two bus components, their 14 simulated actuators, the squat, read → update → write for a
//! thousand cycles, counted by a global allocator on this thread (its own test binary).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations;
use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn read_update_write_allocate_nothing_after_activation() {
    let robot = LiteBiped::DESCRIPTION;
    let mut buses = Vec::new();
    let mut components: Vec<Box<dyn Component<LiteBiped>>> = Vec::new();
    for bus in robot.buses.iter() {
        let sim = SimBus::new(&bus.name);
        attach_actuators(robot, &bus.name, None, &sim);
        let host = sim.clone();
        components.push(Box::new(RobstrideBus::<LiteBiped>::new(
            &bus.name,
            None,
            BusOptions::default(),
            move || Ok(Box::new(host.host()) as Box<dyn Transport>),
        )));
        buses.push(sim);
    }
    let period = Duration::from_millis(5);
    let clock = |cycle: u32| Clock {
        time: period * cycle,
        period,
    };
    let mut control_loop =
        ControlLoop::new(System::new(components).unwrap(), Squat::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    // Warm up (first-touch paths), then count.
    for cycle in 1..10 {
        control_loop.cycle(clock(cycle)).unwrap();
    }
    let before = allocations();
    for cycle in 10..1010 {
        for bus in &buses {
            bus.advance(period);
        }
        control_loop.cycle(clock(cycle)).unwrap();
    }
    let counted = allocations() - before;
    assert_eq!(counted, 0, "{counted} allocations in 1000 cycles");
    // The counter counts: a Vec allocates.
    let before = allocations();
    let v: Vec<u8> = Vec::with_capacity(16);
    drop(v);
    assert_eq!(allocations() - before, 1);
}
