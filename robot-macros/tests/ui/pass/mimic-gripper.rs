use robot_macros::robot;

robot! {
    robot Gripper { update_rate: 100 Hz }
    bus hand {}
    link palm {}
    link finger {}
    link finger_mirror {}
    joint finger_joint: prismatic {
        parent: palm,
        child: finger,
        limits { lower: 0, upper: 40 mm, velocity: 0.1, effort: 5 },
        actuator { bus: hand, can_id: 1, model: RS02, lead: 50 mm },
        command: [position],
        state: [position],
    }
    joint finger_mirror_joint: prismatic {
        parent: palm,
        child: finger_mirror,
        limits { lower: -40 mm, upper: 0, velocity: 0.1, effort: 5 },
        mimic { joint: finger_joint, multiplier: -1 },
        state: [position],
    }
}

fn main() {
    let d = Gripper::DESCRIPTION;
    assert!(robot_core::validate::validate(d).is_empty());
    let mirror = d.joint("finger_mirror_joint").unwrap();
    let mimic = mirror.mimic.clone().unwrap();
    assert_eq!(mimic.joint, "finger_joint");
    assert_eq!(mimic.multiplier, -1.0);
    assert_eq!(d.bus_of(mirror), Some("hand"));
    // The mimic joint is read, never commanded.
    let state = GripperState::default();
    let _: f64 = state.finger_mirror_joint.position;
    let mut cmd = GripperCommand::default();
    cmd.finger_joint.position = 0.02;
    assert_eq!(cmd.finger_joint.position, 0.02);
    assert!(mirror.command_interfaces.is_empty());
    assert_eq!(
        Gripper::FINGER_MIRROR_JOINT.POSITION,
        "finger_mirror_joint/position"
    );
}
