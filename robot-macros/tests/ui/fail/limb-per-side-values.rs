use robot_macros::robot;

// Per-side values are each their own token: each side's broken rule is reported at its own.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    limb arm: left | right {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 40 | 50 },
            actuator { bus: arm, can_id: 1 | 2, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
