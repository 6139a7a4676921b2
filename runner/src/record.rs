//! `robot run --record run.mcap`: every cycle of the run into a rosbag2 MCAP file (crate
//! `ros2-record`), on any backend, with or without `--ros`; and `robot plot run.mcap --out
//! run.svg`: a recording drawn as `--plot` draws a run, so a run on the robot is plotted later
//! on a laptop.

use std::path::Path;
use std::time::Duration;

use robot_core::Backend;
use robot_core::typed::RobotTypes;
use ros2_record::read::{self, ReadError, ReadSummary};
use ros2_record::{RecordFile, RecordObserver, RecordOptions, Recorder};

use crate::plot::{self, PlotError};
use crate::run::error::RunError;
use crate::trace::{self, Trace, TracedJoint};

/// Starts recording robot `R` on `backend` into `file`; `title` says what ran where; stamps on
/// simulated time with `sim_time`.
pub fn start<R: RobotTypes>(
    file: RecordFile,
    backend: Backend,
    title: String,
    sim_time: bool,
) -> Result<(Recorder, RecordObserver<R>), RunError> {
    // The same text `emit` writes as `<robot>.<backend>.urdf`, as `--ros` publishes it.
    let robot_description =
        robot_core::emit::urdf(R::DESCRIPTION, backend).map_err(|e| RunError::Backend {
            backend,
            reason: format!("cannot emit its URDF for /robot_description: {e}"),
        })?;
    Ok(Recorder::start::<R>(
        file,
        RecordOptions {
            sim_time,
            ..RecordOptions::new(title, robot_description)
        },
    )?)
}

/// Why a recording could not be plotted.
#[derive(Debug, thiserror::Error)]
pub enum PlotRecordingError {
    /// The recording cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The picture cannot be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

/// Draws `recording` into `out` (`.svg` or `.png`) as `--plot` draws a run; returns what was
/// read (a file cut short says so in `truncated`).
pub fn plot(recording: &Path, out: &Path) -> Result<ReadSummary, PlotRecordingError> {
    plot::Format::of(out)?;
    let (trace, summary) = trace_of(recording)?;
    let title = summary.info.title.clone().unwrap_or_else(|| {
        recording
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    plot::write(&trace, &title, out)?;
    Ok(summary)
}

/// The trace `--plot` would have recorded, from a recording: every joint with a commanded or
/// measured position, sampled as [`Trace`] samples a run. One difference: `--plot` samples the
/// active cycles only, a recording has every cycle the loop ran (a run that never activates is
/// still drawn). A joint whose measured position is NaN throughout counts as having none.
pub fn trace_of(recording: &Path) -> Result<(Trace, ReadSummary), ReadError> {
    // First pass: which joints have a position command, and which a measured position.
    let mut joints: Vec<(String, bool, bool)> = Vec::new();
    let mut prismatic: Option<Vec<String>> = None;
    read::cycles(recording, |info, cycle| {
        if prismatic.is_none() {
            prismatic.clone_from(&info.prismatic_joints);
        }
        if joints.is_empty() {
            joints = cycle
                .states
                .name
                .iter()
                .map(|name| {
                    let commanded = position_command(cycle.commands, name).is_some();
                    (name.clone(), commanded, false)
                })
                .collect();
        }
        for ((_, _, measured), position) in joints.iter_mut().zip(&cycle.states.position) {
            *measured |= position.is_finite();
        }
    })?;
    let joints: Vec<(String, bool, bool)> = joints.into_iter().filter(|j| j.1 || j.2).collect();
    let traced = joints
        .iter()
        .enumerate()
        .map(|(i, (name, commanded, measured))| {
            let mut joint =
                TracedJoint::new(name.clone(), commanded.then_some(i), measured.then_some(i));
            joint.unit = prismatic.as_ref().map(
                |prismatic| {
                    if prismatic.contains(name) { "m" } else { "rad" }
                },
            );
            joint
        })
        .collect();
    let mut trace = Trace::of_joints(traced, trace::DEFAULT_CAPACITY);
    let (mut states, mut commands) = (vec![f64::NAN; joints.len()], vec![f64::NAN; joints.len()]);
    let mut start = None;
    let summary = read::cycles(recording, |info, cycle| {
        let start = *start.get_or_insert(info.loop_start_ns.unwrap_or(cycle.stamp_ns));
        for (i, (name, _, _)) in joints.iter().enumerate() {
            let at = cycle.states.name.iter().position(|n| n == name);
            states[i] = at
                .and_then(|at| cycle.states.position.get(at))
                .copied()
                .unwrap_or(f64::NAN);
            commands[i] = position_command(cycle.commands, name).unwrap_or(f64::NAN);
        }
        // The loop's own time, as `--plot` takes it: exact in nanoseconds.
        let time = Duration::from_nanos(cycle.stamp_ns.saturating_sub(start)).as_secs_f64();
        trace.record(time, &states, &commands);
    })?;
    Ok((trace, summary))
}

/// Joint `name`'s commanded position in `commands`, if it has a position command.
fn position_command(commands: &ros2_record::topics::DynamicJointState, name: &str) -> Option<f64> {
    let joint = commands.joint_names.iter().position(|n| n == name)?;
    let interfaces = commands.interface_values.get(joint)?;
    let slot = interfaces
        .interface_names
        .iter()
        .position(|n| n == "position")?;
    interfaces.values.get(slot).copied()
}
