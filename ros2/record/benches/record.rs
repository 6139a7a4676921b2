//! What recording costs, for lite_biped (14 joints, MIT commands) on the mock with the squat
//! controller:
//!
//! * `control thread/…`: the observers' `observe` and `observe_system` per cycle on the control
//!   thread, the recorder's alone, the ROS 2 graph's alone, and both (`--ros` plus `--record`,
//!   the last two in a network namespace of its own: root, else it says why and is skipped).
//!   Target ≤ 1 µs, 0
//!   allocations (`tests/no_alloc.rs`). Each timed cycle is followed by an untimed pause of
//!   100 µs, so that the threads keep up as at 1 kHz and no push meets a full ring;
//! * `writer/cycle`: the writing thread's work per cycle (CDR encoding of every topic, zstd,
//!   chunking) into memory; its throughput against the 1 000 cycles a second of a 1 kHz run
//!   (target ≥ 10×);
//! * printed once: the file size of a minute at 200 Hz and at 1 kHz, and the compression ratio.
//!
//! ```sh
//! cargo bench -p ros2-record --bench record
//! ```
//!
//! Measured on the project's 2-core machine, shared with other builds (so noisy): on the control
//! thread 0.74 µs (`--record`), 0.76 µs (`--ros`), 0.67 µs (both), and 1.6 µs for both in a run
//! under heavy compile load; the writer 11.7 µs a cycle, 85 000 cycles a second, 85× a 1 kHz
//! run; a minute 4.25 MB at 200 Hz and 21.1 MB at 1 kHz, zstd ratio 16 (the mock's smooth
//! squat, IMU not driven: a real robot's noisy values pack less).
#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a panic is the failure report

use std::hint::black_box;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backend_mock::MockSystem;
use criterion::{Criterion, Throughput};
use robot_core::control_loop::{ControlLoop, CycleObserver};
use robot_core::hardware::{Clock, Component, System};
use robot_core::typed::RobotTypes;
use robots::LiteBiped;
use robots::controllers::Squat;
use ros2_dds::Participant;
use ros2_graph::{GraphOptions, RosGraph};
use ros2_record::{McapRecording, RecordFile, RecordOptions, Recorder};
use ros2_state::snapshot::Snapshot;

type State = <LiteBiped as RobotTypes>::State;
type Command = <LiteBiped as RobotTypes>::Command;

/// Keeps every cycle's state and command.
#[derive(Clone, Default)]
struct Keep(Arc<Mutex<Vec<(State, Command)>>>);

impl CycleObserver<LiteBiped> for Keep {
    fn observe(&mut self, _clock: Clock, state: &State, command: &Command) {
        self.0.lock().unwrap().push((*state, *command));
    }
}

/// `cycles` snapshots of a squatting lite_biped at `rate` Hz, simulated time.
fn squat(cycles: u32, rate: u32) -> Vec<Snapshot<LiteBiped>> {
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let keep = Keep::default();
    let mut control_loop = ControlLoop::new(
        System::new(components).unwrap(),
        Squat::default(),
        Some(rate),
    )
    .with_observer(keep.clone());
    control_loop.configure().unwrap();
    let period = Duration::from_secs(1) / rate;
    let clock = |n: u32| Clock {
        time: period * n,
        period,
    };
    control_loop.activate(clock(0)).unwrap();
    for n in 1..=cycles {
        control_loop.cycle(clock(n)).unwrap();
    }
    let kept = keep.0.lock().unwrap();
    kept.iter()
        .enumerate()
        .map(|(n, (state, command))| Snapshot {
            cycle: n as u64 + 1,
            clock: clock(n as u32 + 1),
            epoch_at_start: Duration::from_secs(1_800_000_000),
            state: *state,
            command: *command,
            base: None,
        })
        .collect()
}

fn recording(sink: Vec<u8>) -> McapRecording<LiteBiped, Vec<u8>> {
    McapRecording::new(
        sink,
        Path::new("bench.mcap"),
        "lite_biped on mock",
        "<robot/>".into(),
    )
    .unwrap()
}

/// A minute's file at `rate` Hz: its size, and the chunks' uncompressed and compressed sizes.
fn minute(rate: u32) -> (usize, u64, u64) {
    let mut writing = recording(Vec::new());
    for snapshot in squat(60 * rate, rate) {
        writing.write(&snapshot).unwrap();
    }
    let file = writing.finish().unwrap();
    let summary = mcap::read::Summary::read(&file).unwrap().unwrap();
    let (raw, packed) = summary.chunk_indexes.iter().fold((0, 0), |(r, p), c| {
        (r + c.uncompressed_size, p + c.compressed_size)
    });
    (file.len(), raw, packed)
}

