// Force/torque and contact sensors: declared per side in a mirrored limb, typed in the state,
// named as constants, laid out after the joints in declaration order.
use robot_core::typed::{RobotTypes, Slot};
use robot_core::{ContactState, ForceTorqueState, Values};
use robot_macros::robot;

robot! {
    robot Hopper { update_rate: 200 Hz, floating_base: true }
    bus legs {}
    link pelvis { collision box { size: [0.2, 0.2, 0.1] } }
    limb leg: left | right, mirror: y {
        link shin { collision capsule { radius: 0.02, length: 0.3 } }
        link foot {
            collision box { size: [0.12, 0.06, 0.02] }
            collision sphere { radius: 0.02, origin { xyz: [0.06, 0, 0] } }
        }
        joint knee: revolute {
            parent: pelvis,
            child: shin,
            origin { xyz: [0, 0.1, -0.1] },
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: legs, can_id: 1 | 2, model: RS02 },
            command: [position],
            state: [position],
        }
        joint ankle: fixed { parent: shin, child: foot, origin { xyz: [0, 0, -0.3] } }
        force_torque ankle_ft { link: foot, plugin: "pkg/AnkleFt" }
        contact sole { link: foot, plugin: "pkg/FootSwitch", threshold: 5 N }
    }
}

fn main() {
    let mut state = HopperState::default();
    let wrench: ForceTorqueState = state.left_ankle_ft;
    assert_eq!(wrench, ForceTorqueState::default());
    state.right_ankle_ft.force.z = -40.0;
    state.right_ankle_ft.torque.x = 0.5;
    let sole: ContactState = state.left_sole;
    assert!(!sole.in_contact());
    state.right_sole.contact = 1.0;
    state.right_sole.normal_force = 41.0;
    assert!(state.right_sole.in_contact());

    assert_eq!(Hopper::LEFT_ANKLE_FT.FORCE_Z, "left_ankle_ft/force.z");
    assert_eq!(Hopper::RIGHT_ANKLE_FT.TORQUE_X, "right_ankle_ft/torque.x");
    assert_eq!(Hopper::LEFT_SOLE.CONTACT, "left_sole/contact");
    assert_eq!(Hopper::RIGHT_SOLE.NORMAL_FORCE, "right_sole/normal_force");

    // Two joint positions, then each sensor's interfaces in declaration order.
    let layout = <Hopper as RobotTypes>::STATE_LAYOUT;
    assert_eq!(layout.len(), 2 + 2 * (6 + 2));
    let right_ft = layout.sensor_slot(2).unwrap();
    assert_eq!(state.as_slice()[right_ft + 2], -40.0, "force.z");
    assert_eq!(state.as_slice()[right_ft + 3], 0.5, "torque.x");
    let right_sole = layout.sensor_slot(3).unwrap();
    assert_eq!(state.as_slice()[right_sole..right_sole + 2], [1.0, 41.0]);
    assert_eq!(layout.slots[right_sole], Slot::Sensor { sensor: 3, component: 0 });

    let robot = <Hopper as RobotTypes>::DESCRIPTION;
    let sole = robot.sensors.iter().find(|s| s.name == "left_sole").unwrap();
    assert_eq!(sole.threshold, Some(5.0));
    assert_eq!(robot.sensors[0].threshold, None);
}
