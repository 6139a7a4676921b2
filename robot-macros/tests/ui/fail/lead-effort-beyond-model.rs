use robot_macros::robot;

// 17 N·m through 10 mm a turn is 17 · 2π / 0.01 = 10681 N: a ball screw is strong, not 20 kN.
robot! {
    robot Press { update_rate: 100 Hz }
    bus rail {}
    link base {}
    link ram {}
    joint stroke: prismatic {
        parent: base,
        child: ram,
        axis: [0, 0, 1],
        limits { lower: 0, upper: 20 mm, velocity: 0.05, effort: 20000 },
        actuator { bus: rail, can_id: 1, model: RS02, lead: 10 mm },
        command: [position],
        state: [position],
    }
}

fn main() {}
