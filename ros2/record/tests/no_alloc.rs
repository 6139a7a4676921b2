//! The control thread's part of `--ros` plus `--record` allocates nothing: a thousand cycles of
//! lite_biped (the squat, on the mock) watched by the ROS 2 graph's observer and the recorder's (the pair the runner
//! attaches), while the publishing, DDS and recording threads run (the graph in a network
//! namespace of the test's own), counted by a global allocator on the control thread (its own
//! test binary).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use alloc_counter::{allocations, allocations_in};
use backend_mock::MockSystem;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;
use ros2_dds::Participant;
use ros2_graph::{GraphOptions, RosGraph};
use ros2_record::{RecordFile, RecordOptions, Recorder};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn the_counter_sees_an_allocation() {
    // Without this the test below could pass with a counter that never counts.
    let n = allocations_in(|| drop(std::hint::black_box(Box::new(42u64))));
    assert_eq!(n, 1);
}

#[test]
fn cycles_published_and_recorded_allocate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.mcap");
    ros2_peer::in_namespace(move || {
        let participant = Participant::join(0).unwrap();
        let (graph, graph_observer) = RosGraph::start::<LiteBiped>(
            GraphOptions::new("<robot name=\"lite_biped\"/>".into()),
            &participant,
        )
        .unwrap();
        let (recorder, record_observer) = Recorder::start::<LiteBiped>(
            RecordFile::create(&path).unwrap(),
            RecordOptions::new("lite_biped".into(), "<robot/>".into()),
        )
        .unwrap();
        let components: Vec<Box<dyn Component<LiteBiped>>> =
            vec![Box::new(MockSystem::<LiteBiped>::new())];
        let observers = (Some(graph_observer), Some(record_observer));
        let mut control_loop =
            ControlLoop::new(System::new(components).unwrap(), Squat::default(), None)
                .with_observer(observers);
        control_loop.configure().unwrap();
        let start = Instant::now();
        let period = Duration::from_millis(1);
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        control_loop.activate(clock()).unwrap();
        // The first cycle takes the wall clock's epoch once; count from the second.
        control_loop.cycle(clock()).unwrap();
        let before = allocations();
        for _ in 0..1000 {
            control_loop.cycle(clock()).unwrap();
            std::thread::sleep(period);
        }
        let allocated = allocations() - before;
        let (published, recorded) = (graph.stop(), recorder.stop());
        println!("{published}\n{recorded}");
        assert_eq!(allocated, 0, "allocations on the control thread");
        assert!(published.published > 0, "{published}");
        assert_eq!(recorded.recorded, 1001, "{recorded}");
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
