//! The control thread's part of publishing into the ROS 2 graph allocates nothing: a thousand
//! cycles of a loop with the graph's observer attached, while the publishing thread and the DDS
//! thread run (in a network namespace of the test's own), counted by a global allocator on the
//! control thread (its own test binary).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use alloc_counter::allocations;
use backend_mock::MockSystem;
use robot_core::control_loop::{ControlLoop, Controller, ControllerError};
use robot_core::hardware::{Clock, Component, System};
use robot_core::typed::RobotTypes;
use ros2_dds::Participant;
use ros2_graph::{GraphOptions, RosGraph};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

robot_macros::robot! {
    robot Pendulum { update_rate: 1000 Hz }
    bus b {}
    link base {}
    link arm {}
    link tip {}
    joint swing: revolute {
        parent: base, child: arm, axis: [0, 1, 0],
        limits { lower: -2, upper: 2, velocity: 1, effort: 1 },
        actuator { bus: b, can_id: 1, model: RS02 },
        command: [position], state: [position, velocity],
    }
    joint tip_mount: fixed { parent: arm, child: tip, origin { xyz: [0, 0, 0.3] } }
}

/// Swings.
struct Swing;

impl Controller<Pendulum> for Swing {
    fn update(
        &mut self,
        clock: Clock,
        _state: &<Pendulum as RobotTypes>::State,
        command: &mut <Pendulum as RobotTypes>::Command,
    ) -> Result<(), ControllerError> {
        command.swing.position = clock.time.as_secs_f64().sin();
        Ok(())
    }
}

#[test]
fn cycles_with_the_graph_attached_allocate_nothing() {
    ros2_peer::in_namespace(|| {
        let participant = Participant::join(0).unwrap();
        let (graph, observer) = RosGraph::start::<Pendulum>(
            GraphOptions {
                rate_cap_hz: 500.0,
                // Often, so that the thousand cycles hand the components' health over many times.
                diagnostics_hz: 100.0,
                ..GraphOptions::new("<robot name=\"pendulum\"/>".into())
            },
            &participant,
        )
        .unwrap();
        let components: Vec<Box<dyn Component<Pendulum>>> =
            vec![Box::new(MockSystem::<Pendulum>::new())];
        let mut control_loop =
            ControlLoop::new(System::new(components).unwrap(), Swing, None).with_observer(observer);
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
        let report = graph.stop();
        println!("{report}");
        assert_eq!(allocated, 0, "allocations on the control thread");
        assert!(report.published > 0, "{report}");
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
