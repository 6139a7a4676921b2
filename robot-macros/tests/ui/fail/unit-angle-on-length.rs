use robot_macros::robot;

// An origin's `xyz` is a length.
robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link tip {}
    joint j: fixed {
        parent: base,
        child: tip,
        origin { xyz: [0, 0, 10 deg] },
    }
}

fn main() {}
