//! What the component applies in each lifecycle state, and how it fails: nothing while inactive,
//! zero torque after deactivation, a model that lacks names, an infinite command.

mod common;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use common::*;
use robot_core::InterfaceKind;
use robot_core::hardware::{Component, ErrorKind};
use robots::{LiteBiped, LiteBipedState};

/// The squat controller's leg gains.
const GAINS_STIFF: (f64, f64) = (40.0, 1.0);

fn efforts(state: &LiteBipedState) -> Vec<(&'static str, f64)> {
    joint_states(state, InterfaceKind::Effort)
}

fn all_zero(efforts: &[(&str, f64)]) -> bool {
    efforts.iter().all(|(_, e)| *e == 0.0)
}

/// Inactive, a System reads but never writes (ros2_control's contract), so commands
/// take no effect: the component applies nothing until it is activated, with no flag of its
/// own: its targets are `Mit::NONE` until then.
#[test]
fn nothing_is_applied_while_inactive() {
    let (mut system, mut state, mut command) = inactive(options(ModelSource::Stand));
    hold(&mut command, |_| 0.5, GAINS_STIFF);
    for k in 1..cycles(0.2) {
        system.write(clock(k), &command).unwrap();
        system.read(clock(k), &mut state).unwrap();
        assert!(
            all_zero(&efforts(&state)),
            "cycle {k}: {:?}",
            efforts(&state)
        );
    }
}

/// Active, the hold applies torque; after deactivation every motor's control and every effort
/// read back is exactly zero, and the legs hang free again.
#[test]
fn deactivating_leaves_zero_torque() {
    let (mut system, mut state, mut command) = active(options(ModelSource::Stand));
    hold(
        &mut command,
        |n| if n.ends_with("knee_pitch") { 0.8 } else { 0.0 },
        GAINS_STIFF,
    );
    run(&mut system, &mut state, &command, 1..cycles(0.5), |_, _| {});
    assert!(!all_zero(&efforts(&state)), "the hold applies torque");
    system.deactivate().unwrap();
    for k in cycles(0.5)..cycles(0.6) {
        system.read(clock(k), &mut state).unwrap();
        assert!(
            all_zero(&efforts(&state)),
            "cycle {k}: {:?}",
            efforts(&state)
        );
    }
}

/// A model without one of the robot's joints, or one of its IMU's sensors, is refused in
/// `on_configure` with every missing name in one message.
#[test]
fn a_model_missing_a_joint_and_a_sensor_names_both() {
    let emitted = robot_core::emit::mjcf(LiteBiped::DESCRIPTION).unwrap();
    let broken = emitted
        .replace(
            r#"<joint name="left_knee_pitch""#,
            r#"<joint name="left_knee""#,
        )
        .replace(r#"joint="left_knee_pitch""#, r#"joint="left_knee""#)
        .replace(r#"<gyro name="base_gyro" site="base_imu_site"/>"#, "");
    assert_ne!(broken, emitted);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.xml");
    std::fs::write(&path, broken).unwrap();
    let mut mujoco = MujocoSystem::<LiteBiped>::new(MujocoOptions {
        model: ModelSource::File(path.clone()),
        ..MujocoOptions::default()
    });
    mujoco.on_init().unwrap();
    let error = mujoco.on_configure().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Unsupported);
    assert_eq!(
        error.to_string(),
        format!(
            "LiteBipedHardware: `{}` lacks what lite_biped needs (names must be the definition's, \
             as the emitted MJCF has them): joint `left_knee_pitch`, sensor `base_gyro` (gyro of \
             IMU `base_imu`)",
            path.display()
        )
    );
    assert!(mujoco.data().is_none(), "nothing stays loaded");
}

/// A joint whose motor is missing, or is not a torque motor, is refused by name too.
#[test]
fn a_missing_or_wrong_actuator_is_named() {
    let emitted = robot_core::emit::mjcf(LiteBiped::DESCRIPTION).unwrap();
    let broken = emitted
        .replace(
            r#"<motor name="left_hip_yaw" joint="left_hip_yaw" gear="1" ctrllimited="true" ctrlrange="-17 17" forcelimited="true" forcerange="-17 17"/>"#,
            "",
        )
        .replace(
            r#"<motor name="right_ankle_roll" joint="right_ankle_roll""#,
            r#"<position kp="10" name="right_ankle_roll" joint="right_ankle_roll""#,
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.xml");
    std::fs::write(&path, broken).unwrap();
    let mut mujoco = MujocoSystem::<LiteBiped>::new(MujocoOptions {
        model: ModelSource::File(path),
        ..MujocoOptions::default()
    });
    let message = mujoco.on_configure().unwrap_err().to_string();
    assert!(message.contains("actuator `left_hip_yaw`, "), "{message}");
    assert!(
        message.contains("actuator `right_ankle_roll` as a torque motor"),
        "{message}"
    );
}

/// A file that is not there is an I/O error naming it.
#[test]
fn a_model_file_that_is_not_there_is_named() {
    let mut mujoco = MujocoSystem::<LiteBiped>::new(MujocoOptions {
        model: ModelSource::File("no/such/model.xml".into()),
        ..MujocoOptions::default()
    });
    let error = mujoco.on_configure().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Io);
    assert_eq!(
        format!("{error:#}"),
        "LiteBipedHardware: loading its model: `no/such/model.xml`: no such file"
    );
}

/// An infinite command is refused, naming joint and interface.
#[test]
fn an_infinite_command_is_refused_by_name() {
    let (mut system, mut state, mut command) = active(options(ModelSource::Stand));
    command.right_ankle_pitch.stiffness = f64::INFINITY;
    system.read(clock(1), &mut state).unwrap();
    let error = system.write(clock(1), &command).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidCommand);
    assert_eq!(
        error.message(),
        "command `right_ankle_pitch/stiffness` is inf"
    );
}

/// Reading before configuring is a lifecycle error, not a panic.
#[test]
fn reading_unconfigured_is_an_error() {
    let mut mujoco = MujocoSystem::<LiteBiped>::default();
    let error = mujoco
        .read(clock(0), &mut LiteBipedState::default())
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Lifecycle);
}
