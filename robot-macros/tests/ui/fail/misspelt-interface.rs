use robot_macros::robot;

// `veloctiy` is one swap from `velocity`: the error says so, and the field `velocity` is still
// generated, so the controller code below gets no second error.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, veloctiy],
        state: [position],
    }
}

fn main() {
    let mut cmd = TinyCommand::default();
    cmd.j.velocity = 1.0;
    assert_eq!(cmd.j.velocity, 1.0);
}
