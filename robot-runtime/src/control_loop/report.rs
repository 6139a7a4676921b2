//! What a finished run reports.

use super::fault::Fault;
use super::realtime::RealtimeStep;
use super::stats::TimingReport;
use crate::hardware::{ComponentReport, HardwareError, Lifecycle};

/// What a finished run reports.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopReport {
    /// Timing statistics.
    pub timing: TimingReport,
    /// The outcome of each real-time setup step.
    pub realtime: Vec<RealtimeStep>,
    /// Each component's name, state at the end, counts and events, in order.
    pub components: Vec<ComponentReport>,
    /// Every failed attempt to switch a component off, in order (empty when all went well).
    pub torque_off_failures: Vec<HardwareError>,
    /// A panic of the controller's `on_deactivate`, after the hardware was switched off.
    pub controller_deactivate: Option<Fault>,
}

impl LoopReport {
    /// The system's state at the end, summarised: the most live of its components' (inactive
    /// after a clean stop of an active loop).
    pub fn final_lifecycle(&self) -> Lifecycle {
        Lifecycle::most_live(self.components.iter().map(|c| c.lifecycle))
    }

    /// Every event of every component, in order, with the component's name.
    pub fn events(&self) -> impl Iterator<Item = (&str, &str)> {
        (self.components.iter())
            .flat_map(|c| c.events.iter().map(|e| (c.name.as_str(), e.as_str())))
    }

    /// What a failed run's error adds about switching off: the failed attempts, what is still
    /// active, a panic of the controller's `on_deactivate`; empty when all went well.
    pub(crate) fn torque_off_note(&self) -> String {
        let mut note = String::new();
        if !self.torque_off_failures.is_empty() {
            note.push_str(&format!(
                "; torque off failed: {}",
                crate::hardware::summarize(&self.torque_off_failures)
            ));
        }
        for component in &self.components {
            if component.lifecycle == Lifecycle::Active {
                note.push_str(&format!("; `{}` is STILL ACTIVE", component.name));
            }
        }
        if let Some(fault) = &self.controller_deactivate {
            note.push_str(&format!("; after torque off, {fault}"));
        }
        note
    }
}
