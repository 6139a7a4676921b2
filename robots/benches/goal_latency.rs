//! The FollowJointTrajectory goal path, end to end at 1 kHz: from a client's `send_goal` (our
//! own `ActionClient`, another thread of the process, over DDS on the loopback) to the first
//! cycle whose command follows the goal. What it crosses: the send_goal service (request,
//! the check on the participant's thread, reply), the intake thread's poll (every 1 ms), the
//! ring to the control thread, and the next cycle (every 1 ms). lite_biped on the mock,
//! its loop paced at 1 kHz on a thread of its own; each goal moves the left knee to a new
//! position within a millisecond, so the first cycle that takes it commands that position.
//! Runs inside a network namespace of its own (root; otherwise it says why and measures
//! nothing).
//!
//! ```sh
//! cargo bench -p robots --bench goal_latency
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a panic is the failure report

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use backend_mock::MockSystem;
use criterion::Criterion;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use ros2_msg::control::{FollowJointTrajectory, FollowJointTrajectoryGoal};
use ros2_msg::msg::{Duration as RosDuration, JointTrajectory, JointTrajectoryPoint};

const ACTION: &str = "/left_leg_trajectory_controller/follow_joint_trajectory";

/// The left leg to rest with its knee at `knee`, 1 ms from now.
fn goal(knee: f64) -> FollowJointTrajectoryGoal {
    let names: Vec<String> = (LiteBiped::DESCRIPTION.joints.iter())
        .filter(|j| j.name.starts_with("left_") && j.actuator.is_some())
        .map(|j| j.name.to_string())
        .collect();
    let positions = (names.iter())
        .map(|n| if n == "left_knee_pitch" { knee } else { 0.0 })
        .collect();
    FollowJointTrajectoryGoal {
        trajectory: JointTrajectory {
            joint_names: names,
            points: vec![JointTrajectoryPoint {
                positions,
                time_from_start: RosDuration {
                    sec: 0,
                    nanosec: 1_000_000,
                },
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The loop at 1 kHz on its own thread until `stop`, publishing the knee's command to `knee`.
fn control_thread(
    participant: ros2_dds::Participant,
    knee: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let trajectory = ros2_trajectory::TrajectoryController::<LiteBiped>::new(
            ros2_trajectory::TrajectoryOptions::default(),
            participant,
        );
        let components: Vec<Box<dyn Component<LiteBiped>>> =
            vec![Box::new(MockSystem::<LiteBiped>::new())];
        let mut control_loop = ControlLoop::new(System::new(components).unwrap(), trajectory, None);
        let period = Duration::from_millis(1);
        let start = Instant::now();
        let clock = |time| Clock { time, period };
        control_loop.configure().unwrap();
        control_loop.activate(clock(start.elapsed())).unwrap();
        let mut next = start;
        while !stop.load(Ordering::Relaxed) {
            control_loop.cycle(clock(start.elapsed())).unwrap();
            let commanded = control_loop.command().left_knee_pitch.position;
            knee.store(commanded.to_bits(), Ordering::Release);
            next += period;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
        control_loop.deactivate().unwrap();
    })
}

fn bench(c: &mut Criterion) {
    let participant = ros2_dds::Participant::join(0).unwrap();
    let knee = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let thread = control_thread(participant.clone(), knee.clone(), stop.clone());
    let node = participant.node("", "bench_client").unwrap();
    let client = node.action_client::<FollowJointTrajectory>(ACTION).unwrap();
    assert!(client.wait_for_server(Duration::from_secs(10)));
    let timeout = Duration::from_secs(2);
    let mut target = 0.3;
    let mut group = c.benchmark_group("follow_joint_trajectory");
    group.bench_function("send_goal to first commanded point (1 kHz)", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                target = if target == 0.3 { 0.6 } else { 0.3 };
                let started = Instant::now();
                let (_, accepted) = client.send_goal(goal(target), timeout).unwrap();
                assert!(accepted);
                loop {
                    let commanded = f64::from_bits(knee.load(Ordering::Acquire));
                    if (commanded - target).abs() < 1e-6 {
                        break;
                    }
                    assert!(
                        started.elapsed() < timeout,
                        "the goal never reached the command"
                    );
                    std::hint::spin_loop();
                }
                total += started.elapsed();
            }
            total
        });
    });
    group.finish();
    stop.store(true, Ordering::Relaxed);
    thread.join().unwrap();
}

fn main() {
    let ran = ros2_peer::in_namespace(|| {
        let mut criterion = Criterion::default()
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3))
            .sample_size(30)
            .configure_from_args();
        bench(&mut criterion);
        criterion.final_summary();
    });
    if let Err(why) = ran {
        println!("SKIPPED: {why}");
    }
}
