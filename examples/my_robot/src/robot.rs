//! The robot: a pan-tilt head, two RobStride joints on one CAN bus.

use robot_macros::robot;

robot! {
    /// A pan-tilt camera head.
    robot PanTilt { update_rate: 200 Hz }

    bus head { bitrate: 1_000_000 }

    link base {
        inertial { mass: 0.8, com: [0, 0, 0.03], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
        visual cylinder { radius: 0.05, length: 0.06, origin { xyz: [0, 0, 0.03] } }
    }
    link yoke {
        inertial { mass: 0.3, com: [0, 0, 0.04], inertia: [0.0003, 0, 0, 0.0003, 0, 0.0002] }
    }
    link camera {
        inertial { mass: 0.2, com: [0.02, 0, 0], inertia: [0.0001, 0, 0, 0.0001, 0, 0.0001] }
        visual box { size: [0.06, 0.1, 0.04] }
    }
    joint pan: revolute {
        parent: base,
        child: yoke,
        origin { xyz: [0, 0, 0.06] },
        axis: [0, 0, 1],
        limits { lower: -170 deg, upper: 170 deg, velocity: 10, effort: 5 },
        actuator { bus: head, can_id: 1, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
    joint tilt: revolute {
        parent: yoke,
        child: camera,
        origin { xyz: [0, 0, 0.08] },
        axis: [0, 1, 0],
        limits { lower: -45 deg, upper: 60 deg, velocity: 10, effort: 5 },
        actuator { bus: head, can_id: 2, model: RS00 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
}
