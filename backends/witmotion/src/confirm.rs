//! What `on_configure` checks once the reader runs: that frames of every needed kind arrive at
//! the expected rate, naming what is missing and what to do.

use std::sync::atomic::Ordering;
use std::time::Duration;

use witmotion_protocol::{FrameKind, OutputContent};

use std::sync::Arc;

use crate::options::ImuOptions;
use crate::port::Port;
use crate::reader::ReaderFailure;

/// Why the frames were not confirmed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unconfirmed {
    /// The reader stopped meanwhile.
    #[error(transparent)]
    Reader(Arc<ReaderFailure>),
    /// The frames that came are not what the configuration asks for: what is missing and what
    /// to do.
    #[error("{0}")]
    Frames(String),
}

/// Frames a window may hold against the expected count: a device that lowered its rate for a
/// slow baud, or runs at another rate code, falls outside; scheduling jitter on a loaded host
/// stays inside.
const RATE_TOLERANCE: (f64, f64) = (0.7, 1.5);

/// How long the first bytes after opening or writing settings are left alone, so that a rate
/// change has taken hold before frames are counted.
pub(crate) const SETTLE: Duration = Duration::from_millis(60);

/// Counts frames for `options.confirm_window` and returns the kinds a sample needs: acceleration,
/// angular velocity, and the quaternion, or the angles when the device sends no quaternion.
pub(crate) fn needed_kinds(
    port: &mut Port,
    options: &ImuOptions,
) -> Result<OutputContent, Unconfirmed> {
    port.pause(SETTLE);
    let kinds = [
        FrameKind::Acceleration,
        FrameKind::AngularVelocity,
        FrameKind::Angle,
        FrameKind::Quaternion,
    ];
    let before = kinds.map(|k| port.shared().frames_of(k));
    let bytes_before = port.shared().bytes.load(Ordering::Relaxed);
    let started = port.now();
    port.pause(options.confirm_window);
    let shared = port.shared();
    if let Some(failure) = shared.failure() {
        return Err(Unconfirmed::Reader(failure));
    }
    let seconds = (port.now() - started).as_secs_f64();
    let rates: Vec<(FrameKind, f64)> = kinds
        .iter()
        .zip(before)
        .map(|(&k, b)| (k, (shared.frames_of(k) - b) as f64 / seconds))
        .collect();
    let rate_of = |kind: FrameKind| rates.iter().find(|(k, _)| *k == kind).map_or(0.0, |r| r.1);
    let bytes = shared.bytes.load(Ordering::Relaxed) - bytes_before;
    let port = &options.port;
    let baud = options.baud;
    if rates.iter().all(|(_, rate)| *rate == 0.0) {
        return Err(Unconfirmed::Frames(if bytes == 0 {
            format!(
                "`{port}` is silent: no byte in {seconds:.1} s at {baud} baud. Is the IMU \
                 powered, is this its port (`ls /dev/serial/by-id`), and is its output not \
                 stopped (`robot imu scan --port {port}`)?"
            )
        } else {
            format!(
                "`{port}` sent {bytes} bytes in {seconds:.1} s at {baud} baud but not one valid \
                 frame: the device is at another baud rate, or speaks another protocol. \
                 `robot imu scan --port {port}` tries every rate; then set the configured baud \
                 (`imus.<imu>.baud`)"
            )
        }));
    }
    let orientation = if rate_of(FrameKind::Quaternion) > 0.0 {
        FrameKind::Quaternion
    } else {
        FrameKind::Angle
    };
    let needed = [
        FrameKind::Acceleration,
        FrameKind::AngularVelocity,
        orientation,
    ];
    let expected = f64::from(options.rate_hz);
    let found = rates
        .iter()
        .filter(|(_, rate)| *rate > 0.0)
        .map(|(k, rate)| format!("{} {rate:.0} Hz", k.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let fix = format!(
        "`robot imu set-content --port {port} acceleration,angular_velocity,quaternion` and \
         `robot imu set-rate --port {port} {}`, then `robot imu save`; or let configure write \
         them (`configure_device: true`)",
        options.rate_hz
    );
    let missing: Vec<&str> = needed
        .iter()
        .filter(|&&k| rate_of(k) == 0.0)
        .map(|k| match k {
            FrameKind::Angle => "orientation (quaternion 0x59 or angle 0x53)",
            other => other.name(),
        })
        .collect();
    if !missing.is_empty() {
        return Err(Unconfirmed::Frames(format!(
            "`{port}` sends no {} frames (in {seconds:.1} s it sent {found}): {fix}",
            missing.join(" or ")
        )));
    }
    let off_rate: Vec<String> = needed
        .iter()
        .map(|&k| (k, rate_of(k)))
        .filter(|(_, rate)| {
            !(expected * RATE_TOLERANCE.0..=expected * RATE_TOLERANCE.1).contains(rate)
        })
        .map(|(k, rate)| format!("{} at {rate:.0} Hz", k.name()))
        .collect();
    if !off_rate.is_empty() {
        return Err(Unconfirmed::Frames(format!(
            "`{port}` sends {}, expected {} Hz (`imus.<imu>.rate_hz`): {fix}",
            off_rate.join(", "),
            options.rate_hz
        )));
    }
    Ok(needed
        .iter()
        .fold(OutputContent::NONE, |content, &k| content.with(k)))
}
