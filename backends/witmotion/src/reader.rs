//! The reader thread: it owns the port's read side, waits for bytes (at most 10 ms
//! at a time, so that it notices being stopped), parses them, puts
//! the frames of one sample together and publishes each complete sample through `Latest`.
//!
//! It ends when asked to (`Reader::stop`, which joins it), or on its own when the port fails
//! (end of file, `EIO` or a hang-up: unplugged), when the stream is corrupt beyond the bound
//! ([`Corruption`]), or if it panics: each of those leaves a failure that the
//! component's next `read` returns as an error, so the loop switches everything off.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use serialport::TTYPort;
use witmotion_protocol::{FrameKind, OutputContent, Parser, Quaternion, Reading};

use crate::handoff::{Latest, Sample};

/// The frame kinds, by `kind as u8 - 0x50`: indices into the per-kind counters (0x5F, the
/// register values, is 15).
pub(crate) const KIND_SLOTS: usize = 16;

pub(crate) fn slot(kind: FrameKind) -> usize {
    usize::from(kind as u8 - FrameKind::Time as u8) % KIND_SLOTS
}

/// The bound on corrupted frames: more than `failures` of `window` candidate frames (valid or
/// failing their checksum) ends the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corruption {
    /// Candidates per window.
    pub window: u64,
    /// Failures a window may hold.
    pub failures: u64,
}

impl Default for Corruption {
    /// 5 %: a clean USB link loses no frame, one with a loose connector or the wrong baud loses
    /// many; 10 of 200 is 1/3 s at 200 Hz with three frames a sample.
    fn default() -> Self {
        Corruption {
            window: 200,
            failures: 10,
        }
    }
}

/// What the reader thread and the component share.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub(crate) latest: Latest,
    /// The kinds a sample needs, as [`OutputContent`] bits; 0 publishes nothing.
    pub(crate) needed: AtomicU16,
    /// Valid frames per kind.
    pub(crate) frames: [AtomicU64; KIND_SLOTS],
    /// When each kind's last frame arrived, ns since the epoch (0: never).
    pub(crate) last_ns: [AtomicU64; KIND_SLOTS],
    pub(crate) checksum_failures: AtomicU64,
    pub(crate) unknown_types: AtomicU64,
    pub(crate) skipped_bytes: AtomicU64,
    pub(crate) bytes: AtomicU64,
    /// Frames that passed their checksum but not decoding (a quaternion whose norm is off 1).
    pub(crate) rejected: AtomicU64,
    /// Set once, when the thread ends on its own; [`Shared::failure`] says why.
    pub(crate) failed: AtomicBool,
    pub(crate) failure: Mutex<Option<Arc<ReaderFailure>>>,
    stop: AtomicBool,
}

/// Why the reader thread ended on its own.
#[derive(Debug, thiserror::Error)]
pub enum ReaderFailure {
    /// The port reached its end: the device went away.
    #[error("`{port}` closed (end of file): was the IMU unplugged?")]
    Closed {
        /// The port.
        port: String,
    },
    /// Reading the port failed.
    #[error("reading `{port}` failed: was the IMU unplugged?")]
    Read {
        /// The port.
        port: String,
        /// What the system said.
        #[source]
        cause: std::io::Error,
    },
    /// Too many frames failed their checksum or decoding.
    #[error(
        "`{port}` is corrupt: {failed} of the last {seen} frames failed their checksum or \
         decoding (bound: {bound} of {window}); a loose connector, electrical noise, or a baud \
         rate that is not the device's"
    )]
    Corrupt {
        /// The port.
        port: String,
        /// Frames that failed in the window.
        failed: u64,
        /// Frames seen in the window.
        seen: u64,
        /// The bound's failures and window ([`Corruption`]).
        bound: u64,
        /// The bound's window.
        window: u64,
    },
    /// The reader thread panicked.
    #[error("its reader thread panicked")]
    Panicked,
}

impl Shared {
    pub(crate) fn fail(&self, why: ReaderFailure) {
        let mut failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
        if failure.is_none() {
            *failure = Some(Arc::new(why));
        }
        self.failed.store(true, Ordering::Release);
    }

