use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link tip {}
    joint j: revolute {
        parent: base,
        child: tip,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

fn main() {
    let description = Tiny::DESCRIPTION;
    assert_eq!(description.name, "tiny");
    assert_eq!(description.type_name, "Tiny");
    assert_eq!(description.update_rate, 100);
    assert_eq!(description.links.len(), 2);
    assert_eq!(description.joints.len(), 1);
    assert!(robot_core::validate::validate(description).is_empty());
}
