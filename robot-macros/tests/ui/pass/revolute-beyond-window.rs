use robot_macros::robot;

// The MIT frame encodes ±4π (720°) of motor angle; a joint reaching 800° is counted in turns by
// the backend, as a continuous one is, not refused.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 800 deg, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {
    assert!(robot_core::validate::validate(Tiny::DESCRIPTION).is_empty());
}
