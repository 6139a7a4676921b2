//! The handoff from the control thread to the publishing thread: each cycle's [`Snapshot`]
//! through a triple buffer (wait-free, allocation-free), the newest winning; and, about once a
//! second, how each component stands ([`Health`]), through a second one.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use robot_runtime::control_loop::CycleObserver;
use robot_runtime::hardware::{Clock, System};
use robot_runtime::typed::RobotTypes;
use ros2_state::snapshot::{CycleTaker, Health, Names, Snapshot};

/// The control thread's end: attach it to the loop with
/// [`ControlLoop::with_observer`](robot_runtime::control_loop::ControlLoop::with_observer).
pub struct GraphObserver<R: RobotTypes> {
    input: triple_buffer::Input<Snapshot<R>>,
    health: triple_buffer::Input<Health>,
    taker: CycleTaker<R>,
    hardware: HardwareView,
}

/// One hardware component as the services describe it, learnt when the observer is attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ComponentView {
    pub(crate) name: String,
    /// Indices into the robot's joints and sensors.
    pub(crate) joints: Vec<usize>,
    pub(crate) sensors: Vec<usize>,
    /// Its joints' command slots.
    pub(crate) commands: Vec<usize>,
}

/// The loop's components, once it is attached.
#[derive(Debug, Clone, Default)]
pub(crate) struct HardwareView(Arc<OnceLock<Vec<ComponentView>>>);

impl HardwareView {
    pub(crate) fn components(&self) -> &[ComponentView] {
        self.0.get().map_or(&[], Vec::as_slice)
    }
}

impl<R: RobotTypes> std::fmt::Debug for GraphObserver<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphObserver")
            .field("taker", &self.taker)
            .finish_non_exhaustive()
    }
}

/// The publishing thread's end.
pub(crate) struct Snapshots<R: RobotTypes> {
    output: triple_buffer::Output<Snapshot<R>>,
    health: triple_buffer::Output<Health>,
    pub(crate) names: Names,
    last_cycle: u64,
    last_health: u64,
}

/// A connected pair; the system's health is handed over every `health_period` of loop time.
pub(crate) fn snapshots<R: RobotTypes>(
    health_period: Duration,
    sim_time: bool,
    hardware: HardwareView,
) -> (GraphObserver<R>, Snapshots<R>) {
    let (input, output) = triple_buffer::triple_buffer(&Snapshot::default());
    let (health_in, health_out) = triple_buffer::triple_buffer(&Health::default());
    let taker = CycleTaker::new(health_period, sim_time);
    let names = taker.names();
    (
        GraphObserver {
            input,
            health: health_in,
            taker,
            hardware,
        },
        Snapshots {
            output,
            health: health_out,
            names,
            last_cycle: 0,
            last_health: 0,
        },
    )
}

impl<R: RobotTypes> CycleObserver<R> for GraphObserver<R> {
    fn attach(&mut self, system: &System<R>) {
        self.taker.attach(system);
        let components = (system.component_names().enumerate())
            .map(|(index, name)| {
                let claims = system.claims_of(index).cloned().unwrap_or_default();
                ComponentView {
                    name: name.to_string(),
                    joints: claims.joints,
                    sensors: claims.sensors,
                    commands: system.command_slots_of(index).to_vec(),
                }
            })
            .collect();
        let _ = self.hardware.0.set(components);
    }

    fn observe(&mut self, clock: Clock, state: &R::State, command: &R::Command) {
        self.taker.observe(clock, state, command);
    }

    fn observe_system(&mut self, clock: Clock, system: &System<R>) {
        let (snapshot, health) = self.taker.complete(clock, system);
        self.input.write(*snapshot);
        if let Some(health) = health {
            self.health.write(health);
        }
    }
}

impl<R: RobotTypes> Snapshots<R> {
    /// The newest snapshot if one came since the last call, and how many cycles were passed
    /// over since the one before (replaced before they were taken).
    pub(crate) fn take_newest(&mut self) -> Option<(&Snapshot<R>, u64)> {
        self.output.update();
        let newest = self.output.output_buffer();
        if newest.cycle == self.last_cycle {
            return None;
        }
        let passed_over = newest.cycle.saturating_sub(self.last_cycle + 1);
        self.last_cycle = newest.cycle;
        Some((newest, passed_over))
    }

    /// The newest health if one came since the last call.
    pub(crate) fn take_health(&mut self) -> Option<&Health> {
        self.health.update();
        let newest = self.health.output_buffer();
        if newest.cycle == self.last_health {
            return None;
        }
        self.last_health = newest.cycle;
        Some(newest)
    }
}
