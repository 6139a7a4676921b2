use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {
        inertial { mass: -1, inertia: [0.01, 0, 0, 0.01, 0, 0.01] }
    }
}

fn main() {}
