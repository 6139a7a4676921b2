use robot_macros::robot;

// Three actuators at 900 Hz fill 86.4 % of the bus: above the default 80 % ceiling, so the bus
// raises its own.
robot! {
    robot Tiny { update_rate: 900 Hz }
    bus arm { max_load: 90 % }
    link base {}
    limb finger: a | b | c {
        link tip {}
        joint j: revolute {
            parent: base,
            child: tip,
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: arm, can_id: 1 | 2 | 3, model: RS02 },
            command: [position],
            state: [position],
        }
    }
}

fn main() {
    let bus = &Tiny::DESCRIPTION.buses[0];
    assert_eq!(bus.max_load, Some(0.9));
    let load = robot_core::bus_load::load(Tiny::DESCRIPTION, bus);
    assert!(load.utilisation > robot_core::bus_load::DEFAULT_MAX_LOAD && load.fits());
    // The same robot at 1 kHz (96 %) would not fit, even under its raised ceiling.
    assert!(robot_core::bus_load::check_rate(Tiny::DESCRIPTION, 1000).is_err());
    assert!(robot_core::bus_load::check_rate(Tiny::DESCRIPTION, 900).is_ok());
}
