use robot_macros::robot;

// A contact the design means: the forearm rests on the base at the home pose.
robot! {
    robot Folded { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link upper {}
    link fore {}
    joint shoulder: revolute {
        parent: base, child: upper, axis: [0, 0, 1],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position], state: [position],
    }
    joint elbow: revolute {
        parent: upper, child: fore, axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position], state: [position],
    }
    allow_contact rest { links: [fore, base] }
}

fn main() {
    let d = Folded::DESCRIPTION;
    assert!(robot_core::validate::validate(d).is_empty());
    let [contact] = &d.allowed_contacts[..] else {
        panic!("one allowed contact");
    };
    assert_eq!(contact.name, "rest");
    assert_eq!(contact.links, ["fore", "base"]);
}
