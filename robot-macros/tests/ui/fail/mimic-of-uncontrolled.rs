use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link finger {}
    link finger_mirror {}
    joint finger_joint: prismatic {
        parent: base,
        child: finger,
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
    }
    joint finger_mirror_joint: prismatic {
        parent: base,
        child: finger_mirror,
        limits { lower: -40 mm, upper: 0, velocity: 0.1, effort: 5 },
        mimic { joint: finger_joint, multiplier: -1 },
        state: [position],
    }
}

fn main() {}
