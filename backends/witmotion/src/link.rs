//! A device read on the control thread instead of a serial port with its reader thread: what a
//! deterministic simulation drives (`robot chaos`, whose simulated IMU lives in process on the
//! simulation's clock). The component takes the bytes that arrived at each `read`, through the
//! same parsing, assembly, corruption bound and staleness rule as the reader thread's, and
//! stamps them with the link's clock; its waits (settling, the confirm window, the pause after a
//! configuration write) are the link's too, so they cost no wall time.

use std::time::Duration;

/// A byte link to an IMU with a clock of its own.
pub trait Link: Send {
    /// Takes what has arrived into `buffer`, without waiting: the count, 0 when nothing has. An
    /// error is the port failing (`EIO`: unplugged).
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize>;

    /// Sends `bytes` to the device.
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()>;

    /// The link's clock, since a fixed start.
    fn now(&self) -> Duration;

    /// Lets `pause` pass on the link's clock.
    fn pause(&mut self, pause: Duration);
}
