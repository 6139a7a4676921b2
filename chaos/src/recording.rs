//! `--record` under the schedules: the real recorder (its ring, its thread, its MCAP writer)
//! writing onto a disk of the schedule's size. Afterwards the file must read back, with the
//! streaming reader `robot plot` uses, as a gap-free prefix of the cycles the loop ran, stamped
//! on the simulated clock; a recording that did not fail must hold every cycle.
//!
//! The recorder runs on its own thread, so when it closes a chunk depends on timing: nothing of
//! the file goes into a schedule's digest, only whether the invariant held.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use robot_runtime::typed::RobotTypes;
use ros2_record::{RecordFile, RecordObserver, RecordOptions, Recorder};

use crate::schedule::Record;
use crate::violation::{Violation, add};

/// A disk that holds `left` more bytes (all it is given when `None`), then refuses as a full one.
struct Disk {
    file: File,
    left: Option<u64>,
}

impl Write for Disk {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let take = match self.left {
            Some(0) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "No space left on device (a full disk, simulated)",
                ));
            }
            Some(left) => bytes.len().min(usize::try_from(left).unwrap_or(usize::MAX)),
            None => bytes.len(),
        };
        let written = self.file.write(&bytes[..take])?;
        if let Some(left) = &mut self.left {
            *left -= written as u64;
        }
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// A recording in progress, and its file.
pub struct Recording {
    recorder: Recorder,
    path: PathBuf,
    disk: Option<u64>,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording")
            .field("path", &self.path)
            .field("disk", &self.disk)
            .finish()
    }
}

/// Disks smaller than this may not hold the file's header, schemas and first records: an
/// unreadable file is no violation there.
const HEADER_ROOM: u64 = 16 * 1024;

/// Starts recording robot `R` as `record` says, for a run of at most `cycles` cycles (the ring
/// holds them all, so none is dropped); `None` when it does not record, or the recorder could
/// not even start (a disk too small for the header: the run goes on without it).
pub fn start<R: RobotTypes>(record: Record, cycles: u32) -> Option<(Recording, RecordObserver<R>)> {
    static FILES: AtomicU64 = AtomicU64::new(0);
    let disk = match record {
        Record::Off => return None,
        Record::On => None,
        Record::DiskFull(bytes) => Some(u64::from(bytes)),
    };
    let path = std::env::temp_dir().join(format!(
        "robot-chaos-{}-{}.mcap",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    let file = File::create(&path).ok()?;
    let sink = RecordFile::with_sink(&path, Disk { file, left: disk });
    let options = RecordOptions {
        capacity: cycles as usize + 16,
        // A run takes milliseconds here: chunks closed as often as the thread looks, so that a
        // disk fills between chunks as well as inside one.
        flush_period: Duration::from_millis(1),
        sim_time: true,
        ..RecordOptions::new(R::DESCRIPTION.name.to_string(), String::new())
    };
    match Recorder::start::<R>(sink, options) {
        Ok((recorder, observer)) => Some((
            Recording {
                recorder,
                path,
                disk,
            },
            observer,
        )),
        Err(_) => {
            let _ = std::fs::remove_file(&path);
            None
        }
    }
}

impl Recording {
    /// Stops the recorder and judges the file against the `cycles` the loop ran at `period`.
    pub fn finish(self, cycles: u32, period: Duration) -> Vec<Violation> {
        let mut violations = Vec::new();
        let report = self.recorder.stop();
        let mut expected = 0_u64;
        let mut gap = None;
        let read = ros2_record::read::cycles(&self.path, |_, cycle| {
            let want = period.as_nanos() as u64 * expected;
            if gap.is_none() && cycle.stamp_ns != want {
                gap = Some((expected, cycle.stamp_ns, want));
            }
            expected += 1;
        });
        let _ = std::fs::remove_file(&self.path);
        const INVARIANT: &str = "a recording readable up to its last chunk";
        let disk = match self.disk {
            Some(bytes) => format!("a disk of {bytes} bytes"),
            None => "a disk with room".to_string(),
        };
        match read {
            Err(error) if self.disk.is_none_or(|bytes| bytes >= HEADER_ROOM) => {
                add(&mut violations, INVARIANT, format!("on {disk}: {error}"));
            }
            Err(_) => {}
            Ok(summary) => {
                if let Some((index, stamp, want)) = gap {
                    add(
                        &mut violations,
                        INVARIANT,
                        format!(
                            "on {disk}: cycle {index} is stamped {stamp} ns, not {want} ns: \
                             not the run's cycles in order"
                        ),
                    );
                }
                if summary.cycles > u64::from(cycles) {
                    add(
                        &mut violations,
                        INVARIANT,
                        format!(
                            "on {disk}: {} cycles read back, the loop ran {cycles}",
                            summary.cycles
                        ),
                    );
                }
                if report.error.is_none()
                    && (summary.cycles != u64::from(cycles) || summary.truncated.is_some())
                {
                    add(
                        &mut violations,
                        INVARIANT,
                        format!(
                            "on {disk}, the recorder reported no failure, yet {} of {cycles} \
                             cycles read back ({:?})",
                            summary.cycles, summary.truncated
                        ),
                    );
                }
            }
        }
        violations
    }
}
