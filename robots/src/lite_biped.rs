//! `lite_biped`: a legs-only floating-base biped, 14 actuated joints, 7 per leg, on two CAN buses.
//!
//! Transcribed from the public lite_description data (MIT licence; `berkeley-humanoids/lite_description`, `lite_description/robots/lite_biped/`):
//! links, inertias, joint origins, axes and position limits from `lite_biped.urdf`; CAN ids,
//! models, directions, torque and current limits from `ros2_control.json`; armature and friction
//! from `lite_biped.xml`. The meshes are not ours: geometry is the reference's collision primitives
//! (its cylinders as the capsules its MJCF uses).
//!
//! Where this definition departs from the reference, on purpose:
//! * **Velocity limits.** The URDF says 100 rad/s everywhere, more than any RobStride model can
//!   turn; `robot!` rejects that. Each joint gets its model's ceiling (docs/robstride-protocol.md §9, manual
//!   family): RS06 50, RS02 44, RS00 33, RS05 50 rad/s; the four-bar ankle pitch 30 rad/s (33 rad/s
//!   × the smallest ratio J = 0.916 over its range).
//! * **Ankle pitch torque.** 12.8 N·m, not 14: the RS00 gives 14 N·m at the motor, and through
//!   the four-bar (J up to 1.092 over −30°…+50°) that is 12.8 N·m at the joint at worst.
//! * **Update rate.** 200 Hz, the period of the reference MJCF (`timestep="0.005"`); at 1 kHz seven
//!   actuators (two 160-bit frames each per cycle) would need 2.24 Mbit/s on a 1 Mbit/s bus.

use robot_macros::robot;