fn sizes() {
    for rate in [200, 1000] {
        let (size, raw, packed) = minute(rate);
        println!(
            "a minute at {rate} Hz: {:.2} MB ({:.1} kB a second); chunks {:.2} MB before zstd, ratio {:.1}",
            size as f64 / 1e6,
            size as f64 / 60e3,
            raw as f64 / 1e6,
            raw as f64 / packed as f64
        );
    }
}

fn writer(c: &mut Criterion) {
    let snapshots = squat(4000, 1000);
    let mut group = c.benchmark_group("writer");
    group.throughput(Throughput::Elements(1));
    group.bench_function("cycle", |b| {
        let mut writing = recording(Vec::with_capacity(64 << 20));
        let mut at = 0;
        b.iter(|| {
            writing
                .write(black_box(&snapshots[at % snapshots.len()]))
                .unwrap();
            at += 1;
        });
    });
    group.finish();
}

/// The untimed pause after each observed cycle, for the recording (and publishing) threads.
const PAUSE: Duration = Duration::from_micros(100);

/// Few short samples: each timed cycle costs a pause of real time besides.
fn short() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(50))
        .measurement_time(Duration::from_millis(100))
        .sample_size(20)
        .configure_from_args()
}

/// Times `observer.observe` with a pause after each, as a 1 kHz loop leaves its threads time.
fn time_observe(c: &mut Criterion, name: &str, mut observer: impl CycleObserver<LiteBiped>) {
    let snapshots = squat(1000, 1000);
    // The loop shows an observer the system right after the cycle's values: both are timed.
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let system = System::new(components).unwrap();
    observer.attach(&system);
    c.bench_function(name, |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for n in 0..iterations {
                let s = &snapshots[n as usize % snapshots.len()];
                let start = Instant::now();
                observer.observe(
                    black_box(s.clock),
                    black_box(&s.state),
                    black_box(&s.command),
                );
                observer.observe_system(black_box(s.clock), black_box(&system));
                spent += start.elapsed();
                std::thread::sleep(PAUSE);
            }
            spent
        });
    });
}

fn control_thread(c: &mut Criterion) {
    let dir = std::env::temp_dir().join("ros2-record-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let file = || RecordFile::create(&dir.join("run.mcap")).unwrap();
    let options = || RecordOptions::new("bench".into(), "<robot/>".into());

    let (recorder, observer) = Recorder::start::<LiteBiped>(file(), options()).unwrap();
    time_observe(c, "control thread/--record", observer);
    println!("{}", recorder.stop());
}

/// `--ros` plus `--record`, in a network namespace (its own Criterion: one cannot be moved
/// into the namespace's thread).
fn ros_and_record() {
    let dir = std::env::temp_dir().join("ros2-record-bench");
    let file = move || RecordFile::create(&dir.join("run-ros.mcap")).unwrap();
    let options = || RecordOptions::new("bench".into(), "<robot/>".into());
    let done = ros2_peer::in_namespace(move || {
        let mut c = short();
        let participant = Participant::join(0).unwrap();
        let (graph, graph_observer) =
            RosGraph::start::<LiteBiped>(GraphOptions::new("<robot/>".into()), &participant)
                .unwrap();
        time_observe(&mut c, "control thread/--ros", graph_observer);
        println!("{}", graph.stop());
        let (graph, graph_observer) =
            RosGraph::start::<LiteBiped>(GraphOptions::new("<robot/>".into()), &participant)
                .unwrap();
        let (recorder, observer) = Recorder::start::<LiteBiped>(file(), options()).unwrap();
        let both = (Some(graph_observer), Some(observer));
        time_observe(&mut c, "control thread/--ros --record", both);
        println!("{}\n{}", graph.stop(), recorder.stop());
        c.final_summary();
    });
    if let Err(why) = done {
        println!("control thread/--ros --record: skipped: {why}");
    }
}

fn main() {
    sizes();
    let mut c = Criterion::default().configure_from_args();
    writer(&mut c);
    c.final_summary();
    let mut c = short();
    control_thread(&mut c);
    c.final_summary();
    ros_and_record();
}
