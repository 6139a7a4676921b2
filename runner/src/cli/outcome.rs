//! What `run` prints when a run ends: the final joint positions with their units, the last
//! readings of the force/torque and contact sensors, and the statistics of a run that failed
//! before its error.

use std::io::Write;

use robot_core::model::{JointKind, SensorKind};
use robot_core::typed::{RobotTypes, Slot};
use robot_core::{InterfaceKind, Values};

use crate::run::{RunError, summary};

/// A joint's final position: its name, the value, and its unit (`rad`, or `m` on a prismatic
/// joint).
pub(super) type Position = (&'static str, f64, &'static str);

/// Every joint position in a state, in declaration order.
pub(super) fn positions<R: RobotTypes>(state: &R::State) -> Vec<Position> {
    let values = state.as_slice();
    R::STATE_LAYOUT
        .slots
        .iter()
        .zip(values)
        .filter_map(|(slot, &value)| match *slot {
            Slot::Joint {
                joint,
                kind: InterfaceKind::Position,
            } => {
                let joint = &R::DESCRIPTION.joints[usize::from(joint)];
                let unit = if joint.kind == JointKind::Prismatic {
                    "m"
                } else {
                    "rad"
                };
                Some((joint.name.as_ref(), value, unit))
            }
            _ => None,
        })
        .collect()
}

/// The last reading of each force/torque and contact sensor, a line each:
/// `left_sole       contact 1, normal force 12.3 N`; `not driven` where nobody drove it (NaN).
/// The IMUs are left out: their orientation is on the plot and the ROS graph.
pub(super) fn sensor_readings<R: RobotTypes>(state: &R::State) -> Vec<String> {
    let values = state.as_slice();
    let robot = R::DESCRIPTION;
    (robot.sensors.iter().enumerate())
        .filter(|(_, s)| s.kind != SensorKind::Imu)
        .filter_map(|(index, sensor)| {
            let first = R::STATE_LAYOUT.sensor_slot(index)?;
            let v = values.get(first..first + sensor.state_interfaces().len())?;
            let reading = if v.iter().all(|x| x.is_nan()) {
                "not driven".to_string()
            } else if sensor.kind == SensorKind::Contact && v[1].is_nan() {
                // A switch read from a topic: in contact or not, no force.
                format!("contact {}", v[0])
            } else if v.iter().any(|x| x.is_nan()) {
                "not driven".to_string()
            } else if sensor.kind == SensorKind::Contact {
                format!("contact {}, normal force {:.1} N", v[0], v[1])
            } else {
                format!(
                    "force {:+.2} {:+.2} {:+.2} N, torque {:+.3} {:+.3} {:+.3} N·m",
                    v[0], v[1], v[2], v[3], v[4], v[5]
                )
            };
            Some(format!("{:<18} {reading}", sensor.name))
        })
        .collect()
}

/// A run that failed: its statistics to `out` when it got as far as running (an interrupted
/// run's are in its message already), and the error's text for the caller to print.
pub(super) fn failed_run(error: &RunError, out: &mut dyn Write) -> String {
    if let (Some(report), false) = (
        error.report(),
        matches!(error, RunError::Interrupted { .. }),
    ) {
        let _ = write!(out, "{}", summary(report));
    }
    error.to_string()
}

/// The final positions, three joints a line.
pub(super) fn print_positions(positions: &[Position]) {
    if positions.is_empty() {
        return;
    }
    outln!("final positions:");
    for line in position_lines(positions) {
        outln!("{line}");
    }
}

/// The final positions' lines, three joints a line, every name column as wide as the longest
/// name (at least 18) so that the values line up whatever the names.
fn position_lines(positions: &[Position]) -> Vec<String> {
    // 18 as before for short names; the longest name's width where one is longer.
    let width = (positions.iter())
        .map(|(name, ..)| name.chars().count())
        .max()
        .unwrap_or(0)
        .max(18);
    positions
        .chunks(3)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|(name, q, unit)| format!("{name:<width$} {q:+.3} {unit:<3}"))
                .collect();
            format!("  {}", cells.join("   ").trim_end())
        })
        .collect()
}

