use robot_macros::robot;

// Gravity fed forward goes out through `effort` commands: a group whose joints take none would
// silently feed nothing.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link upper { inertial { mass: 1, com: [0.1, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] } }
    joint shoulder: revolute {
        parent: base, child: upper, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, velocity],
        state: [position, velocity],
    }
    controller arm { joints: [shoulder], feedforward: gravity }
}

fn main() {}
