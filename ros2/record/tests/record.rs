//! A run recorded and read back by this crate's reader: every cycle there, in order, with the
//! values the loop had; a path that cannot be created refused naming it; a full disk ending the
//! recording, not the loop; a file cut short read up to its last complete chunk.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use backend_mock::MockSystem;
use common::{Pendulum, Swing};
use robot_core::Values;
use robot_core::control_loop::{ControlLoop, CycleObserver};
use robot_core::hardware::{Clock, Component, System};
use robot_core::typed::RobotTypes;
use ros2_record::read;
use ros2_record::{RecordFile, RecordObserver, RecordOptions, RecordReport, Recorder};

type State = <Pendulum as RobotTypes>::State;
type Command = <Pendulum as RobotTypes>::Command;

/// One cycle as the loop had it: its time, state and command.
type Seen = (Duration, Vec<f64>, Vec<f64>);

/// Keeps what the loop had, to compare the recording with.
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Vec<Seen>>>);

impl CycleObserver<Pendulum> for Kept {
    fn observe(&mut self, clock: Clock, state: &State, command: &Command) {
        self.0.lock().unwrap().push((
            clock.time,
            state.as_slice().to_vec(),
            command.as_slice().to_vec(),
        ));
    }
}

fn options(flush_period: Duration) -> RecordOptions {
    RecordOptions {
        flush_period,
        ..RecordOptions::new(
            "pendulum on mock".into(),
            "<robot name=\"pendulum\"/>".into(),
        )
    }
}

/// Runs `cycles` cycles of 1 ms simulated time with `observer` attached; each must succeed.
fn run(cycles: u32, observer: impl CycleObserver<Pendulum> + 'static, pause: Duration) {
    let components: Vec<Box<dyn Component<Pendulum>>> =
        vec![Box::new(MockSystem::<Pendulum>::new())];
    let mut control_loop =
        ControlLoop::new(System::new(components).unwrap(), Swing, None).with_observer(observer);
    control_loop.configure().unwrap();
    let period = Duration::from_millis(1);
    let clock = |n: u32| Clock {
        time: period * n,
        period,
    };
    control_loop.activate(clock(0)).unwrap();
    for n in 1..=cycles {
        control_loop.cycle(clock(n)).unwrap();
        std::thread::sleep(pause);
    }
}

fn record(path: &std::path::Path, cycles: u32, flush: Duration) -> (RecordReport, Kept) {
    let (recorder, observer): (Recorder, RecordObserver<Pendulum>) =
        Recorder::start(RecordFile::create(path).unwrap(), options(flush)).unwrap();
    let kept = Kept::default();
    run(cycles, (observer, kept.clone()), Duration::ZERO);
    (recorder.stop(), kept)
}

#[test]
fn every_cycle_is_read_back_with_the_loops_own_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.mcap");
    let (report, kept) = record(&path, 700, Duration::from_secs(1));
    assert!(report.error.is_none(), "{report}");
    let kept = kept.0.lock().unwrap();
    assert_eq!(report.recorded, kept.len() as u64, "{report}");
    assert_eq!(report.dropped, 0, "{report}");

    let mut at = 0;
    let summary = read::cycles(&path, |info, cycle| {
        let (time, state, command) = &kept[at];
        let start = info.loop_start_ns.unwrap();
        assert_eq!(cycle.stamp_ns - start, time.as_nanos() as u64, "cycle {at}");
        assert_eq!(cycle.states.name, ["swing"]);
        // State slots: swing/position, swing/velocity.
        assert_eq!(cycle.states.position, [state[0]], "cycle {at}");
        assert_eq!(cycle.states.velocity, [state[1]], "cycle {at}");
        assert!(cycle.states.effort[0].is_nan(), "no effort state: NaN");
        let swing = &cycle.commands.interface_values[0];
        assert_eq!(
            swing.interface_names,
            ["position", "velocity", "effort", "stiffness", "damping"]
        );
        assert_eq!(&swing.values, command, "cycle {at}");
        at += 1;
    })
    .unwrap();
    assert_eq!(summary.cycles, kept.len() as u64);
    assert_eq!(summary.truncated, None);
    assert_eq!(summary.info.title.as_deref(), Some("pendulum on mock"));
    let count = |topic: &str| summary.messages.get(topic).copied().unwrap_or(0);
    assert_eq!(count("/tf"), kept.len() as u64);
    // The force/torque sensor's wrench, every cycle (NaN: the mock drives no sensor here).
    assert_eq!(count("/tip_ft_broadcaster/wrench"), kept.len() as u64);
    assert_eq!((count("/tf_static"), count("/robot_description")), (1, 1));
    // Once a second of loop time from the first cycle: 0.7 s of loop, one.
    assert_eq!(count("/diagnostics"), 1);
}

