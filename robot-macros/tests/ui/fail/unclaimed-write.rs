// A typed controller claims the joints of bus `left`; writing a joint of bus `right` does not
// compile: the view it is handed has no such field.
use robot_core::control_loop::ControllerError;
use robot_core::controller_manager::TypedController;
use robot_core::hardware::Clock;
use robot_macros::robot;

robot! {
    robot Legs { update_rate: 200 Hz }
    bus left {}
    bus right {}
    link base {}
    link left_shin {}
    link right_shin {}
    joint left_knee: revolute {
        parent: base,
        child: left_shin,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: left, can_id: 1, model: RS02 },
        command: [position, stiffness, damping],
        state: [position, velocity],
    }
    joint right_knee: revolute {
        parent: base,
        child: right_shin,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: right, can_id: 1, model: RS02 },
        command: [position, stiffness, damping],
        state: [position, velocity],
    }
}

struct LeftKnee;

impl TypedController<Legs> for LeftKnee {
    type Claims = legs::LeftBus;

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LegsState,
        command: legs::LeftBusCommand<'_>,
    ) -> Result<(), ControllerError> {
        command.left_knee.position = 0.3;
        command.right_knee.position = 0.3;
        Ok(())
    }
}

fn main() {}
