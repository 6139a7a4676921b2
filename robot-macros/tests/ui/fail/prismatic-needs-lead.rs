use robot_macros::robot;

robot! {
    robot Gantry { update_rate: 100 Hz }
    bus rail {}
    link base {}
    link carriage {}
    joint slide: prismatic {
        parent: base,
        child: carriage,
        axis: [1, 0, 0],
        limits { lower: 0, upper: 100 mm, velocity: 0.2, effort: 50 },
        actuator { bus: rail, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {}
