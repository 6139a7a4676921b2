use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link upper {}
    joint shoulder: revolute {
        parent: base,
        child: upper,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02, lead: 5 mm },
        command: [position],
        state: [position],
    }
}

fn main() {}
