use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link wheel {}
    joint j: continuous {
        parent: base,
        child: wheel,
        limits { lower: -3.14, upper: 3.14, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
}

fn main() {}
