use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link a {}
    link tip {}
    joint base_a: fixed { parent: base, child: a }
    joint base_tip: fixed { parent: base, child: tip }
    joint a_tip: fixed { parent: a, child: tip }
}

fn main() {}
