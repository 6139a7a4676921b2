use robot_macros::robot;

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
        command: [position],
        state: [position],
    }
}


// `joints_mut::<T>()` takes only this robot's interface-set types: a plain `f64`, or a state
// type where a command type belongs, is a compile error, not an empty walk.
fn main() {
    let mut cmd = TinyCommand::default();
    for (_, position) in cmd.joints_mut::<f64>() {
        *position = 0.0;
    }
    let _ = cmd.joints::<tiny::PositionState>();
}
