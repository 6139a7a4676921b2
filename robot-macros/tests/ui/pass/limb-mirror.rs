use robot_macros::robot;

// A pair of legs written once with `mirror: y`: the right leg is the left's mirror image, so
// the same joint positions put the two feet at mirrored places.
robot! {
    robot Mirrored { update_rate: 100 Hz, floating_base: true }
    bus legs {}
    link body {}
    limb leg: left | right, mirror: y {
        link hip {
            inertial { mass: 0.5, com: [0.01, 0.02, -0.03], com_rpy: [0.1, 0.2, 0.3], inertia: [0.001, 0.0001, 0.0002, 0.002, 0.0003, 0.003] }
            collision box { size: [0.05, 0.04, 0.03], origin { xyz: [0, 0.02, -0.01], rpy: [0.1, 0.2, 0.3] } }
        }
        link thigh {}
        link foot {}
        joint hip_roll: revolute {
            parent: body, child: hip,
            origin { xyz: [0.05, 0.08, -0.1], rpy: [0.2, 0.1, 0.4] },
            axis: [1, 0, 0],
            limits { lower: -0.5, upper: 1.0, velocity: 10, effort: 10 },
            actuator { bus: legs, can_id: 1 | 11, model: RS02, direction: 1 | -1 },
            command: [position], state: [position],
        }
        joint hip_pitch: revolute {
            parent: hip, child: thigh, origin { xyz: [0, 0.03, -0.05] }, axis: [0.36, 0.48, 0.8],
            limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
            actuator { bus: legs, can_id: 2 | 12, model: RS02 },
            command: [position], state: [position],
        }
        joint slide: prismatic {
            parent: thigh, child: foot, origin { xyz: [0, 0, -0.2] }, axis: [0.48, 0.6, 0.64],
            limits { lower: 0, upper: 0.05, velocity: 0.05, effort: 100 },
            actuator { bus: legs, can_id: 3 | 13, model: RS02, lead: 10 mm },
            command: [position], state: [position],
        }
    }
}

fn main() {
    use robot_core::kinematics::{self, Transform};

    let d = Mirrored::DESCRIPTION;
    assert!(robot_core::validate::validate(d).is_empty(), "{:?}", robot_core::validate::validate(d));
    let joint = |name: &str| d.joint(name).unwrap();
    // Written once: the right side's values are the left's mirrored.
    assert_eq!(joint("right_hip_roll").origin.xyz, [0.05, -0.08, -0.1]);
    assert_eq!(joint("right_hip_roll").origin.rpy, [-0.2, 0.1, -0.4]);
    assert_eq!(joint("right_hip_roll").axis, [-1.0, 0.0, 0.0]);
    assert_eq!(joint("right_hip_pitch").axis, [-0.36, 0.48, -0.8]);
    assert_eq!(joint("right_slide").axis, [0.48, -0.6, 0.64]);
    // Limits and actuators as written.
    assert_eq!(joint("right_hip_roll").limits.unwrap().lower, Some(-0.5));
    assert_eq!(joint("left_hip_roll").origin.xyz, [0.05, 0.08, -0.1]);
    let hip = d.link("right_hip").unwrap();
    let inertial = hip.inertial.as_ref().unwrap();
    assert_eq!(inertial.origin.xyz, [0.01, -0.02, -0.03]);
    assert_eq!(inertial.origin.rpy, [-0.1, 0.2, -0.3]);
    let i = &inertial.inertia;
    assert_eq!([i.ixx, i.ixy, i.ixz, i.iyy, i.iyz, i.izz], [0.001, -0.0001, 0.0002, 0.002, -0.0003, 0.003]);
    assert_eq!(hip.collisions[0].origin.xyz, [0.0, -0.02, -0.01]);
    assert_eq!(hip.collisions[0].origin.rpy, [-0.1, 0.2, -0.3]);

    // The point of it: the same joint positions on both sides put every right link at the
    // mirror image of its left twin (M p, M R M with M = diag(1, -1, 1)).
    let mut q = vec![0.0; d.joints.len()];
    for (side, values) in [("left", [0.3, -0.4, 0.02]), ("right", [0.3, -0.4, 0.02])] {
        for (name, v) in ["hip_roll", "hip_pitch", "slide"].iter().zip(values) {
            let index = d.joints.iter().position(|j| j.name == format!("{side}_{name}")).unwrap();
            q[index] = v;
        }
    }
    let poses = kinematics::link_poses(d, &q).unwrap();
    let mirror = |t: &Transform| {
        let m = [1.0, -1.0, 1.0];
        let mut rotation = t.rotation;
        for r in 0..3 {
            for c in 0..3 {
                rotation[r][c] *= m[r] * m[c];
            }
        }
        Transform { rotation, translation: [t.translation[0], -t.translation[1], t.translation[2]] }
    };
    for link in ["hip", "thigh", "foot"] {
        let left = mirror(poses.get(&format!("left_{link}")).unwrap());
        let right = poses.get(&format!("right_{link}")).unwrap();
        for r in 0..3 {
            assert!((left.translation[r] - right.translation[r]).abs() < 1e-12, "{link}");
            for c in 0..3 {
                assert!((left.rotation[r][c] - right.rotation[r][c]).abs() < 1e-12, "{link}");
            }
        }
    }
}
