use robot_macros::robot;

// A misspelt model is one error: the joint keeps its actuator, so it stays in its bus's view and
// the controller code below gets no `no field` error on top.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS6 },
        command: [position],
        state: [position],
    }
}

fn main() {
    let mut cmd = TinyCommand::default();
    cmd.arm().j.position = 1.0;
}
