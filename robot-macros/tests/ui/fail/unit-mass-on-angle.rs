use robot_macros::robot;

// An origin's `rpy` is an angle.
robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link tip {}
    joint j: fixed {
        parent: base,
        child: tip,
        origin { rpy: [0, 90 g, 0] },
    }
}

fn main() {}
