use robot_macros::robot;

robot! {
    robot Tiny {}
    link base {}
}

fn main() {}
