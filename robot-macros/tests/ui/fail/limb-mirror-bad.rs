use robot_macros::robot;

// `mirror` takes y only, sides in pairs, and is the one limb option.
robot! {
    robot Bad { update_rate: 100 Hz }
    bus b {}
    link body {}
    limb arm: left | right, mirror: x {
        link upper {}
    }
    limb leg: front | middle | rear, mirror: y {
        link thigh {}
    }
    limb fin: port | starboard, mirorr: y {
        link blade {}
    }
}

fn main() {}
