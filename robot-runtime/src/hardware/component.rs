//! One hardware component: the unit ros2_control loads from a `<ros2_control>` block.

use std::time::Duration;

use super::error::{ErrorKind, HardwareError};
use super::lifecycle::Lifecycle;
use crate::kinematics::Transform;
use crate::typed::RobotTypes;

/// Time as the control loop gives it to every call of a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Since the loop started.
    pub time: Duration,
    /// Since the previous cycle started (the nominal period on the first cycle).
    pub period: Duration,
}

/// What a component drives: indices into the robot's `joints` and `sensors`. A [`super::System`]
/// refuses two components claiming the same item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Claims {
    /// Indices into [`crate::Robot::joints`].
    pub joints: Vec<usize>,
    /// Indices into [`crate::Robot::sensors`].
    pub sensors: Vec<usize>,
}

impl Claims {
    /// Every controlled joint of `robot` and these sensors: what a component standing for the
    /// whole robot claims (the mock's, MuJoCo's and the topic backend's `<Robot>Hardware`).
    pub fn whole_robot(robot: &crate::Robot, sensors: impl IntoIterator<Item = usize>) -> Claims {
        Claims {
            joints: (0..robot.joints.len())
                .filter(|&j| robot.joints[j].is_controlled())
                .collect(),
            sensors: sensors.into_iter().collect(),
        }
    }
}

/// What a component is known by, the opening every component shares: its name (its
/// `<ros2_control>` block's, `LiteBipedLeftLeg`) and what it claims. The errors it makes name
/// it ([`Identity::error`]); its `Debug` shows it ([`Identity::debug`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Identity {
    name: String,
    claims: Claims,
}

impl Identity {
    /// Component `name`, driving `claims`.
    pub fn new(name: impl Into<String>, claims: Claims) -> Identity {
        Identity {
            name: name.into(),
            claims,
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it drives.
    pub fn claims(&self) -> &Claims {
        &self.claims
    }

    /// An error of this component. Building one allocates; an error ends the cycle.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> HardwareError {
        HardwareError::new(self.name.clone(), kind, message)
    }

    /// The start of a component's `Debug`: its type, name and claims. The component adds what
    /// else is worth showing and ends with `finish_non_exhaustive` (much of what it holds has
    /// no `Debug`: a bus, a model, a closure).
    pub fn debug<'a, 'b: 'a>(
        &self,
        f: &'a mut std::fmt::Formatter<'b>,
        kind: &str,
    ) -> std::fmt::DebugStruct<'a, 'b> {
        let mut out = f.debug_struct(kind);
        out.field("name", &self.name).field("claims", &self.claims);
        out
    }
}

/// A count a component keeps for the run's statistics: commands clamped, replies missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counter {
    /// What is counted, plural and lower case (`commands clamped`); shown before its value
    /// (`commands clamped 0`), so no count reads `1 commands`.
    pub name: &'static str,
    /// The count over the run.
    pub value: u64,
}

/// What one component counted: up to [`Counters::CAPACITY`] counters, held inline so that they
/// can be read mid-run without allocating (`/diagnostics` reads them about once a second).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    items: [Counter; Counters::CAPACITY],
    len: usize,
}

impl Counters {
    /// The most counters a component can report; more are left out (a component's own test
    /// sees it: [`Counters::push`] says so).
    pub const CAPACITY: usize = 12;

    /// No counters.
    pub const fn new() -> Self {
        Counters {
            items: [Counter { name: "", value: 0 }; Counters::CAPACITY],
            len: 0,
        }
    }

    /// Adds a counter; `false` (and nothing added) when [`Counters::CAPACITY`] are held already.
    pub fn push(&mut self, name: &'static str, value: u64) -> bool {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = Counter { name, value };
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The counters, in the order pushed.
    pub fn as_slice(&self) -> &[Counter] {
        self.items.get(..self.len).unwrap_or_default()
    }
}

impl std::ops::Deref for Counters {
    type Target = [Counter];

