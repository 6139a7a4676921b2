// A typed controller claims one bus of a robot by its type: it is handed that bus's joints, and
// its claims are their command interfaces.
use robot_core::control_loop::ControllerError;
use robot_core::controller_manager::{JointSet, Managed, TypedController};
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
        Ok(())
    }
}

fn main() {
    assert_eq!(<legs::LeftBus as JointSet<Legs>>::JOINTS, ["left_knee"]);
    assert_eq!(<legs::RightBus as JointSet<Legs>>::JOINTS, ["right_knee"]);
    let managed = Managed::typed("left", "test/LeftKnee", LeftKnee, true).unwrap();
    assert_eq!(
        managed.claims.names::<Legs>(),
        ["left_knee/position", "left_knee/stiffness", "left_knee/damping"]
    );
    let mut command = LegsCommand::default();
    <legs::LeftBus as JointSet<Legs>>::view(&mut command).left_knee.position = 0.5;
    assert_eq!(command.left_knee.position, 0.5);
}
