use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -90deg, upper: 90 deg, velocity: 10, effort: 10 },
    }
}

fn main() {}
