use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm { bitrate: 2_000_000 }
    link base {}
}

fn main() {}