/// The sensors' last readings, when there are any.
pub(super) fn print_sensors(lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    outln!("final sensor readings:");
    for line in lines {
        outln!("  {line}");
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use robot_core::control_loop::{ControllerError, Fault, LoopError, LoopReport};
    use robot_core::hardware::{ComponentReport, Lifecycle};

    use super::*;
    use crate::run::RunError;

    robot_macros::robot! {
        robot Foot { update_rate: 100 Hz }
        link base {}
        link sole { collision sphere { radius: 0.02 } }
        joint ankle: fixed { parent: base, child: sole }
        force_torque ankle_ft { link: sole, plugin: "pkg/Ft" }
        contact touch { link: sole, plugin: "pkg/Touch" }
        contact heel { link: sole, plugin: "pkg/Touch" }
    }

    #[test]
    fn final_positions_line_up_whatever_the_names() {
        let lines = position_lines(&[
            ("lift", 0.25, "m"),
            ("left_shoulder_pitch_joint_long", -1.0, "rad"),
            ("head_yaw", 0.5, "rad"),
            ("right_shoulder_pitch_joint_lon", 1.0, "rad"),
        ]);
        assert_eq!(lines.len(), 2);
        // The second value of the first line and the value of the second start where the
        // names end, in the same column.
        let column = |line: &str, value: &str| line.find(value).unwrap();
        assert_eq!(column(&lines[0], "+0.250"), column(&lines[1], "+1.000"));
        assert_eq!(
            lines[0],
            "  lift                           +0.250 m     left_shoulder_pitch_joint_long -1.000 rad   head_yaw                       +0.500 rad"
        );
    }

    #[test]
    fn the_force_torque_and_contact_sensors_last_readings_are_a_line_each() {
        let mut state = FootState::default();
        state.ankle_ft.force.z = -17.176;
        state.ankle_ft.torque.y = 0.0984;
        state.touch.contact = 1.0;
        state.touch.normal_force = 18.24;
        state.heel.contact = f64::NAN;
        state.heel.normal_force = f64::NAN;
        assert_eq!(
            sensor_readings::<Foot>(&state),
            [
                "ankle_ft           force +0.00 +0.00 -17.18 N, torque +0.000 +0.098 +0.000 N·m",
                "touch              contact 1, normal force 18.2 N",
                "heel               not driven",
            ]
        );
        // A switch read from a topic: in contact or not, no force.
        state.heel.contact = 0.0;
        assert_eq!(
            sensor_readings::<Foot>(&state)[2],
            "heel               contact 0"
        );
    }

    #[test]
    fn a_failed_run_prints_its_statistics_before_its_error() {
        let report = LoopReport {
            timing: Default::default(),
            realtime: Vec::new(),
            components: vec![ComponentReport {
                name: "LiteBipedHardware".into(),
                lifecycle: Lifecycle::Inactive,
                counters: Vec::new(),
                events: Vec::new(),
            }],
            torque_off_failures: Vec::new(),
            controller_deactivate: None,
        };
        let error = RunError::Loop(LoopError::Cycle {
            cycle: 7,
            fault: Fault::Controller(ControllerError::new("knee beyond its safe range")),
            report: Box::new(report),
        });
        let mut out = Vec::new();
        let message = failed_run(&error, &mut out);
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("final lifecycle: inactive"), "{out}");
        assert_eq!(
            message,
            "cycle 7: the controller stopped: knee beyond its safe range"
        );
        // A run that never ran has no statistics to print.
        let mut out = Vec::new();
        failed_run(&RunError::Signals("a handler exists".into()), &mut out);
        assert!(out.is_empty());
    }
}
