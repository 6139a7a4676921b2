use robot_macros::robot;

// `300` for `300 mm`: 300 m on a 40 mm lead is 7500 motor turns, past the ±4096 rad (651.9
// turns) over which the motor's f32 multi-turn angle still resolves its feedback.
robot! {
    robot Lift { update_rate: 100 Hz }
    bus base {}
    link base {}
    link carriage {}
    joint lift: prismatic {
        parent: base,
        child: carriage,
        limits { lower: 0, upper: 300, velocity: 0.2, effort: 500 },
        actuator { bus: base, can_id: 1, model: RS02, lead: 40 mm },
        command: [position],
        state: [position],
    }
}

fn main() {}
