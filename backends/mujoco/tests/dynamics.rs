//! `robot_model::dynamics` (recursive Newton–Euler over the definition) against MuJoCo's own
//! `mj_rne` on the emitted model: for six_axis_arm (fixed base, a mimic finger) and lite_biped
//! (a floating base, held still), at 50 drawn states each, every joint's force for gravity
//! alone, with velocities (Coriolis and centrifugal terms), and with accelerations, within
//! 1e-9 relative. MuJoCo's `mj_rne` leaves the joints' armature out (it is in the mass matrix
//! `mj_crb` builds), so it is added here as `armature · q̈`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use mujoco_rs::prelude::{MjModel, MjtObjBase};
use robot_core::dynamics::Dynamics;
use robot_core::model::{JointKind, Robot};
use robots::{LiteBiped, SixAxisArm};

/// SplitMix64: the same states on every run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn within(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next()
    }
}

/// Each joint's qpos and dof address in the model compiled from `robot`'s emitted MJCF (`None`
/// for a fixed joint, which MuJoCo has no joint for).
fn addresses(model: &MjModel, robot: &Robot) -> Vec<Option<(usize, usize)>> {
    (robot.joints.iter())
        .map(|joint| {
            if joint.kind == JointKind::Fixed {
                return None;
            }
            let id = model
                .name_to_id(MjtObjBase::mjOBJ_JOINT, &joint.name)
                .unwrap_or_else(|| panic!("no MuJoCo joint `{}`", joint.name));
            Some((
                model.jnt_qposadr()[id] as usize,
                model.jnt_dofadr()[id] as usize,
            ))
        })
        .collect()
}

fn agrees_with_mujoco(robot: &Robot, seed: u64) {
    let model = MjModel::from_xml_string(&robot_emit::mjcf(robot).unwrap()).unwrap();
    let mut data = model.make_data();
    let at = addresses(&model, robot);
    let mut dynamics = Dynamics::new(robot).unwrap();
    let joints = robot.joints.len();
    let mut draw = Draw(seed);
    let mut ours = vec![0.0; joints];
    let mut theirs = vec![0.0; model.ffi().nv as usize];
    let mut worst = 0.0_f64;
    for state in 0..50 {
        let (mut q, mut qd, mut qdd) = (vec![0.0; joints], vec![0.0; joints], vec![0.0; joints]);
        for (index, joint) in robot.joints.iter().enumerate() {
            let (low, high) = (joint.limits)
                .and_then(|l| Some((l.lower?, l.upper?)))
                .unwrap_or((-3.0, 3.0));
            q[index] = draw.within(low, high);
            qd[index] = draw.within(-2.0, 2.0);
            qdd[index] = draw.within(-5.0, 5.0);
        }
        // A mimic joint where its coupling puts it, in MuJoCo too (its equality holds it there).
        for (index, joint) in robot.joints.iter().enumerate() {
            if let Some(mimic) = &joint.mimic {
                let followed = robot
                    .joints
                    .iter()
                    .position(|j| j.name == mimic.joint)
                    .unwrap();
                q[index] = mimic.multiplier * q[followed] + mimic.offset;
                qd[index] = mimic.multiplier * qd[followed];
                qdd[index] = mimic.multiplier * qdd[followed];
            }
        }
        // Gravity alone, then with velocities, then with accelerations too.
        for (moving, accelerating) in [(false, false), (true, false), (true, true)] {
            let zero = vec![0.0; joints];
            let v = if moving { &qd } else { &zero };
            let a = if accelerating { &qdd } else { &zero };
            data.qpos_mut().fill(0.0);
            data.qvel_mut().fill(0.0);
            if model.ffi().nq as usize > model.ffi().nv as usize {
                data.qpos_mut()[3] = 1.0; // a free joint's quaternion, unrotated
            }
            for (index, address) in at.iter().enumerate() {
                if let Some((qpos, dof)) = *address {
                    data.qpos_mut()[qpos] = q[index];
                    data.qvel_mut()[dof] = v[index];
                }
            }
            data.forward();
            data.qacc_mut().fill(0.0);
            for (index, address) in at.iter().enumerate() {
                if let Some((_, dof)) = *address {
                    data.qacc_mut()[dof] = a[index];
                }
            }
            data.rne_into(accelerating, &mut theirs);
            dynamics.joint_forces(&q, v, a, &mut ours).unwrap();
            for (index, joint) in robot.joints.iter().enumerate() {
                let Some((_, dof)) = at[index] else {
                    assert_eq!(ours[index], 0.0);
                    continue;
                };
                let armature = joint.dynamics.map_or(0.0, |d| d.armature);
                let want = theirs[dof] + armature * a[index];
                let error = (ours[index] - want).abs();
                worst = worst.max(error);
                assert!(
                    error <= 1e-9 * (1.0 + want.abs()),
                    "{} state {state} (moving {moving}, accelerating {accelerating}): `{}` ours \
                     {} MuJoCo {want}",
                    robot.name,
                    joint.name,
                    ours[index],
                );
            }
        }
    }
    println!("{}: worst difference {worst:.3e}", robot.name);
}

#[test]
fn the_arms_inverse_dynamics_are_mujocos() {
    agrees_with_mujoco(SixAxisArm::DESCRIPTION, 1);
}

#[test]
fn the_bipeds_inverse_dynamics_held_still_are_mujocos() {
    agrees_with_mujoco(LiteBiped::DESCRIPTION, 2);
}