    /// Whether the reader has failed (allocates nothing).
    pub(crate) fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Why the thread ended on its own, if it did.
    pub(crate) fn failure(&self) -> Option<Arc<ReaderFailure>> {
        if !self.failed.load(Ordering::Acquire) {
            return None;
        }
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn frames_of(&self, kind: FrameKind) -> u64 {
        self.frames[slot(kind)].load(Ordering::Relaxed)
    }
}

/// A running reader thread.
#[derive(Debug)]
pub(crate) struct Reader {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Reader {
    /// Starts reading `port` (named `name` in messages), timestamps since `epoch`.
    pub(crate) fn spawn(
        port: TTYPort,
        name: String,
        epoch: Instant,
        corruption: Corruption,
    ) -> std::io::Result<Reader> {
        let shared = Arc::new(Shared::default());
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("imu-reader".to_string())
                .spawn(move || {
                    let guard = FailOnPanic(&shared);
                    run(port, &name, epoch, corruption, &shared);
                    std::mem::forget(guard);
                })?
        };
        Ok(Reader {
            shared,
            thread: Some(thread),
        })
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Asks the thread to end and waits for it (at most one read wait).
    pub(crate) fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Marks the reader failed if its thread unwinds.
struct FailOnPanic<'a>(&'a Shared);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        self.0.fail(ReaderFailure::Panicked);
    }
}

fn run(mut port: TTYPort, name: &str, epoch: Instant, corruption: Corruption, shared: &Shared) {
    let mut pump = Pump::default();
    let mut buffer = [0u8; 512];
    while !shared.stop.load(Ordering::Acquire) {
        let count = match port.read(&mut buffer) {
            Ok(0) => {
                shared.fail(ReaderFailure::Closed {
                    port: name.to_string(),
                });
                return;
            }
            Ok(count) => count,
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted
                ) =>
            {
                continue;
            }
            Err(cause) => {
                shared.fail(ReaderFailure::Read {
                    port: name.to_string(),
                    cause,
                });
                return;
            }
        };
        let now = epoch.elapsed().as_nanos() as u64;
        if let Err(failure) = pump.take(&buffer[..count], now, corruption, name, shared) {
            shared.fail(failure);
            return;
        }
    }
}

/// What becomes of the bytes read: frames parsed, counted, put together into samples and
/// published; the corruption bound kept. The reader thread runs one; a device read on the
/// control thread ([`crate::link`]) another.
#[derive(Debug, Default)]
pub(crate) struct Pump {
    parser: Parser,
    assembly: Assembly,
    /// (candidates, failures) at the corruption window's start.
    window: (u64, u64),
}

