use robot_macros::robot;

// Three actuators at 1 kHz: 3 × 2 frames × 160 bits × 1000 Hz = 960 kbit/s, 96 % of 1 Mbit/s. It
// fits the bit rate, but not the default 80 % ceiling.
robot! {
    robot Tiny { update_rate: 1000 Hz }
    bus arm {}
    link base {}
    limb finger: a | b | c {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 1 | 2 | 3, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
