//! Proof that the control path allocates nothing: after activation, 10,000 cycles of read, update
//! (the shipped squat controller) and write on the mock backend, counted by a global allocator.
//! Only allocations of the test's own thread are counted, so the test harness does not interfere.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations_in;
use backend_mock::MockSystem;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn the_counter_sees_an_allocation() {
    // Without this the test below could pass with a counter that never counts.
    let n = allocations_in(|| drop(std::hint::black_box(Box::new(42u64))));
    assert_eq!(n, 1);
}

#[test]
fn ten_thousand_active_cycles_allocate_nothing() {
    let components: Vec<Box<dyn Component<LiteBiped>>> =
        vec![Box::new(MockSystem::<LiteBiped>::new())];
    let system = System::new(components).unwrap();
    let mut control_loop = ControlLoop::new(system, Squat::default(), None);
    let period = control_loop.period();
    let mut clock = Clock {
        time: Duration::ZERO,
        period,
    };
    control_loop.configure().unwrap();
    control_loop.activate(clock).unwrap();
    let n = allocations_in(|| {
        for _ in 0..10_000 {
            clock.time += period;
            control_loop.cycle(clock).unwrap();
        }
    });
    assert_eq!(
        n, 0,
        "read, update or write allocated {n} times over 10,000 cycles"
    );
    // And the cycles did something: the squat has moved the knees.
    assert!(control_loop.state().left_knee_pitch.position > 0.0);
    assert!(control_loop.command().right_knee_pitch.stiffness > 0.0);
}

/// The left leg's actuated joints, and their positions with the knee at `knee`, the rest at 0.
fn left_leg_with_knee(knee: f64) -> (Vec<String>, Vec<f64>) {
    let names: Vec<String> = LiteBiped::DESCRIPTION
        .joints
        .iter()
        .filter(|j| j.name.starts_with("left_") && j.actuator.is_some())
        .map(|j| j.name.to_string())
        .collect();
    let positions = (names.iter())
        .map(|n| if n == "left_knee_pitch" { knee } else { 0.0 })
        .collect();
    (names, positions)
}

/// A goal for the peer's `trajectory` mode: the left knee to `knee` at `t` s, linear or cubic.
fn knee_goal(after: f64, knee: f64, t: f64, velocities: bool) -> serde_json::Value {
    let (names, positions) = left_leg_with_knee(knee);
    let mut point = serde_json::json!({ "time_from_start": t, "positions": positions });
    if velocities {
        point["velocities"] = serde_json::json!(vec![0.0; names.len()]);
    }
    serde_json::json!({
        "topic": "/left_leg_trajectory_controller/joint_trajectory",
        "after": after, "joint_names": names, "points": [point],
    })
}

#[test]
fn with_the_ros_graph_and_trajectories_arriving_cycles_allocate_nothing() {
    ros2_peer::isolated(|python| {
        // One participant for the process, as the runner makes it.
        let participant = ros2_dds::Participant::join(0).unwrap();
        let (graph, observer) = ros2_graph::RosGraph::start::<LiteBiped>(
            ros2_graph::GraphOptions::new("<robot name=\"lite_biped\"/>".into()),
            &participant,
        )
        .unwrap();
        let trajectory = ros2_trajectory::TrajectoryController::<LiteBiped>::new(
            ros2_trajectory::TrajectoryOptions::default(),
            participant.clone(),
        );
        let stats = trajectory.stats();
        let components: Vec<Box<dyn Component<LiteBiped>>> =
            vec![Box::new(MockSystem::<LiteBiped>::new())];
        let mut control_loop = ControlLoop::new(System::new(components).unwrap(), trajectory, None)
            .with_observer(observer);
        let period = control_loop.period();
        let start = std::time::Instant::now();
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        control_loop.configure().unwrap();
        control_loop.activate(clock()).unwrap(); // joins the graph: allocates, before counting
        control_loop.cycle(clock()).unwrap(); // takes the wall-clock epoch once
        let goals = serde_json::json!([
            knee_goal(1.0, 0.6, 0.5, false),
            knee_goal(1.5, 0.2, 0.5, true),
            knee_goal(2.0, 9.0, 0.5, false), // beyond the limits: refused
            knee_goal(2.2, 1.0, 0.3, false),
        ]);
        let peer = python
            .start_with_input("trajectory", &[], Some(&goals.to_string()))
            .unwrap();
        // Three seconds of cycles at the loop's rate while the goals arrive, are refused or
        // followed, and the graph publishes: only the cycles are counted.
        let mut allocated = 0;
        let mut knee_moved = false;
        let deadline = start.elapsed() + Duration::from_secs(4);
        while start.elapsed() < deadline {
            allocated += allocations_in(|| control_loop.cycle(clock()).unwrap());
            knee_moved |= control_loop.command().left_knee_pitch.position > 0.1;
            std::thread::sleep(period);
        }
        let (summary, _) = peer.finish_seen(Duration::from_secs(10)).unwrap();
        let report = graph.stop();
        println!("{report}; {stats}; peer: {summary}");
        assert_eq!(allocated, 0, "allocations on the control thread");
        let accepted = stats.accepted.load(std::sync::atomic::Ordering::Relaxed);
        let refused = stats.refused.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!((accepted, refused), (3, 1), "{stats}");
        assert!(knee_moved, "the goals moved the knee");
        assert!(report.published > 0, "{report}");
    });
}

