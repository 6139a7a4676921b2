use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link a {}
    link b {}
    joint j: fixed { parent: base, child: a }
    joint j: fixed { parent: base, child: b }
}

fn main() {}
