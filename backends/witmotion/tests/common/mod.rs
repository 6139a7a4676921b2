//! A lite_biped IMU component on a simulated device, driven through its lifecycle by hand.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use backend_witmotion::{Device, ImuOptions, WitmotionImu};
use robot_core::ImuState;
use robot_core::hardware::{Clock, Component, HardwareError};
use robot_core::typed::RobotTypes;
use robots::LiteBiped;
use witmotion_protocol::{BaudRate, OutputRate};
use witmotion_sim::{Settings, SimImu, SimOptions};

pub const BAUD: u32 = 460_800;

/// A device streaming what the component needs at 200 Hz, 460800 baud.
pub fn streaming() -> SimOptions {
    SimOptions::new(Settings::streaming(OutputRate::Hz200, BaudRate::B460800))
}

/// The options of lite_biped's IMU on `path`, with a shorter confirmation so tests run fast.
pub fn options(path: &str) -> ImuOptions {
    let mut options = ImuOptions::new(path, BAUD, 200);
    options.confirm_window = Duration::from_millis(300);
    options
}

/// The component of `R`'s first IMU on the simulated device `sim`, which the test keeps to steer
/// it.
pub fn component<R: RobotTypes>(sim: &SimImu, options: ImuOptions) -> WitmotionImu<R> {
    let path = sim.path().to_string();
    let sensor = &R::DESCRIPTION.sensors[0].name;
    WitmotionImu::<R>::with_device(sensor, options, move || {
        Ok(Device {
            path: path.clone(),
            keep_alive: None,
        })
    })
}

/// lite_biped's IMU state after one read.
pub fn read(imu: &mut WitmotionImu<LiteBiped>) -> Result<ImuState, HardwareError> {
    let mut state = <LiteBiped as RobotTypes>::State::default();
    imu.read(Clock::default(), &mut state)?;
    Ok(state.base_imu)
}

/// Reads until `f` returns true for a read, within `within`; returns the last read.
pub fn read_until(
    imu: &mut WitmotionImu<LiteBiped>,
    within: Duration,
    f: impl Fn(&Result<ImuState, HardwareError>) -> bool,
) -> Result<ImuState, HardwareError> {
    let end = std::time::Instant::now() + within;
    loop {
        let read = read(imu);
        if f(&read) || std::time::Instant::now() > end {
            return read;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub fn configured(sim: &SimImu) -> WitmotionImu<LiteBiped> {
    let mut imu = component::<LiteBiped>(sim, options(sim.path()));
    imu.on_init().unwrap();
    imu.on_configure().unwrap();
    imu
}

pub mod rig;
