use robot_macros::robot;

// Eight actuators on one 1 Mbit/s bus at 1 kHz: 8 × 2 frames × 160 bits × 1000 Hz = 2.56 Mbit/s.
robot! {
    robot Tiny { update_rate: 1000 Hz }
    bus arm { bitrate: 1_000_000 }
    link base {}
    limb finger: a | b | c | d | e | f | g | h {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
