use robot_macros::robot;

// A current limit is in A, which has no unit in the language: `deg` there is a mistake.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10, current: 20 deg },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {}
