use robot_macros::robot;

robot! {
    link base {}
    link tip {}
    joint j: fixed { parent: base, child: tip }
}

fn main() {}
