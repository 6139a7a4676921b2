use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus left_arm {}
    bus right_arm {}
    link base {}
    limb arm: left | right {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: left_arm | right_arm, can_id: 1 | 2 | 3, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
