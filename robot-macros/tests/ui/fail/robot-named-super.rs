use robot_macros::robot;

// The generated module would be `super`, which Rust cannot write, not even as `r#super`.
robot! {
    robot Super { update_rate: 100 Hz }
    link base {}
}

fn main() {}
