use robot_macros::robot;

// The per-side forms of a limb: a whole block per side, and `none`, which leaves an entry out
// on a side (a four-bar on the left leg only).
robot! {
    robot Legs { update_rate: 200 Hz }
    bus left_leg {}
    bus right_leg {}
    link pelvis {}
    limb leg: left | right {
        link shin {}
        link foot {}
        joint knee: revolute {
            parent: pelvis,
            child: shin,
            origin: { xyz: [0, 0.1, -0.3] } | { xyz: [0, -0.1, -0.3], rpy: [0, 0, 180 deg] },
            axis: [0, 1, 0],
            limits { lower: 0, upper: 2, velocity: 10, effort: 10 },
            actuator { bus: left_leg | right_leg, can_id: 1 | 11, model: RS02 },
            command: [position],
            state: [position],
        }
        joint ankle_pitch: revolute {
            parent: shin,
            child: foot,
            origin { xyz: [0, 0, -0.3] },
            axis: [0, 1, 0],
            limits { lower: -30 deg, upper: 50 deg, velocity: 20, effort: 12 },
            actuator {
                bus: left_leg | right_leg,
                can_id: 2 | 12,
                model: RS00,
                four_bar: {
                    ground: [-12 mm, 160 mm],
                    input_crank: 40 mm,
                    coupler: 150 mm,
                    output_crank: 40 mm,
                    alpha_zero: 338.82213 deg,
                    sign: 1,
                    branch: counter_clockwise,
                } | none,
            },
            command: [position],
            state: [position],
        }
    }
}

fn main() {
    let d = Legs::DESCRIPTION;
    assert!(
        robot_core::validate::validate(d).is_empty(),
        "{:?}",
        robot_core::validate::validate(d)
    );
    let joint = |name: &str| d.joint(name).unwrap();
    assert_eq!(joint("left_knee").origin.xyz, [0.0, 0.1, -0.3]);
    assert_eq!(joint("left_knee").origin.rpy, [0.0, 0.0, 0.0]);
    assert_eq!(joint("right_knee").origin.xyz, [0.0, -0.1, -0.3]);
    assert!((joint("right_knee").origin.rpy[2] - std::f64::consts::PI).abs() < 1e-12);
    let actuator = |name: &str| joint(name).actuator.clone().unwrap();
    assert!(actuator("left_ankle_pitch").four_bar.is_some());
    assert!(actuator("right_ankle_pitch").four_bar.is_none());
}
