//! A legged robot: a small biped on a floating base, its two legs written once as a limb, a base
//! IMU, a force/torque sensor and a sole switch on each foot, all six joints on one CAN bus.

use robot_macros::robot;

robot! {
    /// A two-legged strider: hip, knee and ankle pitch per leg.
    robot Strider { update_rate: 200 Hz, floating_base: true }

    bus legs { bitrate: 1_000_000 }

    link body {
        inertial { mass: 2.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.008, 0, 0.012] }
        visual box { size: [0.12, 0.2, 0.1] }
        collision box { size: [0.12, 0.2, 0.1] }
    }
    link imu {}
    joint imu_mount: fixed { parent: body, child: imu, origin { xyz: [0, 0, 0.03] } }

    // Each leg once: `a | b` is a value per side, left then right.
    limb leg: left | right {
        link thigh {
            inertial { mass: 0.4, com: [0, 0, -0.09], inertia: [0.001, 0, 0, 0.001, 0, 0.0002] }
            collision capsule { radius: 0.02, length: 0.14, origin { xyz: [0, 0, -0.09] } }
        }
        link shin {
            inertial { mass: 0.3, com: [0, 0, -0.09], inertia: [0.0008, 0, 0, 0.0008, 0, 0.0001] }
            collision capsule { radius: 0.018, length: 0.14, origin { xyz: [0, 0, -0.09] } }
        }
        link foot {
            inertial { mass: 0.1, com: [0.02, 0, -0.02], inertia: [0.0001, 0, 0, 0.0002, 0, 0.0002] }
            collision box { size: [0.12, 0.06, 0.02], origin { xyz: [0.02, 0, -0.02] } }
        }
        joint hip_pitch: revolute {
            parent: body,
            child: thigh,
            origin { xyz: [0, 0.07 | -0.07, -0.06] },
            axis: [0, 1, 0],
            limits { lower: -90 deg, upper: 45 deg, velocity: 300 deg/s, effort: 12 N·m },
            actuator { bus: legs, can_id: 1 | 11, model: RS02, direction: -1 | 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint knee_pitch: revolute {
            parent: thigh,
            child: shin,
            origin { xyz: [0, 0, -0.18] },
            axis: [0, 1, 0],
            limits { lower: 0 deg, upper: 120 deg, velocity: 300 deg/s, effort: 12 N·m },
            actuator { bus: legs, can_id: 2 | 12, model: RS02, direction: -1 | 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint ankle_pitch: revolute {
            parent: shin,
            child: foot,
            origin { xyz: [0, 0, -0.18] },
            axis: [0, 1, 0],
            limits { lower: -60 deg, upper: 60 deg, velocity: 300 deg/s, effort: 5 N·m },
            actuator { bus: legs, can_id: 3 | 13, model: RS00 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        // What the ankle carries (`state.left_ankle_ft.force.z`, N) and whether the sole is
        // down (`state.left_sole.contact`: 1 from 2 N of normal force on the foot's collision).
        force_torque ankle_ft { link: foot, plugin: "my_vendor/AnkleFt" }
        contact sole { link: foot, plugin: "my_vendor/SoleSwitch", threshold: 2 N }
    }

    imu base_imu { link: imu, plugin: "my_vendor/BaseImu" }
}
