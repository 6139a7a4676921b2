use robot_macros::robot;

robot! {
    robot Arms { update_rate: 200 Hz }
    bus left_arm {}
    bus right_arm {}
    link torso {}
    limb arm: left | right {
        link upper {}
        link lower {}
        joint shoulder: revolute {
            parent: torso,
            child: upper,
            origin { xyz: [0, 0.2 | -0.2, 0.4] },
            axis: [0, 1, 0],
            limits { lower: -90 deg, upper: 90 deg, velocity: 10, effort: 10 },
            actuator { bus: left_arm | right_arm, can_id: 1 | 11, model: RS02 },
            command: [position, stiffness = 20.0],
            state: [position],
        }
        joint elbow: revolute {
            parent: upper,
            child: lower,
            origin { xyz: [0, 0, -0.3] },
            axis: [0, 1, 0],
            // A per-joint override: one direction per side.
            limits { lower: 0, upper: 2.5, velocity: 10, effort: 10 },
            actuator { bus: left_arm | right_arm, can_id: 2 | 12, model: RS02, direction: -1 | 1 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {
    use robot_core::model::Direction;

    let d = Arms::DESCRIPTION;
    assert!(robot_core::validate::validate(d).is_empty());
    let names: Vec<&str> = d.joints.iter().map(|j| j.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "left_shoulder",
            "left_elbow",
            "right_shoulder",
            "right_elbow"
        ]
    );
    let joint = |name: &str| d.joint(name).unwrap();
    assert_eq!(joint("left_shoulder").origin.xyz, [0.0, 0.2, 0.4]);
    assert_eq!(joint("right_shoulder").origin.xyz, [0.0, -0.2, 0.4]);
    assert_eq!(joint("right_shoulder").parent, "torso");
    assert_eq!(joint("right_elbow").parent, "right_upper");
    let actuator = |name: &str| joint(name).actuator.clone().unwrap();
    assert_eq!(actuator("left_elbow").bus, "left_arm");
    assert_eq!(u16::from(actuator("right_elbow").can_id), 12);
    assert_eq!(actuator("left_elbow").direction, Direction::Reversed);
    assert_eq!(actuator("right_elbow").direction, Direction::Forward);
    assert_eq!(actuator("left_shoulder").direction, Direction::Forward);
    assert!(
        (joint("left_shoulder").limits.unwrap().lower.unwrap() + std::f64::consts::FRAC_PI_2).abs()
            < 1e-12
    );

    let cmd = ArmsCommand::default();
    assert_eq!(cmd.right_shoulder.stiffness, 20.0);
    assert!(cmd.right_shoulder.position.is_nan());
}
