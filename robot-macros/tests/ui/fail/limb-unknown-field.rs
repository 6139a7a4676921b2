use robot_macros::robot;

// A mistake in a limb is reported once, not once per side.
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
            actuator { bus: left_arm | right_arm, can_id: 1, model: RS02, dirction: -1 | 1 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
