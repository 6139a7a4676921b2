//! The recording thread: takes every snapshot the observer pushed, in order, and writes it;
//! closes a chunk at least every flush period; at the end writes the summary. A write that
//! fails (a full disk) ends the recording, never the run: later cycles are counted as lost.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use robot_runtime::typed::RobotTypes;

use crate::observer::{Incoming, RecordObserver, ring};
use crate::writer::{DEFAULT_FLUSH_PERIOD, McapRecording, RecordError};

/// Snapshots the ring holds: 4 s of a 1 kHz loop, for a writer held up by the disk.
pub const DEFAULT_CAPACITY: usize = 4096;
/// How long the thread sleeps when the ring is empty.
const POLL: Duration = Duration::from_millis(5);

/// A file created for a recording, before the run: a path that cannot be written is refused
/// here, naming it, before any hardware is configured.
pub struct RecordFile {
    file: Box<dyn Write + Send>,
    path: PathBuf,
}

impl std::fmt::Debug for RecordFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordFile")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl RecordFile {
    /// Creates (or truncates) `path`.
    pub fn create(path: &Path) -> Result<RecordFile, RecordError> {
        let file = File::create(path).map_err(|source| RecordError::Create {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(RecordFile {
            file: Box::new(file),
            path: path.to_path_buf(),
        })
    }

    /// A recording into `sink`, named `path` in messages: for a supervisor that gives the
    /// recorder a disk of its own (`robot chaos` fills one up).
    pub fn with_sink(path: &Path, sink: impl Write + Send + 'static) -> RecordFile {
        RecordFile {
            file: Box::new(sink),
            path: path.to_path_buf(),
        }
    }

    /// The path it was created at.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// What to record besides the cycles.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordOptions {
    /// What ran where (`lite_biped on mock`): the title `robot plot` gives the picture.
    pub title: String,
    /// The URDF `/robot_description` carries.
    pub robot_description: String,
    /// Snapshots the ring holds ([`DEFAULT_CAPACITY`]).
    pub capacity: usize,
    /// A chunk is closed at least this often, bounding what a kill loses.
    pub flush_period: Duration,
    /// Stamps (and log times) on the simulated clock from zero, as `/clock` runs, rather than
    /// the wall clock: on a simulated backend.
    pub sim_time: bool,
}

impl RecordOptions {
    /// The defaults, with `title` and `robot_description`.
    pub fn new(title: String, robot_description: String) -> RecordOptions {
        RecordOptions {
            title,
            robot_description,
            capacity: DEFAULT_CAPACITY,
            flush_period: DEFAULT_FLUSH_PERIOD,
            sim_time: false,
        }
    }
}

/// How the recording went.
#[derive(Debug)]
pub struct RecordReport {
    /// The file.
    pub path: PathBuf,
    /// Cycles handed to the writer (on a failure, those of the chunk it was building are not
    /// in the file).
    pub recorded: u64,
    /// Cycles dropped because the writer was a whole ring behind.
    pub dropped: u64,
    /// Cycles after a write failed, not written.
    pub lost: u64,
    /// The failure that ended the recording early, if one did.
    pub error: Option<RecordError>,
}

impl std::fmt::Display for RecordReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.error {
            None => write!(
                f,
                "recorded {} cycles into {}",
                self.recorded,
                self.path.display()
            )?,
            Some(error) => write!(
                f,
                "the recording ended early after {} cycles: {error}; the run went on, {} more cycles were not recorded (the file is readable up to its last complete chunk)",
                self.recorded, self.lost
            )?,
        }
        if self.dropped > 0 {
            write!(
                f,
                "; {} cycles dropped (the writer fell behind)",
                self.dropped
            )?;
        }
        Ok(())
    }
}

/// The recording thread, until stopped or dropped.
#[derive(Debug)]
pub struct Recorder {
    stop: Arc<AtomicBool>,
    failure: Arc<OnceLock<String>>,
    dropped: Arc<AtomicU64>,
    thread: Option<JoinHandle<RecordReport>>,
    path: PathBuf,
}

