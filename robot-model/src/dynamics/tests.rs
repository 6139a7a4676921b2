use std::borrow::Cow;
use std::f64::consts::FRAC_PI_2;

use super::*;
use crate::fixture;
use crate::model::{Dynamics as JointDynamics, Inertia, Inertial, Joint, Link, Mimic, Pose};

const G: f64 = 9.81;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * (1.0 + a.abs().max(b.abs()))
}

fn body(name: &'static str, mass: f64, com: [f64; 3], inertia: Inertia) -> Link {
    Link {
        name: name.into(),
        inertial: Some(Inertial {
            mass,
            origin: Pose {
                xyz: com,
                rpy: [0.0; 3],
            },
            inertia,
        }),
        visuals: Cow::Owned(vec![]),
        collisions: Cow::Owned(vec![]),
    }
}

fn massless(name: &'static str) -> Link {
    Link {
        name: name.into(),
        inertial: None,
        visuals: Cow::Owned(vec![]),
        collisions: Cow::Owned(vec![]),
    }
}

fn point(iyy: f64) -> Inertia {
    Inertia {
        iyy,
        ..Inertia::default()
    }
}

fn joint(
    name: &'static str,
    kind: JointKind,
    parent: &'static str,
    child: &'static str,
    xyz: [f64; 3],
    axis: [f64; 3],
) -> Joint {
    Joint {
        name: name.into(),
        kind,
        parent: parent.into(),
        child: child.into(),
        origin: Pose { xyz, rpy: [0.0; 3] },
        axis,
        limits: None,
        dynamics: None,
        actuator: None,
        mimic: None,
        command_interfaces: Cow::Owned(vec![]),
        state_interfaces: Cow::Owned(vec![]),
    }
}

fn robot(links: Vec<Link>, joints: Vec<Joint>) -> Robot {
    Robot {
        links: Cow::Owned(links),
        joints: Cow::Owned(joints),
        ..fixture::robot()
    }
}

/// A pendulum: a body of mass `m`, `ic` about its centre `l` out along x, on a hinge about y.
fn pendulum(m: f64, l: f64, ic: f64) -> Robot {
    robot(
        vec![massless("base"), body("arm", m, [l, 0.0, 0.0], point(ic))],
        vec![joint(
            "hinge",
            JointKind::Revolute,
            "base",
            "arm",
            [0.0, 0.0, 0.5],
            [0.0, 1.0, 0.0],
        )],
    )
}

#[test]
fn a_pendulum_needs_its_weight_times_its_lever_and_its_inertia_times_its_acceleration() {
    let (m, l, ic) = (2.0, 0.3, 0.01);
    let mut dynamics = Dynamics::new(&pendulum(m, l, ic)).unwrap();
    let mut tau = [0.0];
    for q in [0.0, 0.4, -1.1, FRAC_PI_2, 2.5] {
        for (qd, qdd) in [(0.0, 0.0), (1.5, 0.0), (-0.7, 3.0)] {
            dynamics
                .joint_forces(&[q], &[qd], &[qdd], &mut tau)
                .unwrap();
            // About +y, a positive angle turns x towards −z: the arm's weight pulls it that way
            // at q = 0, so holding it takes −m·g·l·cos q. No Coriolis term for one joint.
            let want = (ic + m * l * l) * qdd - m * G * l * q.cos();
            assert!(
                close(tau[0], want),
                "q {q} qd {qd} qdd {qdd}: {} != {want}",
                tau[0]
            );
        }
    }
}

#[test]
fn a_two_link_arm_holds_both_links_weights() {
    let (m1, l1, c1, m2, c2) = (1.5, 0.3, 0.15, 0.9, 0.12);
    let arm = robot(
        vec![
            massless("base"),
            body("upper", m1, [c1, 0.0, 0.0], point(0.01)),
            body("fore", m2, [c2, 0.0, 0.0], point(0.005)),
        ],
        vec![
            joint(
                "shoulder",
                JointKind::Revolute,
                "base",
                "upper",
                [0.0; 3],
                [0.0, 1.0, 0.0],
            ),
            joint(
                "elbow",
                JointKind::Revolute,
                "upper",
                "fore",
                [l1, 0.0, 0.0],
                [0.0, 1.0, 0.0],
            ),
        ],
    );
    let mut dynamics = Dynamics::new(&arm).unwrap();
    let mut tau = [0.0; 2];
    for (q1, q2) in [(0.0, 0.0), (0.3, -0.8), (-1.2, 2.0)] {
        dynamics.gravity(&[q1, q2], &mut tau).unwrap();
        let elbow = -m2 * G * c2 * (q1 + q2).cos();
        let shoulder = -(m1 * c1 + m2 * l1) * G * q1.cos() + elbow;
        assert!(close(tau[0], shoulder), "{tau:?} != [{shoulder}, {elbow}]");
        assert!(close(tau[1], elbow), "{tau:?} != [{shoulder}, {elbow}]");
    }
}

