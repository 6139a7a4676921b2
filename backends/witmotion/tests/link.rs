//! The component on a link read on the control thread ([`backend_witmotion::link`]), against the
//! simulated device in process on a clock the test moves: no pseudo-terminal, no thread, no
//! wall time. The same rules as on a serial port: confirmation, gravity at rest, staleness,
//! corruption, unplugging.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backend_witmotion::{Link, WitmotionImu};
use common::*;
use robot_core::hardware::{Component, ErrorKind};
use robots::LiteBiped;
use witmotion_protocol::scale::STANDARD_GRAVITY;
use witmotion_sim::{Failure, InProcessImu};

/// The device, shared with the test, which steers it.
#[derive(Clone)]
struct Shared(Arc<Mutex<InProcessImu>>);

impl Link for Shared {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().read(buffer)
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.lock().unwrap().write(bytes)
    }

    fn now(&self) -> Duration {
        self.0.lock().unwrap().now()
    }

    fn pause(&mut self, pause: Duration) {
        let mut imu = self.0.lock().unwrap();
        let now = imu.now() + pause;
        imu.advance(now);
    }
}

fn configured() -> (WitmotionImu<LiteBiped>, Shared) {
    let device = Shared(Arc::new(Mutex::new(InProcessImu::new(streaming()))));
    let link = device.clone();
    let mut imu = WitmotionImu::<LiteBiped>::with_link("base_imu", options("sim"), move || {
        Ok(Box::new(link.clone()))
    });
    imu.on_init().unwrap();
    let started = Instant::now();
    imu.on_configure().unwrap();
    // The settling and the confirm window (60 + 300 ms) passed on the device's clock only.
    assert!(started.elapsed() < Duration::from_millis(100));
    assert!(
        device.now() >= Duration::from_millis(360),
        "{:?}",
        device.now()
    );
    (imu, device)
}

#[test]
fn configured_on_a_link_it_reads_gravity_at_rest_on_the_links_clock() {
    let (mut imu, mut device) = configured();
    let a = read(&mut imu).unwrap().linear_acceleration;
    let g = f64::from(STANDARD_GRAVITY);
    assert!((a.z - g).abs() < 0.01 * g, "{a:?}");
    // Moving on with the device: fresh samples every period.
    for _ in 0..20 {
        device.pause(Duration::from_millis(5));
        read(&mut imu).unwrap();
    }
}

#[test]
fn a_silent_device_goes_stale_after_its_bound_on_the_links_clock() {
    let (mut imu, mut device) = configured();
    device.0.lock().unwrap().set_failure(Some(Failure::Silent));
    device.pause(Duration::from_millis(30));
    read(&mut imu).unwrap();
    device.pause(Duration::from_millis(30));
    let error = read(&mut imu).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert!(error.to_string().contains("ms old"), "{error}");
}

#[test]
fn a_corrupt_or_unplugged_device_ends_the_reads_naming_why() {
    let (mut imu, mut device) = configured();
    device
        .0
        .lock()
        .unwrap()
        .set_failure(Some(Failure::FlipBit { every: 2 }));
    device.pause(Duration::from_millis(500));
    let error = anyhow_like(read(&mut imu).unwrap_err());
    assert!(error.contains("is corrupt"), "{error}");

    let (mut imu, mut device) = configured();
    device
        .0
        .lock()
        .unwrap()
        .set_failure(Some(Failure::Unplugged));
    device.pause(Duration::from_millis(5));
    let error = read(&mut imu).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Bus);
    assert!(anyhow_like(error).contains("unplugged"));
}

/// The error and its causes, as one line.
fn anyhow_like(error: impl std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
