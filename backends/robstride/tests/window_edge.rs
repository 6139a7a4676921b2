//! A joint whose motor range ends near the ±4π window's edge (as `robot!` allows), pushed past
//! it by a load: the firmware loops its report there and its MIT law then works 8π away, which
//! would spin the motor on for whole turns. The component sees the jump and the run ends with
//! the motors switched off.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{CLOCK, rig, rs02};
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, System};
use robstride_sim::SimActuator;

mod edge {
    use robot_macros::robot;

    robot! {
        robot Edge { update_rate: 200 Hz }
        bus arm {}
        link base {}
        link upper {}
        joint shoulder: revolute {
            parent: base,
            child: upper,
            axis: [0, 1, 0],
            limits { lower: -2, upper: 2, velocity: 5, effort: 10 },
            // Motor range 8.5..12.5 rad: inside ±4π (12.566), 0.07 rad from its edge.
            actuator { bus: arm, can_id: 1, model: RS02, zero_offset: 10.5 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }
}

use edge::{Edge, EdgeCommand, EdgeState};

/// Holds the upper limit softly against a 1.5 N·m push outwards.
struct Overloaded;

impl Controller<Edge> for Overloaded {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &EdgeState,
        command: &mut EdgeCommand,
    ) -> Result<(), ControllerError> {
        command.shoulder.position = 2.0;
        command.shoulder.stiffness = 20.0;
        command.shoulder.damping = 2.0;
        command.shoulder.effort = 1.5;
        Ok(())
    }
}

#[test]
fn a_motor_pushed_past_the_windows_edge_ends_the_run_switched_off() {
    let (sim, nodes, bus) = rig::<Edge>("arm", None, [rs02(1, 12.0)]);
    let components: Vec<Box<dyn Component<Edge>>> = vec![Box::new(bus)];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Overloaded, None);
    control_loop.configure().unwrap();
    control_loop.activate(CLOCK).unwrap();
    let angle = || {
        sim.with_node(nodes[0], |m: &mut SimActuator| m.position())
            .unwrap()
    };
    let mut furthest = angle();
    let mut ended = None;
    for cycle in 1..=400 {
        sim.advance(CLOCK.period);
        furthest = furthest.max(angle());
        if let Err(fault) = control_loop.cycle(Clock {
            time: CLOCK.period * cycle,
            ..CLOCK
        }) {
            ended = Some(fault);
            break;
        }
    }
    let Some(Fault::Hardware(error)) = ended else {
        panic!("the run goes on, the motor at {furthest:.2} rad")
    };
    assert_eq!(error.kind(), ErrorKind::OutOfLimits);
    assert!(
        error
            .message()
            .contains("joint shoulder (bus arm, id 1) was pushed past the ±4π window's edge"),
        "{error}"
    );
    // Switched off a cycle after it looped: it went no further than a little past the edge.
    assert!(furthest < 13.0, "{furthest}");
    assert!(
        !sim.with_node(nodes[0], |m: &mut SimActuator| m.enabled())
            .unwrap()
    );
}
