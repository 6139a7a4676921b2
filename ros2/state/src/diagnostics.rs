//! `/diagnostics` (`diagnostic_msgs/DiagnosticArray`): one status for the control loop (cycles,
//! overruns, the system's lifecycle, and what its publisher adds) and one per hardware component
//! (its lifecycle and every counter it keeps: commands clamped, replies missed), as
//! controller_manager's diagnostics name its parts. What the graph publishes and a recording
//! keeps.

use robot_runtime::hardware::Lifecycle;
use ros2_msg::msg::{DiagnosticArray, DiagnosticStatus, Header, KeyValue, Time};

use crate::snapshot::Health;

/// A diagnostic's `key: value`.
pub fn pair(key: &str, value: impl ToString) -> KeyValue {
    KeyValue {
        key: key.to_string(),
        value: value.to_string(),
    }
}

fn level_of(lifecycle: Lifecycle) -> ros2_msg::Byte {
    match lifecycle {
        Lifecycle::Active | Lifecycle::Inactive => DiagnosticStatus::OK,
        Lifecycle::Unconfigured => DiagnosticStatus::WARN,
        Lifecycle::Finalized => DiagnosticStatus::ERROR,
    }
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
