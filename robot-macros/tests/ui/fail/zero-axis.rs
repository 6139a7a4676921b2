use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        axis: [0, 0, 0],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
    }
}

fn main() {}