    fn deref(&self) -> &[Counter] {
        self.as_slice()
    }
}

impl std::fmt::Debug for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<const N: usize> From<[(&'static str, u64); N]> for Counters {
    fn from(counted: [(&'static str, u64); N]) -> Self {
        let mut counters = Counters::new();
        for (name, value) in counted {
            counters.push(name, value);
        }
        counters
    }
}

/// What [`Component::on_error`] does unless a component says otherwise: `on_deactivate` when it
/// was active (torque off), then `on_cleanup`. A failed torque-off is returned at once; the
/// [`super::System`] then holds the component active and keeps trying to switch it off.
pub fn switch_off_and_clean_up<R: RobotTypes, C: Component<R> + ?Sized>(
    component: &mut C,
    previous: Lifecycle,
) -> Result<(), HardwareError> {
    if previous == Lifecycle::Active {
        component.on_deactivate()?;
    }
    component.on_cleanup()
}

/// A hardware component driving part (or all) of robot `R`.
///
/// A component writes only the state slots of what it [`claims`](Component::claims), and reads
/// only their command slots. It resolves which slots those are once, in `on_init` or
/// `on_configure`, through [`RobotTypes::STATE_LAYOUT`] and [`RobotTypes::COMMAND_LAYOUT`].
pub trait Component<R: RobotTypes>: Send {
    /// Its name and what it drives.
    fn identity(&self) -> &Identity;

    /// The component's name, as its `<ros2_control>` block is called (`LiteBipedLeftLeg`).
    fn name(&self) -> &str {
        self.identity().name()
    }

    /// The joints and sensors this component drives.
    fn claims(&self) -> &Claims {
        self.identity().claims()
    }

    /// Checks the definition against what the backend supports; opens nothing.
    fn on_init(&mut self) -> Result<(), HardwareError>;

    /// Opens the bus, loads the model; may block. Unconfigured → inactive.
    fn on_configure(&mut self) -> Result<(), HardwareError>;

    /// Releases what `on_configure` opened. Inactive → unconfigured. A failing `on_configure`
    /// must release what it opened itself: the component stays unconfigured and is not cleaned
    /// up (upstream's rule).
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        Ok(())
    }

    /// Enables the hardware. `command` already holds safe values
    /// ([`super::seed_safe_commands`]); a component may make its own slots safer still.
    /// Inactive → active. A failing `on_activate` stays inactive and is not deactivated, so it
    /// must disable whatever it enabled before returning the error; if that fails too, it
    /// returns the error [`possibly_live`](HardwareError::possibly_live), and is held active
    /// and switched off like an active component.
    fn on_activate(
        &mut self,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError>;

    /// Disables the hardware (torque off). Active → inactive. On an `Err` the component stays
    /// active (upstream's rule: it may still be live) and the loop tries again.
    fn on_deactivate(&mut self) -> Result<(), HardwareError>;

    /// Releases everything before the component is dropped. Unconfigured or inactive (an active
    /// component is deactivated first) → finalized.
    fn on_shutdown(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        let _ = previous;
        Ok(())
    }

    /// Recovers after a failed `read` or `write`, an escalated callback error or a panic, from
    /// `previous` (inactive or active). `Ok` → unconfigured (it may be configured again);
    /// `Err` → finalized (never called again).
    ///
    /// The default is [`switch_off_and_clean_up`]. Upstream's default does nothing; a component
    /// left enabled after an error is the one failure this project cannot have.
    fn on_error(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        switch_off_and_clean_up(self, previous)
    }

    /// Fills this component's slots of `state`. Inactive and active; never allocates or blocks.
    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError>;

    /// Sends this component's slots of `command`. Active only; never allocates or blocks.
    fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError>;

    /// What this component counted so far, for the statistics at the end and for
    /// `/diagnostics` mid-run: read on the control thread between cycles, so it must not
    /// allocate or block.
    fn counters(&self) -> Counters {
        Counters::new()
    }

    /// Where the robot's floating base is in the world, if this component knows (a simulation
    /// does; `/tf` then moves the base). Read on the control thread: must not allocate or block.
    fn base_pose(&self) -> Option<Transform> {
        None
    }

    /// What happened over the run that the statistics should say in words (a simulated robot
    /// that fell, and when). Read when the loop ends, never in a cycle (it may allocate).
    fn events(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_hold_up_to_their_capacity_and_say_when_full() {
        let mut counters = Counters::from([("commands clamped", 3), ("replies missed", 0)]);
        assert_eq!(counters.len(), 2);
        assert_eq!(counters[0].name, "commands clamped");
        assert_eq!(counters[0].value, 3);
        for _ in 2..Counters::CAPACITY {
            assert!(counters.push("more", 1));
        }
        assert!(!counters.push("one too many", 1), "full");
        assert_eq!(counters.len(), Counters::CAPACITY);
        assert!(counters.iter().all(|c| c.name != "one too many"));
        assert_eq!(format!("{:?}", Counters::new()), "[]");
    }
}
