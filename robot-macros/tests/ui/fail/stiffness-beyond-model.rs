use robot_macros::robot;

// An RS02's Kp spans 0..=500 N·m/rad.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, stiffness = 600, damping = 2],
        state: [position],
    }
}

fn main() {}
