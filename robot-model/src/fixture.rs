//! A small hand-made robot that exercises every feature the rules and the emitters must handle,
//! for their tests (here, and in the crates above with feature `fixture`).
//!
//! `TestBot` (`test_bot`) has two buses (`front`, `rear`) and, from the root link `base`:
//!
//! | joint | kind | bus | what it covers |
//! |---|---|---|---|
//! | `ankle` | revolute | `front`, id 11, RS00 | four-bar (the lite_biped ankle), the MIT interface set, initial values, current limit |
//! | `slider` | prismatic | `rear`, id 21, RS05 | a second bus, position command with an initial value |
//! | `wheel` | continuous | `front`, id 12, RS02, reversed | no lower/upper, dynamics, no current limit |
//! | `follower` | revolute | (follows `ankle`) | mimic with multiplier and offset, state interfaces only |
//! | `imu_mount` | fixed | | an uncontrolled joint to a massless frame |
//!
//! plus the IMU `base_imu` on `imu_link`, a capsule collision on `base` and a mesh visual on
//! `foot`. It passes [`crate::validate::validate`].
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;

use crate::actuator::RobstrideModel;
use crate::fourbar::{Branch, FourBar};
use crate::interface::InterfaceKind;
use crate::model::{
    Actuator, Bus, BusKind, CanId, Direction, Dynamics, Geometry, Inertia, Inertial, Interface,
    Joint, JointKind, Limits, Link, Mimic, MockParams, Param, Pose, Robot, Sensor, SensorKind,
    Shape,
};

/// The fixture robot with a force/torque sensor on `foot` and a contact sensor on `toe` (a box),
/// after its IMU.
pub fn robot_with_foot_sensors() -> Robot {
    let mut robot = robot();
    let sensor = |name: &'static str, kind, link: &'static str, threshold| Sensor {
        name: name.into(),
        kind,
        link: link.into(),
        plugin: "test_devices/FootSensor".into(),
        params: Cow::Owned(vec![]),
        threshold,
    };
    robot.sensors.to_mut().extend([
        sensor("ankle_ft", SensorKind::ForceTorque, "foot", None),
        sensor("toe_contact", SensorKind::Contact, "toe", Some(2.5)),
    ]);
    robot
}

/// The fixture robot.
pub fn robot() -> Robot {
    Robot {
        type_name: "TestBot".into(),
        name: "test_bot".into(),
        update_rate: 500,
        floating_base: true,
        links: Cow::Owned(vec![
            link(
                "base",
                Some(2.0),
                vec![shape(Geometry::Box {
                    size: [0.2, 0.1, 0.05],
                })],
                vec![Shape {
                    origin: Pose {
                        xyz: [0.0, 0.0, 0.1],
                        rpy: [std::f64::consts::FRAC_PI_2, 0.0, 0.0],
                    },
                    geometry: Geometry::Capsule {
                        radius: 0.02,
                        length: 0.1,
                    },
                }],
            ),
            link(
                "foot",
                Some(0.3),
                vec![shape(Geometry::Mesh {
                    filename: "package://test_bot/meshes/foot.stl".into(),
                    scale: [0.001; 3],
                })],
                vec![],
            ),
            link(
                "toe",
                Some(0.05),
                vec![],
                vec![shape(Geometry::Box {
                    size: [0.03, 0.05, 0.01],
                })],
            ),
            link(
                "carriage",
                Some(0.4),
                vec![],
                vec![shape(Geometry::Sphere { radius: 0.03 })],
            ),
            link(
                "wheel_link",
                Some(0.5),
                vec![shape(Geometry::Cylinder {
                    radius: 0.05,
                    length: 0.02,
                })],
                vec![],
            ),
            link("imu_link", None, vec![], vec![]),
        ]),
        joints: Cow::Owned(vec![ankle(), slider(), wheel(), follower(), imu_mount()]),
        buses: Cow::Owned(vec![bus("front"), bus("rear")]),
        sensors: Cow::Owned(vec![Sensor {
            name: "base_imu".into(),
            kind: SensorKind::Imu,
            link: "imu_link".into(),
            plugin: "test_devices/SerialImu".into(),
            params: Cow::Owned(vec![Param {
                name: "port".into(),
                value: "/dev/ttyUSB0".into(),
            }]),
            threshold: None,
        }]),
        mock: MockParams {
            calculate_dynamics: true,
            ..MockParams::DEFAULT
        },
        controller_groups: Cow::Owned(vec![]),
        allowed_contacts: Cow::Owned(vec![]),
    }
}

