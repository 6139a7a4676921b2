use robot_macros::robot;

// The generated module would be `crate`, which Rust cannot write, not even as `r#crate`.
robot! {
    robot Crate { update_rate: 100 Hz }
    link base {}
}

fn main() {}
