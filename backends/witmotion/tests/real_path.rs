//! The IMU beside the RobStride buses in one `System`, as `robot run` drives lite_biped's real
//! path: a stale, unplugged or corrupt IMU ends the run like a silent motor, every bus switched
//! off.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::rig::{Rig, rig};
use robot_core::control_loop::Fault;
use robot_core::hardware::{ErrorKind, HardwareError, Lifecycle};
use robstride_sim::SimActuator;
use witmotion_sim::Failure;

/// Runs 50 good cycles, makes the IMU fail, and returns the error the loop ended with after
/// checking that no component stayed active and no motor enabled.
fn run_until_the_imu_fails(failure: Failure) -> HardwareError {
    let mut rig = rig();
    rig.control_loop.configure().unwrap();
    rig.control_loop.activate(Rig::clock(0)).unwrap();
    for cycle in 1..50 {
        rig.advance();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
    }
    let imu = rig.control_loop.state().base_imu;
    assert!(
        (imu.linear_acceleration.z - 9.80665).abs() < 0.0981,
        "{imu:?}"
    );
    rig.imu.set_failure(Some(failure));
    let mut fault = None;
    for cycle in 50..2000 {
        rig.advance();
        if let Err(f) = rig.control_loop.cycle(Rig::clock(cycle)) {
            fault = Some(f);
            break;
        }
    }
    let Some(Fault::Hardware(error)) = fault else {
        panic!("{failure:?}: no hardware fault: {fault:?}")
    };
    for (name, state) in rig.control_loop.system().states() {
        assert_ne!(
            state,
            Lifecycle::Active,
            "{failure:?}: {name} is still active"
        );
    }
    for (bus, nodes) in &rig.buses {
        for (_, node) in nodes {
            let enabled = bus.with_node(*node, |m: &mut SimActuator| m.enabled());
            assert_eq!(
                enabled,
                Some(false),
                "{failure:?}: a motor of {}",
                bus.name()
            );
        }
    }
    error
}

#[test]
fn a_silent_imu_ends_the_run_as_a_timeout_and_every_bus_is_switched_off() {
    let error = run_until_the_imu_fails(Failure::Silent);
    assert_eq!(error.component(), "LiteBipedIMU");
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
}

#[test]
fn an_unplugged_imu_ends_the_run_and_every_bus_is_switched_off() {
    let error = run_until_the_imu_fails(Failure::Unplugged);
    assert_eq!(error.component(), "LiteBipedIMU");
    assert!(
        format!("{error:#}").contains("was the IMU unplugged?"),
        "{error:#}"
    );
}

#[test]
fn a_corrupt_imu_ends_the_run_and_every_bus_is_switched_off() {
    let error = run_until_the_imu_fails(Failure::FlipBit { every: 2 });
    assert_eq!(error.component(), "LiteBipedIMU");
    assert!(
        matches!(error.kind(), ErrorKind::Bus | ErrorKind::Timeout),
        "{error}"
    );
}
