use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link a {}
    link b {}
    link c {}
    joint base_a: fixed { parent: base, child: a }
    joint a_b: fixed { parent: a, child: b }
    joint b_c: fixed { parent: b, child: c }
    joint c_b: fixed { parent: c, child: b }
}

fn main() {}
