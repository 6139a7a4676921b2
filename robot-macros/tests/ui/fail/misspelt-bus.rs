use robot_macros::robot;

// A misspelt bus is one error: the joint is in the view of the bus meant.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: amr, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {
    let mut cmd = TinyCommand::default();
    cmd.arm().j.position = 1.0;
}
