use robot_macros::robot;

// Bus names the lexer accepts but Rust cannot use as method names, not even raw (`r#self`).
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus self {}
    bus crate {}
    bus super {}
    bus Self {}
    bus _ {}
    link base {}
}

fn main() {}
