use robot_macros::robot;

// The lite_biped ankle pitch asking for the RS00's full 14 N·m at the joint: through the linkage
// (J up to 1.092) the motor can give only 12.8 N·m there.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus leg {}
    link shin {}
    link foot {}
    joint ankle_pitch: revolute {
        parent: shin,
        child: foot,
        axis: [0, 1, 0],
        limits { lower: -30 deg, upper: 50 deg, velocity: 30, effort: 14 },
        actuator {
            bus: leg,
            can_id: 36,
            model: RS00,
            four_bar {
                ground: [-12 mm, 160 mm],
                input_crank: 40 mm,
                coupler: 150 mm,
                output_crank: 40 mm,
                alpha_zero: 338.82213 deg,
                sign: 1,
                branch: counter_clockwise,
            },
        },
        command: [position],
        state: [position],
    }
}

fn main() {}