/// The MIT command surface.
pub(crate) const MIT_COMMANDS: [InterfaceKind; 5] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Effort,
    InterfaceKind::Stiffness,
    InterfaceKind::Damping,
];

/// The lite_biped ankle linkage: a four-bar that assembles over −30°…+50°.
pub fn four_bar() -> FourBar {
    FourBar {
        ground: [-0.012, 0.160],
        input_crank: 0.040,
        coupler: 0.150,
        output_crank: 0.040,
        alpha_zero: 338.82213_f64.to_radians(),
        sign: 1.0,
        branch: Branch::CounterClockwise,
    }
}

fn ankle() -> Joint {
    Joint {
        origin: Pose {
            xyz: [0.0, 0.05, -0.1],
            rpy: [0.0, 0.0, 0.0],
        },
        axis: [0.0, 1.0, 0.0],
        limits: Some(Limits {
            lower: Some((-30.0_f64).to_radians()),
            upper: Some(50.0_f64.to_radians()),
            velocity: 10.0,
            effort: 5.0,
            current: Some(16.0),
        }),
        actuator: Some(Actuator {
            bus: "front".into(),
            can_id: CanId::new(11).unwrap(),
            model: RobstrideModel::RS00,
            direction: Direction::Forward,
            zero_offset: 0.25,
            four_bar: Some(four_bar()),
            lead: None,
        }),
        command_interfaces: Cow::Owned(
            MIT_COMMANDS
                .iter()
                .map(|&kind| Interface {
                    kind,
                    initial_value: (kind == InterfaceKind::Position).then_some(0.0),
                })
                .collect(),
        ),
        state_interfaces: interfaces(&[
            InterfaceKind::Position,
            InterfaceKind::Velocity,
            InterfaceKind::Effort,
        ]),
        ..joint("ankle", JointKind::Revolute, "base", "foot")
    }
}

fn slider() -> Joint {
    Joint {
        origin: Pose {
            xyz: [0.1, 0.0, 0.0],
            rpy: [0.0, 0.0, 0.0],
        },
        axis: [1.0, 0.0, 0.0],
        limits: Some(Limits {
            lower: Some(-0.05),
            upper: Some(0.05),
            velocity: 0.5,
            effort: 5.0,
            current: Some(14.0),
        }),
        actuator: Some(Actuator {
            bus: "rear".into(),
            can_id: CanId::new(21).unwrap(),
            model: RobstrideModel::RS05,
            direction: Direction::Forward,
            zero_offset: 0.0,
            four_bar: None,
            // 0.1 m a motor revolution: the ±5 cm travel is ±π at the motor.
            lead: Some(0.1),
        }),
        command_interfaces: Cow::Owned(vec![Interface {
            kind: InterfaceKind::Position,
            initial_value: Some(0.01),
        }]),
        state_interfaces: Cow::Owned(vec![
            Interface {
                kind: InterfaceKind::Position,
                initial_value: Some(0.01),
            },
            Interface {
                kind: InterfaceKind::Velocity,
                initial_value: None,
            },
        ]),
        ..joint("slider", JointKind::Prismatic, "base", "carriage")
    }
}