robot! {
    /// The lite biped: 16 links, 15 joints (14 actuated revolute joints and the fixed
    /// `imu_frame`), left leg on bus `left_leg` (CAN ids 31–37), right leg on `right_leg` (41–47),
    /// a base IMU on the `imu` frame.
    robot LiteBiped {
        update_rate: 200 Hz,
        floating_base: true,
    }

    bus left_leg { bitrate: 1_000_000 }
    bus right_leg { bitrate: 1_000_000 }

    link pelvis {
        inertial {
            mass: 2.1,
            com: [0.0137049, 6.97587e-07, 0.0692011],
            inertia: [0.00987937, 3.9803e-08, -0.000115563, 0.00823366, -5.1965e-08, 0.00638151],
        }
        visual box { size: [0.1, 0.18, 0.12], origin { xyz: [0.0137049, 0, 0.0692011] } }
    }
    link imu {
        inertial { mass: 1e-9, inertia: [0, 0, 0, 0, 0, 0] }
    }
    joint imu_frame: fixed {
        parent: pelvis,
        child: imu,
        origin { xyz: [0, 0, 0.08] },
    }

    limb leg: left | right {
        link hip_pitch {
            inertial { mass: 0.18, com: [-0.0114774 | -0.0114771, 0.00418673 | 0.00418737, 0.0187959 | -0.0187964], inertia: [0.000189549 | 0.000189546, 1.56103e-05 | 1.56176e-05, -3.45388e-05 | 3.45408e-05, 0.000226363 | 0.00022637, 1.30141e-05 | -1.30122e-05, 0.000286537 | 0.000286535] }
        }
        link hip_roll {
            inertial { mass: 0.93, com: [-4.8952e-08 | -1.13349e-07, 0.0525082 | 0.0525083, -0.0652484 | -0.0652488], inertia: [0.00263146 | 0.00263147, -5.134e-09 | 2.71e-10, 3.451e-09 | 6.079e-09, 0.00142387, -0.000651416 | -0.000651423, 0.00255491 | 0.00255493] }
            collision capsule { radius: 0.05, length: 0.15, origin { xyz: [0, 0.181098, -0.0871979], rpy: [1.22173, 0, 0] } }
            visual capsule { radius: 0.05, length: 0.15, origin { xyz: [0, 0.181098, -0.0871979], rpy: [1.22173, 0, 0] } }
        }
        link hip_yaw {
            inertial { mass: 1.54, com: [0.00130442 | 0.00130421, -2.2783e-05 | 2.35733e-05, -0.237299], inertia: [0.00856423 | 0.00856421, 8.05553e-07 | -7.98006e-07, -0.000337563 | -0.000337552, 0.00874707 | 0.00874705, 1.62929e-07 | -2.23692e-07, 0.00192866 | 0.00192867] }
        }
        link knee_pitch {
            inertial { mass: 0.23, com: [-0.00486713 | -0.0048642, 0.0372163 | 0.0372186, -0.000224083 | 0.000224747], inertia: [0.00048246 | 0.000482479, 3.51526e-05 | 3.5171e-05, -1.20098e-07 | 1.13103e-07, 0.000330466 | 0.000330463, 5.6617e-07 | -5.54061e-07, 0.00037756 | 0.000377561] }
            collision capsule { radius: 0.045, length: 0.12, origin { xyz: [-0.015, 0.19, 0], rpy: [1.5708, 1.5708, 0] } }
            visual capsule { radius: 0.045, length: 0.12, origin { xyz: [-0.015, 0.19, 0], rpy: [1.5708, 1.5708, 0] } }
        }
        link ankle_yaw {
            inertial { mass: 1.03, com: [-0.00304992 | -0.00304908, 0.00150525 | -0.0015054, -0.18535 | -0.185348], inertia: [0.00548966 | 0.00548969, 2.18778e-06 | -2.19478e-06, 0.000114943 | 0.000114953, 0.00552969 | 0.00552968, -1.87643e-05 | 1.87697e-05, 0.000829513 | 0.00082951] }
        }
        link ankle_pitch {
            inertial { mass: 0.34, com: [-0.00384209, 0.0297371, 3.1356e-08 | 3.1396e-08], inertia: [0.000180143, -3.10163e-05, -7.8e-11, 0.00014325, 2.66e-10, 0.000245142] }
        }
        link foot {
            inertial { mass: 0.44, com: [0.00124938 | -0.0012494, 0.0227876, 0.0398042 | 0.039804], inertia: [0.00133847, -3.31857e-06 | 3.3182e-06, -4.29633e-05 | 4.29635e-05, 0.00119465, -0.000154848 | -0.000154847, 0.000481763] }
            collision box { size: [0.065, 0.12, 0.03], origin { xyz: [0, 0.05, 0.015], rpy: [1.5708, 0, 0] } }
            collision box { size: [0.07, 0.05, 0.03], origin { xyz: [0, 0.04, 0.11], rpy: [1.91986, 0, 0] } }
            visual box { size: [0.065, 0.12, 0.03], origin { xyz: [0, 0.05, 0.015], rpy: [1.5708, 0, 0] } }
            visual box { size: [0.07, 0.05, 0.03], origin { xyz: [0, 0.04, 0.11], rpy: [1.91986, 0, 0] } }
        }
        joint hip_pitch: revolute {
            parent: pelvis,
            child: hip_pitch,
            origin { xyz: [0.02, 0.07 | -0.07, 0], rpy: [-1.74533 | -1.39626, 0, 0] },
            axis: [0, 0, 1],
            limits { lower: -2.35619, upper: 0.785398, velocity: 50, effort: 36, current: 43 },
            dynamics { friction: 0.1, armature: 0.008 },
            actuator { bus: left_leg | right_leg, can_id: 31 | 41, model: RS06, direction: -1 | 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint hip_roll: revolute {
            parent: hip_pitch,
            child: hip_roll,
            origin { xyz: [0, 0, 0], rpy: [1.91986 | -1.22173, 1.39626, 1.5708 | -1.5708] },
            axis: [0, 0, 1],
            limits { lower: -0.349066 | -1.5708, upper: 1.5708 | 0.349066, velocity: 50, effort: 36, current: 43 },
            dynamics { friction: 0.1, armature: 0.008 },
            actuator { bus: left_leg | right_leg, can_id: 32 | 42, model: RS06, direction: 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint hip_yaw: revolute {
            parent: hip_roll,
            child: hip_yaw,
            origin { xyz: [0, -0.0068404, -0.0187939], rpy: [0, -1.22173, 1.5708] },
            axis: [0, 0, 1],
            limits { lower: -1.5708, upper: 1.5708, velocity: 44, effort: 17, current: 27 },
            dynamics { friction: 0.1, armature: 0.005 },
            actuator { bus: left_leg | right_leg, can_id: 33 | 43, model: RS02, direction: 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint knee_pitch: revolute {
            parent: hip_yaw,
            child: knee_pitch,
            origin { xyz: [-0.01, 0, -0.33], rpy: [-1.5708, 0, 0] },
            axis: [0, 0, 1],
            limits { lower: 0, upper: 2.35619, velocity: 50, effort: 36, current: 43 },
            dynamics { friction: 0.1, armature: 0.008 },
            actuator { bus: left_leg | right_leg, can_id: 34 | 44, model: RS06, direction: -1 | 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint ankle_yaw: revolute {
            parent: knee_pitch,
            child: ankle_yaw,
            origin { xyz: [-0.015, 0, 0], rpy: [1.5708, 0, 0] },
            axis: [0, 0, 1],
            limits { lower: -1.5708, upper: 1.5708, velocity: 33, effort: 14, current: 16 },
            dynamics { friction: 0.1, armature: 0.002 },
            actuator { bus: left_leg | right_leg, can_id: 35 | 45, model: RS00, direction: 1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint ankle_pitch: revolute {
            parent: ankle_yaw,
            child: ankle_pitch,
            origin { xyz: [0.01, 0, -0.34], rpy: [-1.5708, 0, 0] },
            axis: [0, 0, 1],
            limits { lower: -0.523599, upper: 0.872665, velocity: 30, effort: 12.8, current: 16 },
            dynamics { friction: 0.1, armature: 0.002 },
            actuator {
                bus: left_leg | right_leg,
                can_id: 36 | 46,
                model: RS00,
                direction: 1 | -1,
                // The actuator in the shin pushes a coupler to a crank on the foot. Conventions
                // (plane, angles, branch): `robot_core::fourbar`.
                four_bar {
                    ground: [-12 mm, 160 mm],
                    input_crank: 40 mm,
                    coupler: 150 mm,
                    output_crank: 40 mm,
                    alpha_zero: 338.82213 deg,
                    sign: 1,
                    branch: counter_clockwise,
                },
            },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint ankle_roll: revolute {
            parent: ankle_pitch,
            child: foot,
            origin { xyz: [0, 0.04, 0], rpy: [0, 1.5708, 0] },
            axis: [0, 0, 1],
            limits { lower: -0.349066, upper: 0.349066, velocity: 50, effort: 5.5, current: 14 },
            dynamics { friction: 0.1, armature: 0.001 },
            actuator { bus: left_leg | right_leg, can_id: 37 | 47, model: RS05, direction: -1 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }


    imu base_imu {
        link: imu,
        plugin: "humanoid_devices_imu_hardware/YahboomImuSensor",
    }
}
