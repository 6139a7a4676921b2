//! The graph's `/diagnostics`, about once a second: [`ros2_state::diagnostic_array`] with the
//! loop's live cycles and overruns ([`LoopWatch`]) and what this publisher passed over or
//! dropped.

use std::sync::{Arc, OnceLock};

use robot_runtime::control_loop::LoopControl;
use robot_runtime::controller_manager::ManagerHandle;
use ros2_msg::msg::{DiagnosticArray, DiagnosticStatus, Time};
use ros2_state::diagnostic_array;
use ros2_state::diagnostics::pair;
use ros2_state::snapshot::Health;

use crate::GraphReport;

/// The running loop's live counters, once the loop is spawned ([`LoopWatch::watch`]).
#[derive(Debug, Clone, Default)]
pub struct LoopWatch(Arc<OnceLock<Arc<LoopControl>>>);

impl LoopWatch {
    /// Reads the cycles and overruns of the loop `control` belongs to from now on.
    pub fn watch(&self, control: Arc<LoopControl>) {
        let _ = self.0.set(control);
    }

    pub(crate) fn control(&self) -> Option<&LoopControl> {
        self.0.get().map(Arc::as_ref)
    }
}

/// The controller manager's status: which controllers are active, and the last switch that was
/// refused or left something out (a warning, with what it said).
pub(crate) fn manager_status(robot: &str, manager: &ManagerHandle) -> DiagnosticStatus {
    let active: Vec<String> = (manager.controllers().into_iter())
        .filter(|c| c.active)
        .map(|c| c.info.name)
        .collect();
    let problem = manager.last_problem();
    let mut values = vec![pair("active controllers", active.join(", "))];
    if let Some(problem) = &problem {
        values.push(pair("last switch refused or partly done", problem));
    }
    DiagnosticStatus {
        level: match problem {
            Some(_) => DiagnosticStatus::WARN,
            None => DiagnosticStatus::OK,
        },
        name: format!("{robot}: controller manager"),
        message: match &problem {
            Some(problem) => problem.lines().next().unwrap_or_default().to_string(),
            None => format!("{} active", active.len()),
        },
        hardware_id: robot.to_string(),
        values,
    }
}

/// The message for `health`, as the graph publishes it: the loop's cycles and overruns from
/// `watch`, this publisher's counts from `graph`.
pub(crate) fn message(
    robot: &str,
    names: &[String],
    health: &Health,
    watch: &LoopWatch,
    graph: &GraphReport,
    stamp: &Time,
) -> DiagnosticArray {
    let counts = watch.control().map(|c| (c.cycles(), c.overruns()));
    let publisher = [
        pair("states published", graph.published),
        pair("cycles passed over (rate cap)", graph.passed_over),
        pair("messages dropped (network behind)", graph.dropped),
    ];
    diagnostic_array(robot, names, health, counts, &publisher, stamp)
}
