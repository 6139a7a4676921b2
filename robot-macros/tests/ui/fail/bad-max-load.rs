use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm { max_load: 120 % }
    link base {}
}

fn main() {}
