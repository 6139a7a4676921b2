use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    bus arm {}
    link base {}
}

fn main() {}
