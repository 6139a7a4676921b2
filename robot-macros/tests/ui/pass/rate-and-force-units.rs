use robot_macros::robot;

// The units robot builders write for speeds, torques and forces, each in SI in the model.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link a {}
    link b {}
    link c {}
    link d {}
    joint by_rpm: revolute {
        parent: base,
        child: a,
        limits { lower: -1, upper: 1, velocity: 420 rpm, effort: 10 Nm },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    joint by_degrees: revolute {
        parent: a,
        child: b,
        limits { lower: -1, upper: 1, velocity: 360 deg/s, effort: 12.5 N·m },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position],
        state: [position],
    }
    joint by_radians: revolute {
        parent: b,
        child: c,
        limits { lower: -1, upper: 1, velocity: 20 rad/s, effort: 10 },
        actuator { bus: arm, can_id: 3, model: RS02 },
        command: [position],
        state: [position],
    }
    joint lift: prismatic {
        parent: c,
        child: d,
        limits { lower: 0, upper: 100 mm, velocity: 50 mm/s, effort: 200 N },
        actuator { bus: arm, can_id: 4, model: RS02, lead: 10 mm },
        command: [position],
        state: [position],
    }
}

fn main() {
    use std::f64::consts::{PI, TAU};
    let limits = |i: usize| Tiny::DESCRIPTION.joints[i].limits.unwrap();
    let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(near(limits(0).velocity, 420.0 * TAU / 60.0));
    assert!(near(limits(0).effort, 10.0));
    assert!(near(limits(1).velocity, 2.0 * PI));
    assert!(near(limits(1).effort, 12.5));
    assert!(near(limits(2).velocity, 20.0));
    assert!(near(limits(3).velocity, 0.05));
    assert!(near(limits(3).effort, 200.0));
    assert!(robot_core::validate::validate(Tiny::DESCRIPTION).is_empty());
}
