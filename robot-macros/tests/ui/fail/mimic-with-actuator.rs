use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link finger {}
    link finger_mirror {}
    joint finger_joint: prismatic {
        parent: base,
        child: finger,
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
        actuator { bus: arm, can_id: 1, model: RS02, lead: 50 mm },
        command: [position],
        state: [position],
    }
    joint finger_mirror_joint: prismatic {
        parent: base,
        child: finger_mirror,
        limits { lower: -40 mm, upper: 0, velocity: 0.1, effort: 5 },
        actuator { bus: arm, can_id: 2, model: RS02, lead: 50 mm },
        mimic { joint: finger_joint, multiplier: -1 },
        state: [position],
    }
}

fn main() {}
