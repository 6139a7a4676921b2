use robot_macros::robot;

// Mistakes found while reading the definition are all reported too.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, efort: 10 },
        actuator { bus: arm, can_id: 1, model: RS07 },
        command: [position, kp],
        state: [position],
    }
}

fn main() {}
