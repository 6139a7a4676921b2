use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    imu base_imu { link: base }
}

fn main() {}