/// A FollowJointTrajectory goal: the left leg's joints, the knee to `knee` in `t` s.
fn knee_action_goal(knee: f64, t: f64) -> ros2_msg::control::FollowJointTrajectoryGoal {
    let (names, positions) = left_leg_with_knee(knee);
    let point = ros2_msg::msg::JointTrajectoryPoint {
        positions,
        time_from_start: ros2_msg::msg::Duration {
            sec: t.trunc() as i32,
            nanosec: (t.fract() * 1e9) as u32,
        },
        ..Default::default()
    };
    ros2_msg::control::FollowJointTrajectoryGoal {
        trajectory: ros2_msg::msg::JointTrajectory {
            joint_names: names,
            points: vec![point],
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn with_action_goals_arriving_preempted_and_cancelled_cycles_allocate_nothing() {
    use ros2_msg::action::goal_status;
    use ros2_msg::control::FollowJointTrajectory;

    let outcome = ros2_peer::in_namespace(|| {
        let participant = ros2_dds::Participant::join(0).unwrap();
        let trajectory = ros2_trajectory::TrajectoryController::<LiteBiped>::new(
            ros2_trajectory::TrajectoryOptions::default(),
            participant.clone(),
        );
        let stats = trajectory.stats();
        let components: Vec<Box<dyn Component<LiteBiped>>> =
            vec![Box::new(MockSystem::<LiteBiped>::new())];
        let mut control_loop = ControlLoop::new(System::new(components).unwrap(), trajectory, None);
        let period = control_loop.period();
        let start = std::time::Instant::now();
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        control_loop.configure().unwrap();
        control_loop.activate(clock()).unwrap(); // serves the actions: allocates, before counting
        control_loop.cycle(clock()).unwrap();
        // The client, as MoveIt: a goal, another preempting it, a third cancelled, a fourth
        // left to finish.
        let client = std::thread::spawn(move || {
            let node = participant.node("", "mover").unwrap();
            let client = node
                .action_client::<FollowJointTrajectory>(
                    "/left_leg_trajectory_controller/follow_joint_trajectory",
                )
                .unwrap();
            assert!(client.wait_for_server(Duration::from_secs(10)));
            let timeout = Duration::from_secs(5);
            let send = |knee, t| {
                let (id, accepted) = client
                    .send_goal(knee_action_goal(knee, t), timeout)
                    .unwrap();
                assert!(accepted);
                id
            };
            let first = send(0.8, 2.0);
            std::thread::sleep(Duration::from_millis(300));
            let second = send(0.4, 2.0);
            let preempted = client.result(&first, timeout).unwrap();
            std::thread::sleep(Duration::from_millis(300));
            client.cancel(&second, timeout).unwrap();
            let cancelled = client.result(&second, timeout).unwrap();
            let third = send(0.6, 0.5);
            let reached = client.result(&third, timeout).unwrap();
            [preempted.0, cancelled.0, reached.0]
        });
        let mut allocated = 0;
        let mut knee_moved = false;
        while !client.is_finished() {
            allocated += allocations_in(|| control_loop.cycle(clock()).unwrap());
            knee_moved |= control_loop.command().left_knee_pitch.position > 0.1;
            std::thread::sleep(period);
        }
        let statuses = client.join().unwrap();
        (allocated, knee_moved, statuses, stats.to_string())
    });
    let Ok((allocated, knee_moved, statuses, stats)) = outcome else {
        return ros2_peer::skip(&outcome.unwrap_err());
    };
    println!("{stats}");
    assert_eq!(allocated, 0, "allocations on the control thread");
    assert_eq!(
        statuses,
        [
            goal_status::ABORTED,
            goal_status::CANCELED,
            goal_status::SUCCEEDED
        ],
        "preempted, cancelled, reached"
    );
    assert!(knee_moved, "the goals moved the knee");
}

#[test]
fn with_gravity_fed_forward_the_arms_cycles_allocate_nothing() {
    use robots::SixAxisArm;
    use ros2_msg::action::goal_status;
    use ros2_msg::control::FollowJointTrajectory;

    let outcome = ros2_peer::in_namespace(|| {
        let participant = ros2_dds::Participant::join(0).unwrap();
        let trajectory = ros2_trajectory::TrajectoryController::<SixAxisArm>::new(
            ros2_trajectory::TrajectoryOptions::default(),
            participant.clone(),
        );
        let components: Vec<Box<dyn Component<SixAxisArm>>> =
            vec![Box::new(MockSystem::<SixAxisArm>::new())];
        let mut control_loop = ControlLoop::new(System::new(components).unwrap(), trajectory, None);
        let period = control_loop.period();
        let start = std::time::Instant::now();
        let clock = || Clock {
            time: start.elapsed(),
            period,
        };
        control_loop.configure().unwrap();
        control_loop.activate(clock()).unwrap();
        control_loop.cycle(clock()).unwrap();
        // The arm (its group feeds gravity forward) folds its elbow and leans forward.
        let client = std::thread::spawn(move || {
            let node = participant.node("", "mover").unwrap();
            let client = node
                .action_client::<FollowJointTrajectory>(
                    "/arm_trajectory_controller/follow_joint_trajectory",
                )
                .unwrap();
            assert!(client.wait_for_server(Duration::from_secs(10)));
            let names = [
                "shoulder_yaw",
                "shoulder_pitch",
                "elbow",
                "wrist_pitch",
                "wrist_yaw",
            ];
            let mut goal = ros2_msg::control::FollowJointTrajectoryGoal::default();
            goal.trajectory.joint_names = names.iter().map(|n| n.to_string()).collect();
            goal.trajectory.joint_names.push("wrist_roll".into());
            goal.trajectory.points = vec![ros2_msg::msg::JointTrajectoryPoint {
                positions: vec![0.0, 0.5, 1.0, 0.0, 0.0, 0.0],
                time_from_start: ros2_msg::msg::Duration {
                    sec: 0,
                    nanosec: 500_000_000,
                },
                ..Default::default()
            }];
            let timeout = Duration::from_secs(5);
            let (id, accepted) = client.send_goal(goal, timeout).unwrap();
            assert!(accepted);
            client.result(&id, timeout).unwrap().0
        });
        let mut allocated = 0;
        let mut elbow_effort = 0.0_f64;
        while !client.is_finished() {
            allocated += allocations_in(|| control_loop.cycle(clock()).unwrap());
            elbow_effort = elbow_effort.max(control_loop.command().elbow.effort.abs());
            std::thread::sleep(period);
        }
        (allocated, elbow_effort, client.join().unwrap())
    });
    let Ok((allocated, elbow_effort, status)) = outcome else {
        return ros2_peer::skip(&outcome.unwrap_err());
    };
    assert_eq!(allocated, 0, "allocations on the control thread");
    assert_eq!(status, goal_status::SUCCEEDED);
    assert!(
        elbow_effort > 1.0,
        "gravity fed forward: {elbow_effort} N·m"
    );
}
