use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link a {}
    link b {}
    link imu {}
    joint shoulder: revolute {
        parent: base,
        child: a,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position = 0.5, velocity, effort],
    }
    joint elbow: revolute {
        parent: a,
        child: b,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position],
        state: [position, temperature],
    }
    joint imu_frame: fixed { parent: base, child: imu }
    imu base_imu { link: imu, plugin: "pkg/Imu" }
}

fn main() {
    let mut cmd = TinyCommand::default();
    assert!(cmd.shoulder.position.is_nan(), "a fresh command is NaN");
    cmd.shoulder.position = 0.3;
    cmd.shoulder.stiffness = 40.0;
    cmd.elbow.position = -0.2;

    let state = TinyState::default();
    let q: f64 = state.shoulder.position;
    assert_eq!(q, 0.5, "the initial value");
    let _: f64 = state.elbow.temperature;
    let _ = state.base_imu.orientation;

    assert_eq!(Tiny::SHOULDER.POSITION, "shoulder/position");
    assert_eq!(Tiny::SHOULDER.STIFFNESS, "shoulder/stiffness");
    assert_eq!(Tiny::ELBOW.TEMPERATURE, "elbow/temperature");

    // The per-bus view borrows the joints of one bus.
    cmd.arm().elbow.position = 0.1;
    assert_eq!(cmd.elbow.position, 0.1);
    assert_eq!(state.arm().shoulder.position, 0.5);
}
