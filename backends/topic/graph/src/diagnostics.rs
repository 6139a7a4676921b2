//! `/diagnostics` (`diagnostic_msgs/DiagnosticArray`), about once a second: one status for the
//! control loop (cycles, overruns, the system's lifecycle, what this publisher passed over or
//! dropped) and one per hardware component (its lifecycle and every counter it keeps: commands
//! clamped, replies missed), as controller_manager's diagnostics name its parts.

use std::sync::{Arc, OnceLock};

use robot_runtime::control_loop::LoopControl;
use robot_runtime::hardware::Lifecycle;
use ros2_wire::msg::{DiagnosticArray, DiagnosticStatus, Header, KeyValue, Time};

use crate::GraphReport;
use crate::snapshot::Health;

/// The running loop's live counters, once the loop is spawned ([`LoopWatch::watch`]).
#[derive(Debug, Clone, Default)]
pub struct LoopWatch(Arc<OnceLock<Arc<LoopControl>>>);

impl LoopWatch {
    /// Reads the cycles and overruns of the loop `control` belongs to from now on.
    pub fn watch(&self, control: Arc<LoopControl>) {
        let _ = self.0.set(control);
    }

    fn control(&self) -> Option<&LoopControl> {
        self.0.get().map(Arc::as_ref)
    }
}

fn pair(key: &str, value: impl ToString) -> KeyValue {
    KeyValue {
        key: key.to_string(),
        value: value.to_string(),
    }
}

fn level_of(lifecycle: Lifecycle) -> ros2_wire::Byte {
    match lifecycle {
        Lifecycle::Active | Lifecycle::Inactive => DiagnosticStatus::OK,
        Lifecycle::Unconfigured => DiagnosticStatus::WARN,
        Lifecycle::Finalized => DiagnosticStatus::ERROR,
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

/// `/diagnostics` for `health` of robot `robot`, whose components are `names`: one status for
/// the loop (with its `(cycles, overruns)` when known, and `extra` figures), one per component
/// (its lifecycle and counters). What the graph publishes and a recording keeps.
pub fn diagnostic_array(
    robot: &str,
    names: &[String],
    health: &Health,
    loop_counts: Option<(u64, u64)>,
    extra: &[KeyValue],
    stamp: &Time,
) -> DiagnosticArray {
    let mut status = Vec::with_capacity(health.components().len() + 1);
    let mut loop_values = vec![
        pair("lifecycle", health.lifecycle),
        pair(
            "loop time (s)",
            format!("{:.3}", health.clock.time.as_secs_f64()),
        ),
    ];
    let mut loop_level = level_of(health.lifecycle);
    let mut summary = format!("{}", health.lifecycle);
    if let Some((cycles, overruns)) = loop_counts {
        loop_values.push(pair("cycles", cycles));
        loop_values.push(pair("overruns", overruns));
        summary = format!("{summary}, {cycles} cycles, {overruns} overruns");
        if overruns > 0 && loop_level == DiagnosticStatus::OK {
            loop_level = DiagnosticStatus::WARN;
        }
    }
    loop_values.extend_from_slice(extra);
    if health.left_out > 0 {
        loop_values.push(pair("components not shown", health.left_out));
    }
    status.push(DiagnosticStatus {
        level: loop_level,
        name: format!("{robot}: control loop"),
        message: summary,
        hardware_id: robot.to_string(),
        values: loop_values,
    });
    for (index, component) in health.components().iter().enumerate() {
        let name = names.get(index).map_or("component", String::as_str);
        let mut values = vec![pair("lifecycle", component.lifecycle)];
        values.extend(component.counters.iter().map(|c| pair(c.name, c.value)));
        status.push(DiagnosticStatus {
            level: level_of(component.lifecycle),
            name: format!("{robot}: {name}"),
            message: component.lifecycle.to_string(),
            hardware_id: name.to_string(),
            values,
        });
    }
    DiagnosticArray {
        header: Header {
            stamp: stamp.clone(),
            frame_id: String::new(),
        },
        status,
    }
}
