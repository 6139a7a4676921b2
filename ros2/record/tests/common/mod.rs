//! A pendulum on the mock backend, for the recorder's tests.
#![allow(dead_code)] // each test binary uses a part

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;

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
        command: [position, velocity, effort, stiffness, damping], state: [position, velocity],
    }
    joint tip_mount: fixed { parent: arm, child: tip, origin { xyz: [0, 0, 0.3] } }
    force_torque tip_ft { link: tip, plugin: "test_devices/Ft" }
}

/// Swings, stiffer as time goes on: every command interface changes every cycle.
pub struct Swing;

impl Controller<Pendulum> for Swing {
    fn update(
        &mut self,
        clock: Clock,
        _state: &<Pendulum as RobotTypes>::State,
        command: &mut <Pendulum as RobotTypes>::Command,
    ) -> Result<(), ControllerError> {
        let t = clock.time.as_secs_f64();
        command.swing.position = (10.0 * t).sin();
        command.swing.stiffness = 5.0 + t;
        Ok(())
    }
}
