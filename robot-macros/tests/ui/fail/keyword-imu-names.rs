use robot_macros::robot;

// IMU names the lexer accepts but Rust cannot use as fields, not even raw (`r#self`).
robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    imu self { link: base, plugin: "pkg/Imu" }
    imu crate { link: base, plugin: "pkg/Imu" }
    imu super { link: base, plugin: "pkg/Imu" }
    imu Self { link: base, plugin: "pkg/Imu" }
    imu _ { link: base, plugin: "pkg/Imu" }
}

fn main() {}
