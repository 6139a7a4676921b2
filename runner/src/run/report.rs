//! What a run comes back with, and its statistics in words.

use std::fmt::Write as _;

use robot_core::control_loop::LoopReport;
use robot_core::typed::RobotTypes;

/// A run that ended as asked (its time or cycles were up).
#[derive(Debug, Clone)]
pub struct RunOutcome<R: RobotTypes> {
    /// Timing, real-time setup, final lifecycle of every component.
    pub report: LoopReport,
    /// The last state read, when the loop came back.
    pub state: Option<R::State>,
}

/// The loop statistics and real-time outcome, as `run` prints them.
pub fn summary(report: &LoopReport) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}", report.timing);
    for step in &report.realtime {
        let _ = writeln!(out, "  real-time: {step}");
    }
    let _ = writeln!(out, "  final lifecycle: {}", report.final_lifecycle());
    if let Some(fault) = &report.controller_deactivate {
        let _ = writeln!(out, "  after torque off, {fault}");
    }
    for (component, event) in report.events() {
        let _ = writeln!(out, "  {component}: {event}");
    }
    for component in &report.components {
        let counted: Vec<String> = (component.counters.iter())
            .map(|c| format!("{} {}", c.name, c.value))
            .collect();
        if !counted.is_empty() {
            let _ = writeln!(out, "  {}: {}", component.name, counted.join(", "));
        }
    }
    if report.timing.paced {
        let _ = writeln!(
            out,
            "  (an overrun: a cycle that ended after the next cycle's deadline, as ros2_control counts them;\n   \
             a skipped deadline: one the loop dropped to catch up rather than run late cycles back to back)"
        );
    }
    out
}
