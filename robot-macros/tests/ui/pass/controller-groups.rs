use robot_core::controller_manager::JointSet;
use robot_macros::robot;

// Named controller groups: the MIT shoulder and the position elbow share one trajectory
// controller (over position, what both take), the wheel keeps its bus's default group.
robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    bus base {}
    link chassis {}
    link upper {}
    link lower {}
    link tyre {}
    link finger {}
    joint shoulder: revolute {
        parent: chassis, child: upper,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
    joint elbow: revolute {
        parent: upper, child: lower,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 2, model: RS02 },
        command: [position],
        state: [position, velocity],
    }
    joint wheel: continuous {
        parent: chassis, child: tyre,
        limits { velocity: 20, effort: 10 },
        actuator { bus: base, can_id: 1, model: RS02 },
        command: [velocity],
        state: [position, velocity],
    }
    joint finger_mirror: revolute {
        parent: lower, child: finger,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        mimic { joint: elbow },
        state: [position],
    }
    controller arm { joints: [shoulder, elbow] }
}

fn main() {
    // The group is a joint set a typed controller claims: its view has the group's joints.
    assert_eq!(<tiny::ArmGroup as JointSet<Tiny>>::JOINTS, ["shoulder", "elbow"]);
    assert_eq!(<tiny::ArmBus as JointSet<Tiny>>::JOINTS, ["shoulder", "elbow"]);
    assert_eq!(<tiny::BaseBus as JointSet<Tiny>>::JOINTS, ["wheel"]);
    let mut command = TinyCommand::default();
    let view = <tiny::ArmGroup as JointSet<Tiny>>::view(&mut command);
    view.shoulder.stiffness = 20.0;
    view.elbow.position = 0.5;
    assert_eq!((command.shoulder.stiffness, command.elbow.position), (20.0, 0.5));
    let groups = &Tiny::DESCRIPTION.controller_groups;
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].name, "arm");
    let joints: Vec<&str> = groups[0].joints.iter().map(|j| j.as_ref()).collect();
    assert_eq!(joints, ["shoulder", "elbow"]);
    let names: Vec<String> = robot_core::controller_plan::controllers(Tiny::DESCRIPTION)
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(
        names,
        [
            "arm_trajectory_controller",
            "arm_position_controller",
            "arm_velocity_controller",
            "arm_effort_controller",
            "arm_stiffness_controller",
            "arm_damping_controller",
            "base_velocity_controller",
        ]
    );
}
