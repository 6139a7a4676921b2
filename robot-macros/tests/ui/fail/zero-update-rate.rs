use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 0 Hz }
    link base {}
}

fn main() {}
