//! The folded arm several tests share (robot-collision's, the MuJoCo backend's, the runner's):
//! a base, an upper arm and a forearm whose box reaches 4 mm into the base at the home pose; the
//! base is the forearm's grandparent, so MuJoCo collides them. `folded!(Name, floating_base)`
//! defines it; items after the flag (links, joints, an `allow_contact`) are added to it. Each
//! test includes this file by path.

macro_rules! folded {
    ($name:ident, $base:literal $($more:tt)*) => {
        robot_macros::robot! {
            robot $name { update_rate: 200 Hz, floating_base: $base }
            bus b {}
            link base {
                inertial { mass: 1.0, com: [0, 0, 0], inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
                collision box { size: [0.2, 0.2, 0.1], origin { xyz: [0, 0, -0.05] } }
            }
            link upper {
                inertial { mass: 0.5, com: [0, 0, 0.1], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
            }
            link fore {
                inertial { mass: 0.5, com: [0.1, 0, 0], inertia: [0.001, 0, 0, 0.001, 0, 0.001] }
                collision box { size: [0.2, 0.04, 0.04], origin { xyz: [0.1, 0, 0.016] } }
            }
            joint shoulder: revolute {
                parent: base, child: upper, axis: [0, 0, 1],
                limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
                actuator { bus: b, can_id: 1, model: RS02 },
                command: [position], state: [position],
            }
            joint elbow: revolute {
                parent: upper, child: fore, axis: [0, 1, 0],
                limits { lower: -1, upper: 1, velocity: 1, effort: 10 },
                actuator { bus: b, can_id: 2, model: RS02 },
                command: [position], state: [position],
            }
            $($more)*
        }
    };
}
