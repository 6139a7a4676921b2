use robot_macros::robot;

// `left_leg_bus` (a joint) and `left_leg` (a bus) would both generate `LeftLegBusState`.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus left_leg {}
    link base {}
    link tip {}
    joint left_leg_bus: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: left_leg, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {}
