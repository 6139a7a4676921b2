use robot_macros::robot;

// A rule broken by a value a limb shares is reported once, naming the limb, at the one token.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    limb arm: left | right {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: amr, can_id: 1 | 2, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