impl Pump {
    /// Takes `bytes`, which arrived at `now` (ns since the epoch). Fails when the stream is
    /// corrupt beyond `corruption`: the reader is then done.
    pub(crate) fn take(
        &mut self,
        bytes: &[u8],
        now: u64,
        corruption: Corruption,
        name: &str,
        shared: &Shared,
    ) -> Result<(), ReaderFailure> {
        let needed = OutputContent::from_bits(shared.needed.load(Ordering::Relaxed));
        for frame in self.parser.push(bytes) {
            let kind = frame.kind();
            shared.frames[slot(kind)].fetch_add(1, Ordering::Relaxed);
            shared.last_ns[slot(kind)].store(now, Ordering::Relaxed);
            match Reading::decode(&frame) {
                Ok(reading) => {
                    if let Some(sample) = self.assembly.take(reading, now, needed) {
                        shared.latest.store(sample);
                    }
                }
                Err(_) => {
                    shared.rejected.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let counters = self.parser.counters();
        shared
            .bytes
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        shared
            .checksum_failures
            .store(counters.checksum_failures, Ordering::Relaxed);
        shared
            .unknown_types
            .store(counters.unknown_types, Ordering::Relaxed);
        shared
            .skipped_bytes
            .store(counters.skipped_bytes, Ordering::Relaxed);
        let failures = counters.checksum_failures + shared.rejected.load(Ordering::Relaxed);
        let candidates = counters.frames + counters.checksum_failures;
        if candidates - self.window.0 >= corruption.window {
            let (seen, failed) = (candidates - self.window.0, failures - self.window.1);
            if failed > corruption.failures {
                return Err(ReaderFailure::Corrupt {
                    port: name.to_string(),
                    failed,
                    seen,
                    bound: corruption.failures,
                    window: corruption.window,
                });
            }
            self.window = (candidates, failures);
        }
        Ok(())
    }
}

/// The frames of the sample being put together.
#[derive(Debug, Default)]
struct Assembly {
    orientation: Quaternion,
    angular_velocity: [f32; 3],
    acceleration: [f32; 3],
    /// When each kind's newest frame arrived, by [`slot`].
    arrived: [u64; KIND_SLOTS],
    /// The needed kinds received since the last sample was published, as [`OutputContent`]
    /// bits.
    seen: u16,
    published: u64,
}

impl Assembly {
    /// Takes one reading; returns a sample when every `needed` kind has arrived since the last,
    /// dated by the oldest of its parts (each the newest of its kind).
    fn take(&mut self, reading: Reading, now: u64, needed: OutputContent) -> Option<Sample> {
        match reading {
            Reading::Acceleration(a) => self.acceleration = [a.x, a.y, a.z],
            Reading::AngularVelocity(w) => self.angular_velocity = [w.x, w.y, w.z],
            Reading::Quaternion(q) => self.orientation = q,
            // Angles stand in for the quaternion only when the quaternion is not needed.
            Reading::Angle(angle) if !needed.contains(FrameKind::Quaternion) => {
                self.orientation = angle.to_quaternion();
            }
            _ => return None,
        }
        let kind = reading.kind();
        self.arrived[slot(kind)] = now;
        if !needed.contains(kind) {
            return None;
        }
        self.seen |= OutputContent::bit(kind).unwrap_or(0);
        if self.seen & needed.bits() != needed.bits() {
            return None;
        }
        self.seen = 0;
        self.published += 1;
        let oldest = FrameKind::ALL
            .iter()
            .filter(|&&k| needed.contains(k))
            .map(|&k| self.arrived[slot(k)])
            .min()
            .unwrap_or(now);
        Some(Sample {
            orientation: self.orientation,
            angular_velocity: self.angular_velocity,
            acceleration: self.acceleration,
            arrived_ns: oldest,
            number: self.published,
        })
    }
}

#[cfg(test)]
mod tests {
    use witmotion_protocol::{Acceleration, Angle, AngularVelocity};

    use super::*;

    fn needed() -> OutputContent {
        OutputContent::NONE
            .with(FrameKind::Acceleration)
            .with(FrameKind::AngularVelocity)
            .with(FrameKind::Quaternion)
    }

    #[test]
    fn a_sample_is_published_once_every_needed_kind_arrived_and_dates_from_the_first() {
        let mut assembly = Assembly::default();
        let a = Reading::Acceleration(Acceleration {
            z: 9.8,
            ..Default::default()
        });
        let w = Reading::AngularVelocity(AngularVelocity::default());
        let q = Reading::Quaternion(Quaternion::IDENTITY);
        assert_eq!(assembly.take(a, 10, needed()), None);
        assert_eq!(assembly.take(w, 11, needed()), None);
        // Angles are not needed when the quaternion is, and the magnetic field never.
        assert_eq!(
            assembly.take(Reading::Angle(Angle::default()), 12, needed()),
            None
        );
        let sample = assembly.take(q, 13, needed()).unwrap();
        assert_eq!((sample.arrived_ns, sample.number), (10, 1));
        assert_eq!(sample.acceleration, [0.0, 0.0, 9.8]);
        // Nothing is published while no kind is needed.
        assert_eq!(assembly.take(a, 20, OutputContent::NONE), None);
    }

    #[test]
    fn angles_give_the_orientation_when_no_quaternion_is_needed() {
        let mut assembly = Assembly::default();
        let needed = OutputContent::NONE
            .with(FrameKind::Acceleration)
            .with(FrameKind::AngularVelocity)
            .with(FrameKind::Angle);
        let angle = Angle {
            roll: 0.5,
            ..Default::default()
        };
        for reading in [
            Reading::Acceleration(Acceleration::default()),
            Reading::AngularVelocity(AngularVelocity::default()),
        ] {
            assert_eq!(assembly.take(reading, 1, needed), None);
        }
        let sample = assembly.take(Reading::Angle(angle), 2, needed).unwrap();
        assert!(sample.orientation.angle_to(angle.to_quaternion()) < 1e-6);
    }
}
