use robot_macros::robot;

// A unit of the wrong dimension is told which units the field takes: a velocity in `deg`
// (not `deg/s`), a torque in `N`.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 360 deg, effort: 10 N },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {}
