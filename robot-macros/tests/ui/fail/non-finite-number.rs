use robot_macros::robot;

// 1e400 overflows to infinity: a rule error at the number, not a macro panic.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1e400, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position = 1e400],
        state: [position],
    }
}

fn main() {}
