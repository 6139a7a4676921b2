use robot_macros::robot;

// Limb names become a view method and types (`leg()`, `LegState`), and a limb's joint names
// without the side become the views' fields: none may be a name Rust cannot write, not even raw.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    limb self: left | right {
        link a {}
        joint ja: revolute {
            parent: base, child: a,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 1 | 2, model: RS02 },
            command: [position], state: [position],
        }
    }
    limb crate: left | right {
        link b {}
        joint jb: revolute {
            parent: base, child: b,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 3 | 4, model: RS02 },
            command: [position], state: [position],
        }
    }
    limb super: left | right {
        link c {}
        joint jc: revolute {
            parent: base, child: c,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 5 | 6, model: RS02 },
            command: [position], state: [position],
        }
    }
    limb arm: left | right {
        link d {}
        link e {}
        link f {}
        link g {}
        link h {}
        joint self: revolute {
            parent: base, child: d,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 7 | 8, model: RS02 },
            command: [position], state: [position],
        }
        joint Self: revolute {
            parent: base, child: e,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 9 | 10, model: RS02 },
            command: [position], state: [position],
        }
        joint crate: revolute {
            parent: base, child: f,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 11 | 12, model: RS02 },
            command: [position], state: [position],
        }
        joint super: revolute {
            parent: base, child: g,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 13 | 14, model: RS02 },
            command: [position], state: [position],
        }
        joint _: revolute {
            parent: base, child: h,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 15 | 16, model: RS02 },
            command: [position], state: [position],
        }
    }
}

fn main() {}
