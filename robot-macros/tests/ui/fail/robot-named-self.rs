use robot_macros::robot;

// The generated module would be `self`, which Rust cannot write, not even as `r#self`.
robot! {
    robot Self { update_rate: 100 Hz }
    link base {}
}

fn main() {}
