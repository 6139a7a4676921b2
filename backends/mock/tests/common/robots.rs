//! Robots for the cases the shipped ones cannot show.

use robot_macros::robot;

robot! {
    /// Initial values, a `current` command and state, a `temperature` state, an
    /// `acceleration` command and state, and GenericSystem's test offset set in the definition.
    robot Offset {
        update_rate: 100 Hz,
        mock { position_state_following_offset: -3 },
    }
    bus main {}
    link base {}
    link one {}
    link two {}
    link three {}
    joint joint1: revolute {
        parent: base, child: one,
        limits { lower: -5, upper: 5, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [position, velocity],
        state: [position = 3.45, velocity],
    }
    joint joint2: revolute {
        parent: base, child: two,
        limits { lower: -5, upper: 5, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 2, model: RS02 },
        command: [position, velocity, current],
        state: [position = 2.78, velocity, current, temperature = 25],
    }
    joint joint3: revolute {
        parent: base, child: three,
        limits { lower: -5, upper: 5, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 3, model: RS02 },
        command: [acceleration],
        state: [position, acceleration = 0.5],
    }
}

robot! {
    /// A mimic joint reporting a velocity its followed joint does not have.
    robot Lopsided { update_rate: 100 Hz }
    bus main {}
    link base {}
    link one {}
    link two {}
    joint leader: revolute {
        parent: base, child: one,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    joint follower: revolute {
        parent: base, child: two,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        mimic { joint: leader },
        state: [position, velocity],
    }
}

robot! {
    /// A mimic of a mimic, declared before the joint it follows.
    robot Chain { update_rate: 100 Hz }
    bus main {}
    link base {}
    link one {}
    link two {}
    link three {}
    joint leader: revolute {
        parent: base, child: one,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    joint grandchild: revolute {
        parent: base, child: three,
        limits { lower: -10, upper: 10, velocity: 10, effort: 10 },
        mimic { joint: child, multiplier: 3, offset: 0.1 },
        state: [position],
    }
    joint child: revolute {
        parent: base, child: two,
        limits { lower: -5, upper: 5, velocity: 10, effort: 10 },
        mimic { joint: leader, multiplier: 2 },
        state: [position],
    }
}
