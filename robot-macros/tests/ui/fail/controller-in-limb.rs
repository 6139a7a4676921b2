use robot_macros::robot;

// Controller groups are top-level items: a limb holds links, joints and sensors.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    bus base {}
    link chassis {}
    link upper {}
    link lower {}
    link tyre {}
    link finger {}
    joint shoulder: revolute {
        parent: chassis, child: upper,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
    joint elbow: revolute {
        parent: upper, child: lower,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position],
        state: [position, velocity],
    }
    joint wheel: continuous {
        parent: chassis, child: tyre,
        limits { velocity: 20, effort: 10 },
        actuator { bus: base, can_id: 1, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
    joint finger_mirror: revolute {
        parent: lower, child: finger,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        mimic { joint: elbow },
        state: [position],
    }
    limb side: left | right {
        controller arm { joints: [shoulder] }
    }
}

fn main() {}
