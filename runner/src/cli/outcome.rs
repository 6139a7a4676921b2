//! What `run` prints when a run ends: the final joint positions with their units, and the
//! statistics of a run that failed before its error.

use std::io::Write;

use robot_core::model::JointKind;
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
    for row in positions.chunks(3) {
        let cells: Vec<String> = row
            .iter()
            .map(|(name, q, unit)| format!("{name:<18} {q:+.3} {unit:<3}"))
            .collect();
        outln!("  {}", cells.join("   "));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use robot_core::control_loop::{ControllerError, Fault, LoopError, LoopReport};
    use robot_core::hardware::Lifecycle;

    use super::*;
    use crate::run::RunError;

    #[test]
    fn a_failed_run_prints_its_statistics_before_its_error() {
        let report = LoopReport {
            timing: Default::default(),
            realtime: Vec::new(),
            final_lifecycle: Lifecycle::Inactive,
            components: Vec::new(),
            torque_off_failures: Vec::new(),
            controller_deactivate: None,
            counters: Vec::new(),
            events: Vec::new(),
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
