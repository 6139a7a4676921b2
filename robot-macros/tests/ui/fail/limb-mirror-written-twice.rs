use robot_macros::robot;

// `mirror: y` negates y, roll and yaw, a hinge's x and z, the centre of mass's y on the second
// side already: writing the mirrored value by hand mirrors it twice. Each such value is an error
// at its token; a per-side value the mirror does not touch (`can_id: 1 | 2`) is not.
robot! {
    robot Twice { update_rate: 100 Hz }
    bus b {}
    link torso {}
    limb arm: left | right, mirror: y {
        link upper {
            inertial { mass: 1, com: [0, 0.02 | -0.02, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] },
        }
        joint shoulder: revolute {
            parent: torso,
            child: upper,
            origin { xyz: [0, 0.25 | -0.25, 0.44], rpy: [0.1 | -0.1, 0, 0] },
            axis: [0.6 | -0.6, 0.8, 0],
            limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
            actuator { bus: b, can_id: 1 | 2, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {}
