//! `six_axis_arm`: a fixed-base 6-axis arm with a parallel gripper, all on one CAN bus, the arm
//! commanded by position, velocity and a feed-forward torque (its trajectory controller's
//! gravity feed-forward), the gripper by position. It shares nothing with the biped on purpose:
//! one bus, no IMU, no limb, a continuous wrist roll, a mimic finger that follows the actuated
//! one, and named controller groups (the arm and the gripper get a trajectory controller each,
//! where the default would give the bus one).
//!
//! The numbers are a plausible desk-sized arm (0.3 m + 0.25 m links), not a product's data.

use robot_macros::robot;

robot! {
    /// A 6-axis arm: shoulder yaw, shoulder pitch and elbow on RS03/RS02, a three-axis wrist on
    /// RS00s with an unbounded roll, and a two-finger gripper whose right finger mimics the left.
    robot SixAxisArm {
        update_rate: 250 Hz,
        mock { calculate_dynamics: false },
    }

    bus arm { bitrate: 1_000_000 }

    link base {
        inertial { mass: 4.0, com: [0, 0, 0.05], inertia: [0.02, 0, 0, 0.02, 0, 0.03] }
        visual cylinder { radius: 0.08, length: 0.1, origin { xyz: [0, 0, 0.05] } }
        collision cylinder { radius: 0.08, length: 0.1, origin { xyz: [0, 0, 0.05] } }
    }
    link shoulder {
        inertial { mass: 1.2, com: [0, 0, 0.04], inertia: [0.002, 0, 0, 0.002, 0, 0.0015] }
        visual cylinder { radius: 0.05, length: 0.08, origin { xyz: [0, 0, 0.04] } }
    }
    link upper_arm {
        inertial { mass: 1.5, com: [0, 0, 0.15], inertia: [0.012, 0, 0, 0.012, 0, 0.001] }
        visual capsule { radius: 0.04, length: 0.3, origin { xyz: [0, 0, 0.15] } }
        collision capsule { radius: 0.04, length: 0.3, origin { xyz: [0, 0, 0.15] } }
    }
    link forearm {
        inertial { mass: 0.9, com: [0, 0, 0.125], inertia: [0.005, 0, 0, 0.005, 0, 0.0005] }
        visual capsule { radius: 0.03, length: 0.25, origin { xyz: [0, 0, 0.125] } }
        collision capsule { radius: 0.03, length: 0.25, origin { xyz: [0, 0, 0.125] } }
    }
    link wrist_1 {
        inertial { mass: 0.3, com: [0, 0, 0.03], inertia: [0.0002, 0, 0, 0.0002, 0, 0.0001] }
        visual sphere { radius: 0.035 }
    }
    link wrist_2 {
        inertial { mass: 0.3, com: [0, 0, 0.03], inertia: [0.0002, 0, 0, 0.0002, 0, 0.0001] }
        visual sphere { radius: 0.035 }
    }
    link flange {
        inertial { mass: 0.25, com: [0, 0, 0.02], inertia: [0.0001, 0, 0, 0.0001, 0, 0.0001] }
        visual box { size: [0.08, 0.04, 0.04], origin { xyz: [0, 0, 0.02] } }
        collision box { size: [0.08, 0.04, 0.04], origin { xyz: [0, 0, 0.02] } }
    }
    link left_finger {
        inertial { mass: 0.05, com: [0, 0, 0.03], inertia: [1e-5, 0, 0, 1e-5, 0, 2e-6] }
        collision box { size: [0.01, 0.02, 0.06], origin { xyz: [0, 0, 0.03] } }
    }
    link right_finger {
        inertial { mass: 0.05, com: [0, 0, 0.03], inertia: [1e-5, 0, 0, 1e-5, 0, 2e-6] }
        collision box { size: [0.01, 0.02, 0.06], origin { xyz: [0, 0, 0.03] } }
    }

    joint shoulder_yaw: revolute {
        parent: base, child: shoulder,
        origin { xyz: [0, 0, 0.1] },
        axis: [0, 0, 1],
        limits { lower: -170 deg, upper: 170 deg, velocity: 3, effort: 40 },
        dynamics { damping: 0.5, friction: 0.2, armature: 0.01 },
        actuator { bus: arm, can_id: 1, model: RS03 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    joint shoulder_pitch: revolute {
        parent: shoulder, child: upper_arm,
        origin { xyz: [0, 0, 0.08] },
        axis: [0, 1, 0],
        limits { lower: -90 deg, upper: 90 deg, velocity: 3, effort: 60 },
        dynamics { damping: 0.5, friction: 0.2, armature: 0.01 },
        actuator { bus: arm, can_id: 2, model: RS03, direction: -1 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    joint elbow: revolute {
        parent: upper_arm, child: forearm,
        origin { xyz: [0, 0, 0.3] },
        axis: [0, 1, 0],
        limits { lower: -150 deg, upper: 150 deg, velocity: 4, effort: 17 },
        dynamics { damping: 0.3, friction: 0.1, armature: 0.005 },
        actuator { bus: arm, can_id: 3, model: RS02 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    joint wrist_pitch: revolute {
        parent: forearm, child: wrist_1,
        origin { xyz: [0, 0, 0.25] },
        axis: [0, 1, 0],
        limits { lower: -120 deg, upper: 120 deg, velocity: 6, effort: 14 },
        dynamics { damping: 0.05, friction: 0.05, armature: 0.002 }, // an RS00's rotor
        actuator { bus: arm, can_id: 4, model: RS00 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    joint wrist_yaw: revolute {
        parent: wrist_1, child: wrist_2,
        origin { xyz: [0, 0, 0.06] },
        axis: [0, 0, 1],
        limits { lower: -120 deg, upper: 120 deg, velocity: 6, effort: 14 },
        dynamics { damping: 0.05, friction: 0.05, armature: 0.002 }, // an RS00's rotor
        actuator { bus: arm, can_id: 5, model: RS00 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    /// The wrist roll turns without end stops.
    joint wrist_roll: continuous {
        parent: wrist_2, child: flange,
        origin { xyz: [0, 0, 0.06] },
        axis: [0, 0, 1],
        limits { velocity: 8, effort: 14 },
        dynamics { damping: 0.05, friction: 0.05, armature: 0.002 }, // an RS00's rotor
        actuator { bus: arm, can_id: 6, model: RS00 },
        command: [position, velocity, effort],
        state: [position = 0.0, velocity],
    }
    joint gripper: prismatic {
        parent: flange, child: left_finger,
        origin { xyz: [0, 0.01, 0.04] },
        axis: [0, 1, 0],
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
        // The RS05's rotor, about 0.001 kg·m² at its output as lite_biped's reference model has
        // its small actuators, is 0.001 / (0.05 / 2π)² ≈ 16 kg at the rack.
        dynamics { damping: 1, friction: 0.5, armature: 16 },
        // A rack on a pinion of 8 mm pitch radius: 2π · 8 mm ≈ 50 mm of travel a turn.
        actuator { bus: arm, can_id: 7, model: RS05, lead: 50 mm },
        command: [position],
        state: [position = 0.0, velocity],
    }
    /// Follows `gripper` mirrored: the fingers close together.
    joint gripper_mimic: prismatic {
        parent: flange, child: right_finger,
        origin { xyz: [0, -0.01, 0.04] },
        axis: [0, 1, 0],
        limits { lower: -40 mm, upper: 0, velocity: 0.1, effort: 5 },
        mimic { joint: gripper, multiplier: -1, offset: 0 },
        state: [position, velocity],
    }

    // One bus, but two things to command: the arm follows trajectories (MoveIt's
    // `arm_trajectory_controller`), the gripper opens and closes on its own. The arm's
    // controller feeds the gravity torque forward through each joint's `effort`, so its servo
    // does not sag under the arm's own weight.
    controller arm {
        joints: [shoulder_yaw, shoulder_pitch, elbow, wrist_pitch, wrist_yaw, wrist_roll],
        feedforward: gravity,
    }
    controller gripper { joints: [gripper] }
}
