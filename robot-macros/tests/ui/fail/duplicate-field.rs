use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link tip {}
    joint j: fixed { parent: base, child: tip, parent: base }
}

fn main() {}
