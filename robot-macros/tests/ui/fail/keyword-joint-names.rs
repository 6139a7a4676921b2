use robot_macros::robot;

// Joint names the lexer accepts but Rust cannot use as fields, not even raw (`r#self`).
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link a {}
    link b {}
    link c {}
    link d {}
    link e {}
    joint self: revolute {
        parent: base, child: a,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    joint crate: revolute {
        parent: base, child: b,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position], state: [position],
    }
    joint super: revolute {
        parent: base, child: c,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 3, model: RS02 },
        command: [position], state: [position],
    }
    joint Self: revolute {
        parent: base, child: d,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 4, model: RS02 },
        command: [position], state: [position],
    }
    joint _: revolute {
        parent: base, child: e,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 5, model: RS02 },
        command: [position], state: [position],
    }
}

fn main() {}
