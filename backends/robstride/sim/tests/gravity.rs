//! Gravity on the simulated bus: a lift whose axis cannot turn carries the weight of what it
//! moves, through its lead, as a load on its motor; one that can turn, or a revolute joint,
//! carries none (`robstride_sim::robot`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::f64::consts::TAU;
use std::time::Duration;

use robot_macros::robot;
use robstride_sim::robot::{attach_actuators, gravity_on};
use robstride_sim::{SimActuator, SimBus};

robot! {
    robot Tower { update_rate: 200 Hz }
    bus base {}
    link base {}
    link mast {}
    link carriage {
        inertial { mass: 30.0, com: [0, 0, 0], inertia: [0.1, 0, 0, 0.1, 0, 0.1] }
    }
    link tool {
        inertial { mass: 10.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    link arm {
        inertial { mass: 2.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    link slider {
        inertial { mass: 1.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
    /// The mast stands on the base, tilted 60° from vertical: fixed, so the lift's axis stays.
    joint mast_mount: fixed { parent: base, child: mast, origin { rpy: [1.0471975511965976, 0, 0] } }
    /// Its motor reversed: lifting turns it backwards.
    joint lift: prismatic {
        parent: mast,
        child: carriage,
        axis: [0, 0, 1],
        limits { lower: 0, upper: 0.5, velocity: 0.15, effort: 2000 },
        actuator { bus: base, can_id: 1, model: RS06, lead: 20 mm, direction: -1 },
        command: [position],
        state: [position],
    }
    joint tool_mount: fixed { parent: carriage, child: tool, origin { xyz: [0.1, 0, 0] } }
    joint swing: revolute {
        parent: tool,
        child: arm,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: base, can_id: 2, model: RS02 },
        command: [position],
        state: [position],
    }
    /// Below a revolute joint: its axis turns with the arm.
    joint reach: prismatic {
        parent: arm,
        child: slider,
        axis: [0, 0, 1],
        limits { lower: 0, upper: 0.1, velocity: 0.05, effort: 100 },
        actuator { bus: base, can_id: 3, model: RS02, lead: 10 mm },
        command: [position],
        state: [position],
    }
}

#[test]
fn a_lift_carries_what_it_moves_along_its_axis_and_nothing_else_does() {
    let robot = Tower::DESCRIPTION;
    let carried = gravity_on(robot, robot.joint("lift").unwrap()).unwrap();
    // Carriage, tool, arm and slider: 43 kg, half of their weight along an axis 60° off vertical.
    assert_eq!(carried.mass, 43.0);
    assert!(
        (carried.force - -43.0 * 9.80665 * 0.5).abs() < 1e-9,
        "{carried:?}"
    );
    assert_eq!(gravity_on(robot, robot.joint("swing").unwrap()), None);
    assert_eq!(gravity_on(robot, robot.joint("reach").unwrap()), None);
}

#[test]
fn switched_off_the_lift_sinks_under_its_load_and_its_motor_turns_backwards() {
    let sim = SimBus::new("base");
    let nodes = attach_actuators(Tower::DESCRIPTION, "base", None, &sim);
    let (_, lift) = nodes[0];
    let load = sim.with_node(lift, |m: &mut SimActuator| m.load()).unwrap();
    // 210.8 N down the axis through a 20 mm lead: 0.671 N·m; reversed, it turns the motor up.
    let expected = 43.0 * 9.80665 * 0.5 * 0.02 / TAU;
    assert!((load - expected).abs() < 1e-9, "{load}");
    sim.advance(Duration::from_millis(100));
    let turned = sim
        .with_node(lift, |m: &mut SimActuator| m.position())
        .unwrap();
    assert!(
        turned > 0.0,
        "the reversed motor turns forwards as the lift sinks: {turned}"
    );
    for (_, other) in &nodes[1..] {
        assert_eq!(
            sim.with_node(*other, |m: &mut SimActuator| m.load()),
            Some(0.0)
        );
    }
}
