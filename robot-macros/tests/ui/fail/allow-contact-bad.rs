use robot_macros::robot;

// Allowed contacts: an unknown link (with the closest one), a link with itself, a name given
// twice, and a list of three: each reported at its token.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link upper {}
    link fore {}
    joint shoulder: revolute {
        parent: base, child: upper, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    joint elbow: revolute {
        parent: upper, child: fore, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position], state: [position],
    }
    allow_contact touch { links: [base, froe] }
    allow_contact itself { links: [fore, fore] }
    allow_contact touch { links: [base, fore] }
    allow_contact three { links: [base, upper, fore] }
}

fn main() {}
