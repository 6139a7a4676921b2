//! What the component resolves once, in `on_configure`: for every claimed joint its MuJoCo
//! addresses and its state and command slots, for every IMU its sensors' addresses. `read` and
//! `write` then only index.
//!
//! Everything the model lacks is collected, so one error names every missing joint, actuator and
//! sensor at once.

use mujoco_rs::prelude::{MjModel, MjtBias, MjtGain, MjtJoint, MjtObjBase, MjtSensor, MjtTrn};
use robot_runtime::InterfaceKind;
use robot_runtime::actuator::MitSlots;
use robot_runtime::model::{JointKind, Robot, SensorKind};
use robot_runtime::typed::Layout;

use crate::options::ServoGains;

/// One claimed joint.
#[derive(Debug, Clone)]
pub(crate) struct JointPlan {
    /// Index into the robot's `joints`.
    pub joint: usize,
    /// `qpos` address.
    pub qpos: usize,
    /// `qvel` (dof) address.
    pub dof: usize,
    /// The torque motor driving it: `ctrl` address, `actuator_force` address and gear. `None`
    /// for a joint that is only read (a mimic, a joint without commands).
    pub motor: Option<Motor>,
    /// State slots.
    pub position_state: Option<usize>,
    pub velocity_state: Option<usize>,
    pub effort_state: Option<usize>,
    pub acceleration_state: Option<usize>,
    /// How commands become torque; `None` when the joint is never driven.
    pub drive: Option<Drive>,
}

/// A torque motor on one joint.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Motor {
    pub ctrl: usize,
    pub force: usize,
    pub gear: f64,
}

/// The command slots of a driven joint, and the gains that stand in for undeclared ones.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Drive {
    /// Where its five MIT commands are, where it declares them.
    pub slots: MitSlots,
    /// Stiffness and damping when the definition declares no `stiffness` / `damping` command.
    pub default_stiffness: f64,
    pub default_damping: f64,
    /// The effort limit, N·m or N (infinite when the definition gives none).
    pub limit: f64,
}

/// One IMU: the first of its ten state slots and its three sensors' `sensordata` addresses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ImuPlan {
    pub slot: usize,
    pub quat: usize,
    pub gyro: usize,
    pub accel: usize,
    /// The accelerometer's site, when its body is welded to the world (a fixed base): MuJoCo
    /// computes no acceleration there, and its accelerometer reads zero, where a real IMU
    /// bolted to a pedestal reads gravity's reaction, +g up.
    pub static_site: Option<usize>,
}

/// A force/torque sensor's first state slot and the addresses of its MJCF force and torque.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WrenchPlan {
    pub slot: usize,
    pub force: usize,
    pub torque: usize,
}

/// A contact sensor's first state slot, the addresses of its touch sensors (one per collision
/// primitive of its link, summed) and its threshold, N.
#[derive(Debug, Clone)]
pub(crate) struct ContactPlan {
    pub slot: usize,
    pub touches: Vec<usize>,
    pub threshold: f64,
}

/// Everything resolved.
#[derive(Debug, Clone, Default)]
pub(crate) struct Plan {
    pub joints: Vec<JointPlan>,
    pub imus: Vec<ImuPlan>,
    pub wrenches: Vec<WrenchPlan>,
    pub contacts: Vec<ContactPlan>,
}

/// The interfaces this backend can fill and apply.
pub(crate) const STATES: [InterfaceKind; 4] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Effort,
    InterfaceKind::Acceleration,
];
pub(crate) const COMMANDS: [InterfaceKind; 5] = [
    InterfaceKind::Position,
    InterfaceKind::Velocity,
    InterfaceKind::Effort,
    InterfaceKind::Stiffness,
    InterfaceKind::Damping,
];

/// Interfaces of claimed joints this backend cannot back, as `joint/interface`.
pub(crate) fn unsupported(robot: &Robot, joints: &[usize]) -> Vec<String> {
    let mut found = Vec::new();
    for &j in joints {
        let joint = &robot.joints[j];
        for i in joint
            .state_interfaces
            .iter()
            .filter(|i| !STATES.contains(&i.kind))
        {
            found.push(format!("`{}/{}` (state)", joint.name, i.kind));
        }
        for i in joint
            .command_interfaces
            .iter()
            .filter(|i| !COMMANDS.contains(&i.kind))
        {
            found.push(format!("`{}/{}` (command)", joint.name, i.kind));
        }
    }
    found
}

