use robot_macros::robot;

// A misspelt field in one joint and a broken rule in another: both are reported. The joint with
// the syntax error gets no rule errors of its own (they would be follow-ons).
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link a {}
    link b {}
    link c {}
    joint shoulder: revolute {
        parent: base,
        child: a,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 7, model: RS02 },
        command: [position],
        state: [position],
    }
    joint elbow: revolute {
        parent: a,
        child: b,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 7, model: RS02 },
        command: [position],
        state: [position],
    }
    joint wrist: revolute {
        parent: b,
        child: c,
        limits { lower: 1, upper: -1, velocity: 10, efort: 10 },
        actuator { bus: arm, can_id: 8, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {}
