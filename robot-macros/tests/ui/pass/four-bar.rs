use robot_macros::robot;

// The lite_biped ankle pitch (robots/src/lite_biped.rs).
robot! {
    robot Ankle { update_rate: 200 Hz }
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
                branch: counter_clockwise,
            },
        },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
}

fn main() {
    let d = Ankle::DESCRIPTION;
    assert!(robot_core::validate::validate(d).is_empty());
    let joint = d.joint("ankle_pitch").unwrap();
    let four_bar = joint.actuator.clone().unwrap().four_bar.unwrap();
    assert!((four_bar.ground[0] + 0.012).abs() < 1e-12);
    assert!((four_bar.coupler - 0.150).abs() < 1e-12);
    assert_eq!(
        four_bar.branch,
        robot_core::fourbar::Branch::CounterClockwise
    );
    let limits = joint.limits.unwrap();
    let report = four_bar
        .check_range(limits.lower.unwrap(), limits.upper.unwrap())
        .unwrap();
    assert!(report.min_ratio.abs() > 0.9 && report.max_ratio.abs() < 1.1);
}