#[test]
fn a_lift_carries_its_load_and_accelerates_it() {
    let load = 3.0;
    let lift = robot(
        vec![
            massless("base"),
            body("carriage", load, [0.1, 0.0, 0.0], Inertia::default()),
        ],
        vec![joint(
            "lift",
            JointKind::Prismatic,
            "base",
            "carriage",
            [0.0; 3],
            [0.0, 0.0, 2.0], // not unit length: the force is along the axis all the same
        )],
    );
    let mut dynamics = Dynamics::new(&lift).unwrap();
    let mut force = [0.0];
    dynamics
        .joint_forces(&[0.2], &[0.1], &[0.5], &mut force)
        .unwrap();
    assert!(close(force[0], load * (G + 0.5)), "{force:?}");
}

#[test]
fn a_fixed_joint_hangs_its_link_on_the_joint_before() {
    let (m, l) = (1.0, 0.2);
    let mut with_tool = pendulum(m, l, 0.0);
    let mut links = with_tool.links.to_vec();
    links.push(body("tool", 0.5, [0.0; 3], Inertia::default()));
    let mut joints = with_tool.joints.to_vec();
    joints.push(joint(
        "mount",
        JointKind::Fixed,
        "arm",
        "tool",
        [0.4, 0.0, 0.0],
        [0.0; 3],
    ));
    with_tool.links = Cow::Owned(links);
    with_tool.joints = Cow::Owned(joints);
    let mut dynamics = Dynamics::new(&with_tool).unwrap();
    let mut tau = [0.0; 2];
    dynamics.gravity(&[0.0, 0.0], &mut tau).unwrap();
    assert!(close(tau[0], -G * (m * l + 0.5 * 0.4)), "{tau:?}");
    assert_eq!(tau[1], 0.0, "a fixed joint applies no generalised force");
}

#[test]
fn the_inertial_frames_rotation_turns_the_inertia_with_it() {
    // A body whose inertia is 0.04 about its inertial frame's x, 0 about y: yawed a quarter
    // turn, its x is the hinge's y.
    let mut link = body(
        "arm",
        1.0,
        [0.0; 3],
        Inertia {
            ixx: 0.04,
            ..Inertia::default()
        },
    );
    if let Some(inertial) = &mut link.inertial {
        inertial.origin.rpy = [0.0, 0.0, FRAC_PI_2];
    }
    let spun = robot(
        vec![massless("base"), link],
        vec![joint(
            "hinge",
            JointKind::Revolute,
            "base",
            "arm",
            [0.0; 3],
            [0.0, 1.0, 0.0],
        )],
    );
    let mut dynamics = Dynamics::new(&spun).unwrap();
    let mut tau = [0.0];
    dynamics
        .joint_forces(&[0.3], &[0.0], &[2.0], &mut tau)
        .unwrap();
    assert!(close(tau[0], 0.04 * 2.0), "{tau:?}");
}

#[test]
fn the_armature_adds_its_own_inertia() {
    let mut geared = pendulum(1.0, 0.2, 0.0);
    let mut joints = geared.joints.to_vec();
    joints[0].dynamics = Some(JointDynamics {
        armature: 0.05,
        ..JointDynamics::default()
    });
    geared.joints = Cow::Owned(joints);
    let mut dynamics = Dynamics::new(&geared).unwrap();
    let mut tau = [0.0];
    dynamics
        .joint_forces(&[FRAC_PI_2], &[0.0], &[4.0], &mut tau)
        .unwrap();
    assert!(close(tau[0], (0.05 + 1.0 * 0.04) * 4.0), "{tau:?}");
}

