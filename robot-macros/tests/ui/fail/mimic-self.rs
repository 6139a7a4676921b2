use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link finger {}
    joint finger_joint: prismatic {
        parent: base,
        child: finger,
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
        mimic { joint: finger_joint },
        state: [position],
    }
}

fn main() {}
