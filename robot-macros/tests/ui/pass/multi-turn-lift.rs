use robot_macros::robot;

// A 300 mm lift on a 40 mm lead: 7.5 motor turns, 47.1 rad, far past the MIT frame's ±4π. The
// RobStride backend counts its turns, so the definition is accepted.
robot! {
    robot Lift { update_rate: 200 Hz }
    bus base {}
    link base {}
    link carriage {}
    joint lift: prismatic {
        parent: base,
        child: carriage,
        limits { lower: 0, upper: 300 mm, velocity: 0.2, effort: 500 },
        actuator { bus: base, can_id: 1, model: RS02, lead: 40 mm },
        command: [position],
        state: [position],
    }
}

fn main() {
    let description = Lift::DESCRIPTION;
    assert!(robot_core::validate::validate(description).is_empty());
    let joint = &description.joints[0];
    let actuator = joint.actuator.as_ref().unwrap();
    let transmission = robot_core::transmission::Transmission::of(actuator);
    assert_eq!(
        robot_core::actuator::MotorTravel::of(joint, &transmission),
        robot_core::actuator::MotorTravel::MultiTurn
    );
}
