//! Robots for the cases lite_biped cannot show: joints commanded by position, velocity and
//! effort alone (a "mixed setup"), a mimic finger, a continuous wheel; and a foot with a
//! force/torque and a contact sensor, which the real path reads from topics (`SensorTopic`).

use robot_macros::robot;

robot! {
    /// One joint per command kind, a mimic and a wheel.
    robot Mixed { update_rate: 200 Hz }
    bus main {}
    link base {}
    link one {}
    link two {}
    link three {}
    link four {}
    link five {}
    joint pos: revolute {
        parent: base, child: one,
        limits { lower: -3, upper: 3, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [position],
        state: [position, velocity],
    }
    joint vel: revolute {
        parent: base, child: two,
        limits { lower: -3, upper: 3, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 2, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
    joint eff: revolute {
        parent: base, child: three,
        limits { lower: -3, upper: 3, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 3, model: RS02 },
        command: [effort],
        state: [position, effort],
    }
    joint wheel: continuous {
        parent: base, child: four,
        limits { velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 4, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
    joint finger: revolute {
        parent: one, child: five,
        limits { lower: -10, upper: 10, velocity: 10, effort: 10 },
        mimic { joint: pos, multiplier: -2, offset: 0.1 },
        state: [position, velocity],
    }
}

robot! {
    /// An ankle, its force/torque sensor and a contact switch under the sole.
    robot Foot { update_rate: 200 Hz }
    bus leg {}
    link shin {}
    link foot { collision box { size: [0.2, 0.1, 0.02] } }
    joint ankle: revolute {
        parent: shin, child: foot, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: leg, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    force_torque ankle_ft { link: foot, plugin: "vendor/AnkleFt" }
    contact sole { link: foot, plugin: "vendor/SoleSwitch" }
}