fn wheel() -> Joint {
    Joint {
        origin: Pose {
            xyz: [-0.1, 0.0, 0.0],
            rpy: [std::f64::consts::FRAC_PI_2, 0.0, 0.0],
        },
        limits: Some(Limits {
            lower: None,
            upper: None,
            velocity: 20.0,
            effort: 10.0,
            current: None,
        }),
        dynamics: Some(Dynamics {
            damping: 0.1,
            friction: 0.05,
            armature: 0.001,
        }),
        actuator: Some(Actuator {
            bus: "front".into(),
            can_id: CanId::new(12).unwrap(),
            model: RobstrideModel::RS02,
            direction: Direction::Reversed,
            zero_offset: -0.5,
            four_bar: None,
            lead: None,
        }),
        command_interfaces: interfaces(&[InterfaceKind::Velocity]),
        state_interfaces: interfaces(&[InterfaceKind::Position, InterfaceKind::Velocity]),
        ..joint("wheel", JointKind::Continuous, "base", "wheel_link")
    }
}

fn follower() -> Joint {
    Joint {
        origin: Pose {
            xyz: [0.08, 0.0, -0.02],
            rpy: [0.0, 0.0, 0.0],
        },
        axis: [0.0, 1.0, 0.0],
        limits: Some(Limits {
            lower: Some(-1.0),
            upper: Some(1.0),
            velocity: 10.0,
            effort: 5.0,
            current: None,
        }),
        mimic: Some(Mimic {
            joint: "ankle".into(),
            multiplier: -0.5,
            offset: 0.1,
        }),
        state_interfaces: interfaces(&[InterfaceKind::Position, InterfaceKind::Velocity]),
        ..joint("follower", JointKind::Revolute, "foot", "toe")
    }
}

fn imu_mount() -> Joint {
    Joint {
        origin: Pose {
            xyz: [0.0, 0.0, 0.08],
            rpy: [0.0, 0.0, 0.0],
        },
        ..joint("imu_mount", JointKind::Fixed, "base", "imu_link")
    }
}

/// A joint with everything optional left out.
fn joint(name: &'static str, kind: JointKind, parent: &'static str, child: &'static str) -> Joint {
    Joint {
        name: name.into(),
        kind,
        parent: parent.into(),
        child: child.into(),
        origin: Pose::IDENTITY,
        axis: [0.0, 0.0, 1.0],
        limits: None,
        dynamics: None,
        actuator: None,
        mimic: None,
        command_interfaces: Cow::Owned(vec![]),
        state_interfaces: Cow::Owned(vec![]),
    }
}

fn interfaces(kinds: &[InterfaceKind]) -> Cow<'static, [Interface]> {
    Cow::Owned(
        kinds
            .iter()
            .map(|&kind| Interface {
                kind,
                initial_value: None,
            })
            .collect(),
    )
}

fn link(
    name: &'static str,
    mass: Option<f64>,
    visuals: Vec<Shape>,
    collisions: Vec<Shape>,
) -> Link {
    Link {
        name: name.into(),
        inertial: mass.map(|mass| Inertial {
            mass,
            origin: Pose {
                xyz: [0.0, 0.0, 0.01],
                rpy: [0.0, 0.0, 0.0],
            },
            inertia: Inertia {
                ixx: 1e-3 * mass,
                ixy: 0.0,
                ixz: 0.0,
                iyy: 2e-3 * mass,
                iyz: 0.0,
                izz: 1.5e-3 * mass,
            },
        }),
        visuals: Cow::Owned(visuals),
        collisions: Cow::Owned(collisions),
    }
}

fn shape(geometry: Geometry) -> Shape {
    Shape {
        origin: Pose::IDENTITY,
        geometry,
    }
}

fn bus(name: &'static str) -> Bus {
    Bus {
        name: name.into(),
        kind: BusKind::Can {
            bitrate: crate::model::DEFAULT_CAN_BITRATE,
        },
        max_load: None,
    }
}

#[test]
fn the_fixture_is_a_valid_robot() {
    if let Err(invalid) = crate::validate::check(&robot()) {
        panic!("{invalid}");
    }
}