impl Recorder {
    /// Starts recording robot `R` into `file`; returns the recorder and the observer to attach
    /// to the loop.
    pub fn start<R: RobotTypes>(
        file: RecordFile,
        options: RecordOptions,
    ) -> Result<(Recorder, RecordObserver<R>), RecordError> {
        let RecordFile { file, path } = file;
        // Buffered chunks reach the file whole; the BufWriter only gathers the small records
        // between them, and is flushed with each chunk.
        let recording = McapRecording::<R, _>::new(
            BufWriter::new(file),
            &path,
            &options.title,
            options.robot_description,
        )?;
        let (observer, incoming) = ring::<R>(options.capacity, options.sim_time);
        let dropped = Arc::clone(&incoming.dropped);
        let Incoming {
            snapshots: mut incoming,
            health: mut healths,
            names,
            ..
        } = incoming;
        let stop = Arc::new(AtomicBool::new(false));
        let failure = Arc::new(OnceLock::new());
        let (thread_stop, thread_failure) = (Arc::clone(&stop), Arc::clone(&failure));
        let thread_path = path.clone();
        let flush_period = options.flush_period;
        let thread = std::thread::Builder::new()
            .name("ros2-record".into())
            .spawn(move || {
                let mut report = RecordReport {
                    path: thread_path,
                    recorded: 0,
                    dropped: 0,
                    lost: 0,
                    error: None,
                };
                let mut recording = Some(recording);
                let mut flushed = Instant::now();
                loop {
                    // Read before draining: once the loop has stopped, this drain takes all.
                    let stopping = thread_stop.load(Ordering::Acquire);
                    let mut took = false;
                    while let Ok(snapshot) = incoming.pop() {
                        took = true;
                        let Some(writing) = recording.as_mut() else {
                            report.lost += 1;
                            continue;
                        };
                        match writing.write(&snapshot) {
                            Ok(()) => report.recorded += 1,
                            Err(error) => {
                                let _ = thread_failure.set(error.to_string());
                                report.error = Some(error);
                                report.lost += 1;
                                recording = None;
                            }
                        }
                    }
                    while let Ok(health) = healths.pop() {
                        let names = names.get().map_or(&[][..], Vec::as_slice);
                        if let Some(writing) = recording.as_mut()
                            && let Err(error) = writing.write_diagnostics(&health, names)
                        {
                            let _ = thread_failure.set(error.to_string());
                            report.error = Some(error);
                            recording = None;
                        }
                    }
                    if stopping {
                        break;
                    }
                    if flushed.elapsed() >= flush_period {
                        flushed = Instant::now();
                        if let Some(writing) = recording.as_mut()
                            && let Err(error) = writing.flush()
                        {
                            let _ = thread_failure.set(error.to_string());
                            report.error = Some(error);
                            recording = None;
                        }
                    }
                    if !took {
                        std::thread::sleep(POLL);
                    }
                }
                if let Some(writing) = recording
                    && let Err(error) = writing.finish()
                {
                    report.error = Some(error);
                }
                report
            })
            .map_err(|source| RecordError::Thread {
                path: path.clone(),
                source,
            })?;
        Ok((
            Recorder {
                stop,
                failure,
                dropped,
                thread: Some(thread),
                path,
            },
            observer,
        ))
    }

    /// Why writing failed, once it has (the recording has ended; the run goes on).
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes what is left, closes the file, and says how it went. Call it after the loop
    /// has stopped, so that every cycle it observed is written.
    pub fn stop(mut self) -> RecordReport {
        self.halt()
    }

    fn halt(&mut self) -> RecordReport {
        self.stop.store(true, Ordering::Release);
        let mut report = self
            .thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_else(|| RecordReport {
                path: self.path.clone(),
                recorded: 0,
                dropped: 0,
                lost: 0,
                error: None,
            });
        report.dropped = self.dropped.load(Ordering::Relaxed);
        report
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.halt();
        }
    }
}
