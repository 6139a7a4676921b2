//! `read` and `write` never allocate: counted by a global allocator, on this thread only, over many
//! cycles of every mode the mock has (its own test binary, so nothing else shares the allocator).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations;
use backend_mock::MockSystem;
use robot_core::hardware::{Clock, Component, System};
use robot_core::model::MockParams;
use robot_core::{ContactState, ForceTorqueState, ImuState, RobotTypes};
use robots::{LiteBiped, SixAxisArm};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

const CLOCK: Clock = Clock {
    time: Duration::ZERO,
    period: Duration::from_millis(5),
};

/// Runs `cycles` active read + write cycles, changing every command slot each time, and returns
/// how many allocations they made.
fn cycles<R: RobotTypes>(mock: MockSystem<R>, cycles: u32, mut between: impl FnMut(u32)) -> u64 {
    use robot_core::Values;
    let mut system = System::new(vec![Box::new(mock) as Box<dyn Component<R>>]).unwrap();
    let (mut state, mut command) = (R::State::default(), R::Command::default());
    system.configure().unwrap();
    system.activate(CLOCK, &mut state, &mut command).unwrap();
    let before = allocations();
    for n in 0..cycles {
        between(n);
        for (i, v) in command.as_mut_slice().iter_mut().enumerate() {
            *v = 0.001 * f64::from(n) + 0.0001 * i as f64;
        }
        system.read(CLOCK, &mut state).unwrap();
        system.write(CLOCK, &command).unwrap();
    }
    allocations() - before
}

#[test]
fn read_and_write_never_allocate() {
    assert_eq!(
        cycles(MockSystem::<LiteBiped>::new(), 1000, |_| ()),
        0,
        "mirroring"
    );
    let dynamics = MockParams {
        calculate_dynamics: true,
        position_state_following_offset: 0.1,
        ..MockParams::DEFAULT
    };
    assert_eq!(
        cycles(MockSystem::<LiteBiped>::with_params(dynamics), 1000, |_| ()),
        0,
        "calculate_dynamics"
    );
    assert_eq!(
        cycles(MockSystem::<SixAxisArm>::new(), 1000, |_| ()),
        0,
        "mimic joints"
    );

    // Sensor values set between cycles (the setting may allocate; the reading must not).
    let sensors = MockParams {
        mock_sensor_commands: true,
        ..MockParams::DEFAULT
    };
    let mock = MockSystem::<LiteBiped>::with_params(sensors);
    let input = mock.sensor_input().unwrap();
    let mut setting = 0;
    let total = cycles(mock, 1000, |n| {
        let before = allocations();
        let mut imu = ImuState::default();
        imu.angular_velocity.x = f64::from(n);
        input.set_imu(0, imu).unwrap();
        setting += allocations() - before;
    });
    assert_eq!(total - setting, 0, "mock sensor commands");

    // Force/torque and contact sensors the same way.
    let mock = MockSystem::<Foot>::with_params(sensors);
    let input = mock.sensor_input().unwrap();
    let mut setting = 0;
    let total = cycles(mock, 1000, |n| {
        let before = allocations();
        let mut wrench = ForceTorqueState::default();
        wrench.force.z = -f64::from(n);
        input.set_force_torque(0, wrench).unwrap();
        let contact = ContactState {
            contact: f64::from(n % 2),
            normal_force: f64::from(n),
        };
        input.set_contact(1, contact).unwrap();
        setting += allocations() - before;
    });
    assert_eq!(total - setting, 0, "force/torque and contact sensors");
}

robot_macros::robot! {
    robot Foot { update_rate: 200 Hz }
    bus b {}
    link base {}
    link sole { collision box { size: [0.1, 0.05, 0.01] } }
    joint ankle: revolute {
        parent: base, child: sole,
        limits { lower: -1, upper: 1, velocity: 1, effort: 1 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    force_torque ankle_ft { link: sole, plugin: "test/Ft" }
    contact touch { link: sole, plugin: "test/Switch" }
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u8> = Vec::with_capacity(16);
    assert_eq!(allocations() - before, 1);
    drop(v);
}
