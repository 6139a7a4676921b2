use robot_macros::robot;

// The lite_biped ankle pitch (robots/src/lite_biped.rs), broken in one way.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus leg {}
    link shin {}
    link foot {}
    joint ankle_pitch: revolute {
        parent: shin,
        child: foot,
        axis: [0, 1, 0],
        limits { lower: -30 deg, upper: 50 deg, velocity: 30, effort: 12.8 },
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
                branch: clockwise,
            },
        },
        command: [position],
        state: [position],
    }
}

fn main() {}