#[test]
fn an_unwritable_path_is_refused_naming_it() {
    let error = RecordFile::create(std::path::Path::new("/nonexistent-folder/run.mcap"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "cannot record to `/nonexistent-folder/run.mcap`: No such file or directory (os error 2)"
    );
}

#[test]
fn a_full_disk_ends_the_recording_not_the_loop() {
    // /dev/full: every write fails with ENOSPC, as on a full disk.
    let path = std::path::Path::new("/dev/full");
    let (recorder, observer): (Recorder, RecordObserver<Pendulum>) = Recorder::start(
        RecordFile::create(path).unwrap(),
        options(Duration::from_millis(5)),
    )
    .unwrap();
    // Every cycle succeeds (`run` unwraps each), paced so the writer flushes during the run.
    run(300, observer, Duration::from_millis(1));
    let failure = recorder.failure().unwrap().to_string();
    assert!(failure.contains("No space left on device"), "{failure}");
    let report = recorder.stop();
    let message = report.to_string();
    assert!(
        message.starts_with("the recording ended early after ")
            && message.contains("cannot write the recording `/dev/full`")
            && message.contains("No space left on device"),
        "{message}"
    );
    assert!(report.lost > 0, "{message}");
    assert_eq!(
        report.recorded + report.lost + report.dropped,
        300,
        "{message}"
    );
}

#[test]
fn a_file_cut_short_is_read_up_to_its_last_complete_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.mcap");
    // Many small chunks: one per flush of a paced writer.
    let (recorder, observer): (Recorder, RecordObserver<Pendulum>) = Recorder::start(
        RecordFile::create(&path).unwrap(),
        options(Duration::from_millis(2)),
    )
    .unwrap();
    run(400, observer, Duration::from_micros(500));
    let report = recorder.stop();
    let whole = std::fs::read(&path).unwrap();
    // Cut in the middle of the data: what a kill leaves, less the summary.
    let cut = dir.path().join("cut.mcap");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let summary = read::cycles(&cut, |_, _| {}).unwrap();
    assert!(summary.truncated.is_some(), "{summary:?}");
    assert!(
        summary.cycles > 0 && summary.cycles < report.recorded,
        "{} of {} cycles",
        summary.cycles,
        report.recorded
    );
}

#[test]
fn a_slower_topic_is_written_every_nth_cycle_from_the_first() {
    use ros2_msg::msg::StringMessage;
    use ros2_record::topics::{Filled, Topic};
    use ros2_state::snapshot::Snapshot;

    let mut topic = Filled::new(
        "/slow",
        ros2_msg::QosProfile::reliable(1),
        StringMessage::default(),
        |s: &Snapshot<Pendulum>, m: &mut StringMessage| m.data = s.cycle.to_string(),
    )
    .every(3);
    let mut out = Vec::new();
    let written: Vec<u64> = (1..=7)
        .filter(|&cycle| {
            let snapshot = Snapshot::<Pendulum> {
                cycle,
                ..Snapshot::default()
            };
            topic.encode(&snapshot, &mut out)
        })
        .collect();
    assert_eq!(written, [1, 4, 7]);
    let last: StringMessage = ros2_msg::cdr::decode(&out).unwrap();
    assert_eq!(last.data, "7");
}
