use robot_macros::robot;

// Three independent mistakes; all three are reported.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link a {}
    link b {}
    joint shoulder: revolute {
        parent: base,
        child: a,
        limits { lower: 1, upper: -1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    joint elbow: revolute {
        parent: a,
        child: b,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arn, can_id: 2, model: RS02 },
        command: [position],
        state: [position],
    }
    imu base_imu { link: bsae, plugin: "pkg/Imu" }
}

fn main() {}
