//! One `read` of lite_biped's IMU component on the control thread, with a simulated device
//! streaming at 200 Hz over a real pseudo-terminal: the newest sample loaded from the handoff,
//! its age checked against the clock, turned into the body's axes and copied into the state.
//! The reader thread parses meanwhile, as it would on the robot. Target: at most 1 µs.
//!
//! ```sh
//! cargo bench -p backend-witmotion --bench read -- --warm-up-time 1 --measurement-time 3
//! ```
#![allow(clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;

use backend_witmotion::{Device, ImuOptions, WitmotionImu};
use criterion::{Criterion, criterion_group, criterion_main};
use robot_core::hardware::{Clock, Component};
use robots::{LiteBiped, LiteBipedState};
use witmotion_protocol::{BaudRate, OutputRate};
use witmotion_sim::{Settings, SimImu, SimOptions};

fn bench(c: &mut Criterion) {
    let sim = SimImu::spawn(SimOptions::new(Settings::streaming(
        OutputRate::Hz200,
        BaudRate::B460800,
    )))
    .expect("a pty");
    let path = sim.path().to_string();
    let mut options = ImuOptions::new(&path, 460_800, 200);
    // Criterion's own pauses are not the device's: samples may age between batches.
    options.max_age = std::time::Duration::from_secs(10);
    let mut imu = WitmotionImu::<LiteBiped>::with_device("base_imu", options, move || {
        Ok(Device {
            path: path.clone(),
            keep_alive: None,
        })
    });
    imu.on_init().expect("init");
    imu.on_configure().expect("configure");
    let mut state = LiteBipedState::default();
    let clock = Clock::default();
    c.bench_function("imu_read", |b| {
        b.iter(|| {
            imu.read(clock, black_box(&mut state)).expect("read");
        })
    });
    black_box(state.base_imu);
}

criterion_group!(benches, bench);
criterion_main!(benches);