/// Resolves `joints` (the claimed ones) and every sensor of `robot` in `model`. `Err` lists every
/// missing or mismatched item, each a phrase.
pub(crate) fn resolve(
    robot: &Robot,
    model: &MjModel,
    state: &Layout,
    command: &Layout,
    joints: &[usize],
    disabled: &[usize],
    servo: &ServoGains,
) -> Result<Plan, Vec<String>> {
    let mut problems = Vec::new();
    let mut plan = Plan::default();
    for &j in joints {
        let joint = &robot.joints[j];
        let name: &str = &joint.name;
        let Some(id) = lookup(model, MjtObjBase::mjOBJ_JOINT, name) else {
            problems.push(format!("joint `{name}`"));
            continue;
        };
        let expected = match joint.kind {
            JointKind::Prismatic => MjtJoint::mjJNT_SLIDE,
            _ => MjtJoint::mjJNT_HINGE,
        };
        if model.jnt_type()[id] != expected {
            problems.push(format!(
                "joint `{name}` as a {} (it is {:?})",
                if expected == MjtJoint::mjJNT_SLIDE {
                    "slide"
                } else {
                    "hinge"
                },
                model.jnt_type()[id]
            ));
            continue;
        }
        let commanded = !joint.command_interfaces.is_empty();
        let motor = if commanded {
            match motor_of(model, name, id) {
                Ok(motor) => Some(motor),
                Err(problem) => {
                    problems.push(problem);
                    continue;
                }
            }
        } else {
            None
        };
        let limit = joint
            .limits
            .map(|l| l.effort)
            .filter(|&e| e > 0.0)
            .unwrap_or(f64::INFINITY);
        let drive = (commanded && !disabled.contains(&j)).then(|| {
            let defaults = servo.for_joint(joint);
            Drive {
                slots: command.mit_slots(j),
                default_stiffness: defaults.stiffness,
                default_damping: defaults.damping,
                limit,
            }
        });
        let st = |kind| state.joint_slot(j, kind);
        plan.joints.push(JointPlan {
            joint: j,
            qpos: address(model.jnt_qposadr()[id]),
            dof: address(model.jnt_dofadr()[id]),
            motor,
            position_state: st(InterfaceKind::Position),
            velocity_state: st(InterfaceKind::Velocity),
            effort_state: st(InterfaceKind::Effort),
            acceleration_state: st(InterfaceKind::Acceleration),
            drive,
        });
    }
    for (s, sensor) in robot.sensors.iter().enumerate() {
        let Some(slot) = state.sensor_slot(s) else {
            continue;
        };
        let mut find = |name: String, kind: MjtSensor, what: &str| -> Option<usize> {
            match lookup(model, MjtObjBase::mjOBJ_SENSOR, &name) {
                Some(id) if model.sensor_type()[id] == kind => {
                    Some(address(model.sensor_adr()[id]))
                }
                Some(id) => {
                    problems.push(format!(
                        "sensor `{name}` as a {what} of {} `{}` (it is {:?})",
                        sensor.kind.noun(),
                        sensor.name,
                        model.sensor_type()[id]
                    ));
                    None
                }
                None => {
                    problems.push(format!(
                        "sensor `{name}` ({what} of {} `{}`)",
                        sensor.kind.noun(),
                        sensor.name
                    ));
                    None
                }
            }
        };
        match sensor.kind {
            SensorKind::Imu => {
                let prefix = sensor.mujoco_prefix();
                let quat = find(
                    format!("{prefix}_quat"),
                    MjtSensor::mjSENS_FRAMEQUAT,
                    "framequat",
                );
                let gyro = find(format!("{prefix}_gyro"), MjtSensor::mjSENS_GYRO, "gyro");
                let accel = find(
                    format!("{prefix}_accel"),
                    MjtSensor::mjSENS_ACCELEROMETER,
                    "accelerometer",
                );
                let static_site =
                    lookup(model, MjtObjBase::mjOBJ_SENSOR, &format!("{prefix}_accel"))
                        .filter(|&id| model.sensor_objtype()[id] == MjtObjBase::mjOBJ_SITE)
                        .and_then(|id| usize::try_from(model.sensor_objid()[id]).ok())
                        .filter(|&site| {
                            usize::try_from(model.site_bodyid()[site])
                                .ok()
                                .is_some_and(|body| model.body_weldid()[body] == 0)
                        });
                if let (Some(quat), Some(gyro), Some(accel)) = (quat, gyro, accel) {
                    plan.imus.push(ImuPlan {
                        slot,
                        quat,
                        gyro,
                        accel,
                        static_site,
                    });
                }
            }
            SensorKind::ForceTorque => {
                let name = &sensor.name;
                let force = find(format!("{name}_force"), MjtSensor::mjSENS_FORCE, "force");
                let torque = find(format!("{name}_torque"), MjtSensor::mjSENS_TORQUE, "torque");
                if let (Some(force), Some(torque)) = (force, torque) {
                    plan.wrenches.push(WrenchPlan {
                        slot,
                        force,
                        torque,
                    });
                }
            }
            SensorKind::Contact => {
                let shapes = robot
                    .link(&sensor.link)
                    .map_or(0, |l| robot_emit::contact_shapes(l).count());
                let touches: Vec<Option<usize>> = (0..shapes)
                    .map(|i| {
                        let name = robot_emit::touch_sensor_name(&sensor.name, i);
                        find(name, MjtSensor::mjSENS_TOUCH, "touch")
                    })
                    .collect();
                if let Some(touches) = touches.into_iter().collect::<Option<Vec<_>>>() {
                    plan.contacts.push(ContactPlan {
                        slot,
                        touches,
                        threshold: sensor.contact_threshold(),
                    });
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(problems)
    }
}

/// The torque motor named like the joint, driving it.
fn motor_of(model: &MjModel, name: &str, joint: usize) -> Result<Motor, String> {
    let Some(a) = lookup(model, MjtObjBase::mjOBJ_ACTUATOR, name) else {
        return Err(format!("actuator `{name}`"));
    };
    let drives_it = model.actuator_trntype()[a] == MjtTrn::mjTRN_JOINT
        && usize::try_from(model.actuator_trnid()[a][0]).ok() == Some(joint);
    if !drives_it {
        return Err(format!(
            "actuator `{name}` on joint `{name}` (it drives something else)"
        ));
    }
    // A motor: force = gear · ctrl, no bias. A position or velocity actuator would turn the
    // torque written into `ctrl` into a setpoint.
    let is_motor = model.actuator_gaintype()[a] == MjtGain::mjGAIN_FIXED
        && model.actuator_biastype()[a] == MjtBias::mjBIAS_NONE
        && model.actuator_gainprm()[a][0] == 1.0;
    if !is_motor {
        return Err(format!(
            "actuator `{name}` as a torque motor (`<motor>`; it has gain {:?}, bias {:?})",
            model.actuator_gaintype()[a],
            model.actuator_biastype()[a]
        ));
    }
    let force = address(model.actuator_outadr()[a]);
    let gear = model.actuator_gear().get(force).map_or(1.0, |g| g[0]);
    if gear == 0.0 || !gear.is_finite() {
        return Err(format!(
            "actuator `{name}` with a usable gear (it has {gear})"
        ));
    }
    Ok(Motor {
        ctrl: address(model.actuator_ctrladr()[a]),
        force,
        gear,
    })
}

fn lookup(model: &MjModel, kind: MjtObjBase, name: &str) -> Option<usize> {
    // `name_to_id` panics on an interior NUL; names from a validated definition have none.
    if name.contains('\0') {
        return None;
    }
    model.name_to_id(kind, name)
}

/// MuJoCo's addresses are `i32`, never negative for a resolved object.
fn address(raw: i32) -> usize {
    usize::try_from(raw).unwrap_or(0)
}
