use robot_macros::robot;

// Every link has one parent at most, yet `a` and `b` are each other's parent.
robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link a {}
    link b {}
    joint a_b: fixed { parent: a, child: b }
    joint b_a: fixed { parent: b, child: a }
}

fn main() {}