#[test]
fn gravity_can_point_anywhere_in_the_roots_axes() {
    let mut dynamics = Dynamics::new(&pendulum(2.0, 0.3, 0.0)).unwrap();
    // The base pitched a quarter turn: gravity along its +x, which the hinge's arm points along
    // at q = 0, so it needs no torque there; at q = π/2 the arm points down −z... across it.
    dynamics.set_gravity([G, 0.0, 0.0]);
    assert_eq!(dynamics.gravity_vector(), [G, 0.0, 0.0]);
    let mut tau = [0.0];
    dynamics.gravity(&[0.0], &mut tau).unwrap();
    assert!(close(tau[0], 0.0), "{tau:?}");
    dynamics.gravity(&[FRAC_PI_2], &mut tau).unwrap();
    // The arm at −z: gravity along +x pulls it back towards +x, about −y; holding takes +m·g·l.
    assert!(close(tau[0], 2.0 * G * 0.3), "{tau:?}");
}

#[test]
fn a_mimic_joint_moves_with_its_joint_and_its_load_is_carried_there() {
    // Two fingers on a slide across gravity's way (vertical): the mimic finger closes with the
    // other, and its weight is the driven finger's load through the coupling.
    let gripper = robot(
        vec![
            massless("palm"),
            body("left", 0.2, [0.0; 3], Inertia::default()),
            body("right", 0.3, [0.0; 3], Inertia::default()),
        ],
        vec![
            joint(
                "grip",
                JointKind::Prismatic,
                "palm",
                "left",
                [0.0; 3],
                [0.0, 0.0, 1.0],
            ),
            Joint {
                mimic: Some(Mimic {
                    joint: "grip".into(),
                    multiplier: -1.0,
                    offset: 0.0,
                }),
                ..joint(
                    "grip_mimic",
                    JointKind::Prismatic,
                    "palm",
                    "right",
                    [0.0; 3],
                    [0.0, 0.0, 1.0],
                )
            },
        ],
    );
    let mut dynamics = Dynamics::new(&gripper).unwrap();
    let mut own = [0.0; 2];
    // Whatever is given for the mimic joint, it moves as its joint does.
    dynamics
        .joint_forces(&[0.01, 7.0], &[0.0, 7.0], &[1.0, 7.0], &mut own)
        .unwrap();
    assert!(close(own[0], 0.2 * (G + 1.0)), "{own:?}");
    assert!(close(own[1], 0.3 * (G - 1.0)), "{own:?}");
    let mut actuated = [0.0; 2];
    dynamics
        .actuator_forces(&[0.01, 7.0], &[0.0, 7.0], &[1.0, 7.0], &mut actuated)
        .unwrap();
    assert!(close(actuated[0], own[0] - own[1]), "{actuated:?}");
    assert_eq!(actuated[1], 0.0);
}

#[test]
fn inputs_of_the_wrong_length_are_refused_naming_which() {
    let mut dynamics = Dynamics::new(&pendulum(1.0, 0.1, 0.0)).unwrap();
    let mut tau = [0.0];
    let error = dynamics
        .joint_forces(&[0.0], &[0.0, 1.0], &[0.0], &mut tau)
        .unwrap_err();
    assert_eq!(error.to_string(), "2 velocities for 1 joints");
    let error = dynamics.gravity(&[0.0], &mut []).unwrap_err();
    assert_eq!(error.to_string(), "0 outputs for 1 joints");
}

#[test]
fn a_definition_that_is_not_one_tree_is_refused() {
    let mut broken = pendulum(1.0, 0.1, 0.0);
    let mut joints = broken.joints.to_vec();
    joints[0].child = "nowhere".into();
    broken.joints = Cow::Owned(joints);
    assert!(Dynamics::new(&broken).is_err());
}

#[test]
fn the_fixture_robot_at_rest_needs_finite_torques() {
    let robot = fixture::robot();
    let mut dynamics = Dynamics::new(&robot).unwrap();
    let mut tau = vec![0.0; robot.joints.len()];
    dynamics
        .gravity(&kinematics::initial_positions(&robot), &mut tau)
        .unwrap();
    assert!(tau.iter().all(|t| t.is_finite()), "{tau:?}");
}
