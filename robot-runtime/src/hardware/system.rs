//! Several components driving one robot, each through its own lifecycle ([`super::lifecycle`]).

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::component::{Claims, Clock, Component, Counter, Counters};
use super::error::{ErrorKind, HardwareError, Recovery, summarize};
use super::lifecycle::Lifecycle;
use super::panics::{Panic, catching_panics, name_of};
use super::seed::seed_safe_commands;
use crate::Values;
use crate::kinematics::Transform;
use crate::typed::{RobotTypes, Slot};

mod one;

/// The components of one robot, run in turn over its one state and command struct.
///
/// Every component call catches panics: a panic becomes an escalated [`ErrorKind::Panicked`] error of
/// that component. Dropping a system with an active component switches it off.
///
/// A sensor no component claims (an IMU whose driver this build does not have) reads NaN, every
/// read: never the identity quaternion and zero rates of a fresh state, which a balance
/// controller would take for a robot standing still and level.
pub struct System<R: RobotTypes> {
    /// The components, in the order they were given: configured, activated, read and written
    /// in this order, cleaned up in the reverse.
    members: Vec<Member<R>>,
    /// The state slots of the sensors no component claims.
    unclaimed: Vec<usize>,
    /// The component driving each sensor of the robot, by index into `members`.
    sensor_owner: Vec<Option<usize>>,
    /// Torque-off failures of whoever is dropping this system, reported with its own.
    failed_before_drop: Vec<HardwareError>,
    /// Where the report of a drop that failed to switch something off goes: stderr unless
    /// [`System::report_drops_to`] said otherwise.
    drop_report: Option<DropReport>,
}

impl<R: RobotTypes> std::fmt::Debug for System<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("System")
            .field("components", &self.members)
            .finish()
    }
}

/// What a run reports of one component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentReport {
    /// Its name (`LiteBipedLeftLeg`).
    pub name: String,
    /// Its state at the end.
    pub lifecycle: Lifecycle,
    /// What it counted ([`Component::counters`]): clamps, missed replies.
    pub counters: Vec<Counter>,
    /// What it says happened, in words ([`Component::events`]): a fall.
    pub events: Vec<String>,
}

/// Where a system's drop report goes ([`System::report_drops_to`]).
type DropReport = Box<dyn FnMut(&str) + Send>;

/// One component of a system and where it stands.
struct Member<R: RobotTypes> {
    component: Box<dyn Component<R>>,
    /// Its name, asked once (catching a panic): every report names it, and must not panic
    /// doing so.
    name: String,
    standing: Standing,
    /// What it drives, asked once.
    claims: Claims,
    /// The command slots of its joints.
    commands: Vec<usize>,
}

impl<R: RobotTypes> std::fmt::Debug for Member<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:?})", self.name, self.standing)
    }
}

impl<R: RobotTypes> Member<R> {
    fn lifecycle(&self) -> Lifecycle {
        self.standing.lifecycle()
    }

    /// Calls the component, a panic becoming its escalated error.
    fn call<T>(
        &mut self,
        call: &'static str,
        f: impl FnOnce(&mut dyn Component<R>) -> Result<T, HardwareError>,
    ) -> Result<T, HardwareError> {
        catching_panics(self.component.as_mut(), call, f)
    }

    /// Sends the component through `on_error` after `error`: unconfigured when it recovers,
    /// finalized when it does not. Returns `error`, with `on_error`'s own failure added.
    ///
    /// One difference from upstream: a component whose `on_error` fails while it was active may
    /// still be live (its torque-off is what failed, as like as not), so it is held active, and
    /// switching it off is tried again like any failed deactivation; once that succeeds it is
    /// finalized. Upstream finalizes it at once and never calls it again.
    fn fail(&mut self, error: HardwareError) -> HardwareError {
        let previous = self.lifecycle();
        let (standing, error) = match self.call("on_error", |c| c.on_error(previous)) {
            Ok(()) => (Standing::In(Lifecycle::Unconfigured), error),
            Err(failure) if previous == Lifecycle::Active => (
                Standing::HeldActive,
                error.then(Recovery::OnErrorWhileActive, failure),
            ),
            Err(failure) => (
                Standing::In(Lifecycle::Finalized),
                error.then(Recovery::OnError, failure),
            ),
        };
        self.standing = standing;
        error
    }
}

const SYSTEM: &str = "system";

/// Where one component stands: in one of upstream's primary states, or in one of ours, held
/// active because its `on_error` failed while it was active (it may still be live) until
/// switching it off succeeds, when it is finalized. Upstream finalizes such a component at once
/// and never calls it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    In(Lifecycle),
    HeldActive,
}

impl Standing {
    /// The lifecycle state it reports: held active is active.
    fn lifecycle(self) -> Lifecycle {
        match self {
            Standing::In(state) => state,
            Standing::HeldActive => Lifecycle::Active,
        }
    }
}

impl<R: RobotTypes> System<R> {
    /// Takes the components and runs their `on_init`. Fails when two components claim the same
    /// joint or sensor, when a claim is not part of the robot, or when any `on_init` fails.
    pub fn new(components: Vec<Box<dyn Component<R>>>) -> Result<Self, HardwareError> {
        let robot = R::DESCRIPTION;
        let mut joint_owner: Vec<Option<usize>> = vec![None; robot.joints.len()];
        let mut sensor_owner: Vec<Option<usize>> = vec![None; robot.sensors.len()];
        // Asked once, catching panics: every report names its component, and must not panic doing so.
        let component_names: Vec<String> = components.iter().map(|c| name_of(c.as_ref())).collect();
        let mut all_claims = Vec::with_capacity(components.len());
        for (index, component) in components.iter().enumerate() {
            let claims = catch_unwind(AssertUnwindSafe(|| component.claims())).map_err(|p| {
                HardwareError::new(
                    &component_names[index],
                    ErrorKind::Panicked,
                    "panicked in `claims`",
                )
                .caused_by(Panic::of(p.as_ref()))
            })?;
            for (what, items, owners, names) in [
                (
                    "joint",
                    &claims.joints,
                    &mut joint_owner,
                    robot
                        .joints
                        .iter()
                        .map(|j| j.name.to_string())
                        .collect::<Vec<_>>(),
                ),
                (
                    "sensor",
                    &claims.sensors,
                    &mut sensor_owner,
                    robot.sensors.iter().map(|s| s.name.to_string()).collect(),
                ),
            ] {
                for &item in items {
                    let Some(owner) = owners.get_mut(item) else {
                        return Err(HardwareError::new(
                            &component_names[index],
                            ErrorKind::Unsupported,
                            format!(
                                "claims {what} #{item}, but `{}` has only {}",
                                robot.name,
                                names.len()
                            ),
                        ));
                    };
                    if let Some(other) = owner.replace(index) {
                        return Err(HardwareError::new(
                            &component_names[index],
                            ErrorKind::Unsupported,
                            format!(
                                "{what} `{}` is already driven by `{}`",
                                names[item], component_names[other]
                            ),
                        ));
                    }
                }
            }
            all_claims.push(claims.clone());
        }
        let unclaimed = R::STATE_LAYOUT
            .slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| {
                matches!(slot, Slot::Sensor { sensor, .. }
                    if sensor_owner.get(usize::from(*sensor)).is_some_and(Option::is_none))
            })
            .map(|(index, _)| index)
            .collect();
        let members = (components.into_iter().zip(component_names).zip(all_claims))
            .map(|((component, name), claims)| Member {
                component,
                name,
                standing: Standing::In(Lifecycle::Unconfigured),
                commands: (R::COMMAND_LAYOUT.slots.iter().enumerate())
                    .filter(|(_, slot)| {
                        matches!(slot, Slot::Joint { joint, .. } if claims.joints.contains(&usize::from(*joint)))
                    })
                    .map(|(index, _)| index)
                    .collect(),
                claims,
            })
            .collect();
        let mut system = System {
            members,
            unclaimed,
            sensor_owner,
            failed_before_drop: Vec::new(),
            drop_report: None,
        };
        for member in &mut system.members {
            member.call("on_init", |c| c.on_init())?;
        }
        Ok(system)
    }

    /// The system's state, summarised: the most live of its components' states (active if any
    /// component is active: torque may be on somewhere).
    pub fn lifecycle(&self) -> Lifecycle {
        Lifecycle::most_live(self.members.iter().map(Member::lifecycle))
    }

    /// Each component's name and state, in order.
    pub fn states(&self) -> impl Iterator<Item = (&str, Lifecycle)> {
        self.members
            .iter()
            .map(|m| (m.name.as_str(), m.lifecycle()))
    }

    /// What component `index` (in [`System::states`] order) counted so far; none when there is
    /// no such component or its `counters` panicked. Allocates nothing: read mid-run.
    pub fn counters_of(&self, index: usize) -> Counters {
        self.members
            .get(index)
            .and_then(|m| catch_unwind(AssertUnwindSafe(|| m.component.counters())).ok())
            .unwrap_or_default()
    }

    /// Where the floating base is in the world, from the first component that knows
    /// ([`Component::base_pose`]: a simulation does, an actuator bus does not).
    pub fn base_pose(&self) -> Option<Transform> {
        self.members.iter().find_map(|m| {
            catch_unwind(AssertUnwindSafe(|| m.component.base_pose()))
                .ok()
                .flatten()
        })
    }

    /// Each component's name, state, counts and events, in order: what a run reports of it.
    pub fn report(&self) -> Vec<ComponentReport> {
        // Read at the end of a run: a panic here must not lose the report.
        self.members
            .iter()
            .map(|m| ComponentReport {
                name: m.name.clone(),
                lifecycle: m.lifecycle(),
                counters: catch_unwind(AssertUnwindSafe(|| m.component.counters()))
                    .unwrap_or_default()
                    .to_vec(),
                events: catch_unwind(AssertUnwindSafe(|| m.component.events())).unwrap_or_default(),
            })
            .collect()
    }

    /// The sensors no component drives, by index into the robot's `sensors`: they read NaN.
    pub fn undriven_sensors(&self) -> Vec<usize> {
        let mut sensors: Vec<usize> = self
            .unclaimed
            .iter()
            .filter_map(|&slot| match R::STATE_LAYOUT.slots.get(slot) {
                Some(Slot::Sensor { sensor, .. }) => Some(usize::from(*sensor)),
                _ => None,
            })
            .collect();
        sensors.dedup();
        sensors
    }

    /// The name of the component that drives sensor `sensor` (an index into the robot's
    /// `sensors`), or `None` when none does (it reads NaN).
    pub fn sensor_driver(&self, sensor: usize) -> Option<&str> {
        let owner = (*self.sensor_owner.get(sensor)?)?;
        self.members.get(owner).map(|m| m.name.as_str())
    }

    /// Hands torque-off failures to the report this system prints when it is dropped, so that a
    /// loop dropping it reports its failures and the system's in one place.
    pub fn report_when_dropped(&mut self, failures: impl IntoIterator<Item = HardwareError>) {
        self.failed_before_drop.extend(failures);
    }

    /// Sends the report of a drop that had to switch something off, or failed to, to `sink`
    /// instead of stderr: for a supervisor that judges it (`robot chaos`).
    pub fn report_drops_to(&mut self, sink: impl FnMut(&str) + Send + 'static) {
        self.drop_report = Some(Box::new(sink));
    }

    /// The components' names, in order.
    pub fn component_names(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|m| m.name.as_str())
    }

    /// Whether any component is active (may have torque on).
    pub fn any_active(&self) -> bool {
        self.members
            .iter()
            .any(|m| m.lifecycle() == Lifecycle::Active)
    }

    /// Refuses `action` unless every component is in one of `allowed`; names the first that is
    /// not.
    fn expect_each(&self, allowed: &[Lifecycle], action: &str) -> Result<(), HardwareError> {
        match self.states().find(|(_, state)| !allowed.contains(state)) {
            None => Ok(()),
            Some((name, state)) => Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!(
                    "cannot {action}: `{name}` is {state}, not {}",
                    allowed
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            )),
        }
    }

    /// Unconfigured → inactive: `on_configure` of every unconfigured component, in order, up to
    /// the first failure. A failing component stays unconfigured (not cleaned up: upstream's
    /// rule); those configured before it stay inactive, for the caller to clean up or retry.
    pub fn configure(&mut self) -> Result<(), HardwareError> {
        self.expect_each(&[Lifecycle::Unconfigured, Lifecycle::Inactive], "configure")?;
        for member in &mut self.members {
            if member.lifecycle() != Lifecycle::Unconfigured {
                continue;
            }
            member.call("on_configure", |c| c.on_configure())?;
            member.standing = Standing::In(Lifecycle::Inactive);
        }
        Ok(())
    }

    /// Inactive → unconfigured: `on_cleanup` of every inactive component, in reverse order. A
    /// failing one goes through `on_error` (upstream's rule); the first error is returned.
    pub fn cleanup(&mut self) -> Result<(), HardwareError> {
        self.expect_each(&[Lifecycle::Inactive, Lifecycle::Unconfigured], "clean up")?;
        let mut first_error = None;
        for member in self.members.iter_mut().rev() {
            if member.lifecycle() != Lifecycle::Inactive {
                continue;
            }
            match member.call("on_cleanup", |c| c.on_cleanup()) {
                Ok(()) => member.standing = Standing::In(Lifecycle::Unconfigured),
                Err(error) => {
                    let error = member.fail(error);
                    first_error.get_or_insert(error);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Inactive → active, all components or none. Reads the state, seeds every command to a
    /// safe value ([`seed_safe_commands`]), then runs every component's `on_activate`. A failing
    /// component stays inactive (or goes through `on_error` when escalated, or is held active
    /// when [possibly live](HardwareError::possibly_live)), and every active one is deactivated
    /// again: half a robot enabled is not a state to leave it in. What fails to switch off stays
    /// active, for the caller to try again.
    pub fn activate(
        &mut self,
        clock: Clock,
        state: &mut R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        self.expect_each(&[Lifecycle::Inactive], "activate")?;
        self.read(clock, state)?;
        seed_safe_commands::<R>(state, command);
        let mut failed = None;
        for member in &mut self.members {
            match member.call("on_activate", |c| c.on_activate(state, command)) {
                Ok(()) => member.standing = Standing::In(Lifecycle::Active),
                // A component that could not undo its own enabling, or that panicked half-way
                // through it, may be live: switch it off with the others.
                Err(error) if error.is_possibly_live() || error.kind() == ErrorKind::Panicked => {
                    member.standing = Standing::In(Lifecycle::Active);
                    failed = Some(error);
                    break;
                }
                Err(error) if error.is_escalated() => {
                    failed = Some(member.fail(error));
                    break;
                }
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
        }
        let Some(mut error) = failed else {
            return Ok(());
        };
        if self.any_active()
            && let Err(failures) = self.deactivate()
        {
            for failure in failures {
                error = error.then(Recovery::SwitchingOffAgain, failure);
            }
        }
        Err(error)
    }

    /// Active → inactive: `on_deactivate` of every active component, all of them even when one
    /// fails (torque off everywhere matters more than the first error). A component whose
    /// `on_deactivate` fails stays active, as upstream leaves it, so calling this again retries
    /// exactly those; an escalated failure goes through `on_error`. Returns every failure.
    pub fn deactivate(&mut self) -> Result<(), Vec<HardwareError>> {
        if !self.any_active() {
            return Err(vec![HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!("cannot deactivate: the system is {}", self.lifecycle()),
            )]);
        }
        let mut failures = Vec::new();
        for member in &mut self.members {
            if member.lifecycle() != Lifecycle::Active {
                continue;
            }
            let held = member.standing == Standing::HeldActive;
            match member.call("on_deactivate", |c| c.on_deactivate()) {
                // Off; one whose `on_error` failed cannot come back.
                Ok(()) if held => member.standing = Standing::In(Lifecycle::Finalized),
                Ok(()) => member.standing = Standing::In(Lifecycle::Inactive),
                Err(error) if error.is_escalated() && !held => failures.push(member.fail(error)),
                Err(error) => failures.push(error),
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }

    /// Any state → finalized: active components are deactivated first (one that fails to is
    /// left active and not shut down, as upstream's resource manager does), then every
    /// component's `on_shutdown`. Returns every failure.
    pub fn shutdown(&mut self) -> Result<(), Vec<HardwareError>> {
        let mut failures = Vec::new();
        if self.any_active()
            && let Err(errors) = self.deactivate()
        {
            failures.extend(errors);
        }
        for member in &mut self.members {
            let previous = member.lifecycle();
            if matches!(previous, Lifecycle::Active | Lifecycle::Finalized) {
                continue;
            }
            match member.call("on_shutdown", |c| c.on_shutdown(previous)) {
                Ok(()) => member.standing = Standing::In(Lifecycle::Finalized),
                // Upstream's `error()` does nothing from unconfigured.
                Err(error) if previous == Lifecycle::Unconfigured => failures.push(error),
                Err(error) => failures.push(member.fail(error)),
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }

    /// `read` of every inactive or active component. A failing component goes through
    /// `on_error` and the error is returned at once; the caller decides about the others. The
    /// sensors no component claims read NaN.
    pub fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        if !self.members.iter().any(|m| m.lifecycle().reads()) {
            return Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!("cannot read: the system is {}", self.lifecycle()),
            ));
        }
        let values = state.as_mut_slice();
        for &slot in &self.unclaimed {
            if let Some(value) = values.get_mut(slot) {
                *value = f64::NAN;
            }
        }
        for member in &mut self.members {
            if !member.lifecycle().reads() {
                continue;
            }
            if let Err(error) = member.call("read", |c| c.read(clock, state)) {
                return Err(member.fail(error));
            }
        }
        Ok(())
    }

    /// `write` of every active component; nothing at all while inactive (`docs/hardware-lifecycle.md`: see the
    /// real state before enabling anything). A failing component goes through `on_error`.
    pub fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        if !self.members.iter().any(|m| m.lifecycle().reads()) {
            return Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!("cannot write: the system is {}", self.lifecycle()),
            ));
        }
        for member in &mut self.members {
            if member.lifecycle() != Lifecycle::Active {
                continue;
            }
            if let Err(error) = member.call("write", |c| c.write(clock, command)) {
                return Err(member.fail(error));
            }
        }
        Ok(())
    }
}

/// How often dropping a system tries to switch an active component off.
const DROP_TORQUE_OFF_ATTEMPTS: usize = 3;

impl<R: RobotTypes> Drop for System<R> {
    /// Switches off whatever is still active: the last line of defence when a loop or a caller
    /// forgot (or could not) deactivate. Drop has no one to return an error to, so failures go to
    /// stderr, in one report with those of whoever dropped it ([`System::report_when_dropped`]):
    /// how many attempts failed, each distinct failure once, and what is still active.
    fn drop(&mut self) {
        let mut failures = std::mem::take(&mut self.failed_before_drop);
        for _ in 0..DROP_TORQUE_OFF_ATTEMPTS {
            if !self.any_active() {
                break;
            }
            if let Err(more) = self.deactivate() {
                failures.extend(more);
            }
        }
        let still_active: Vec<String> = self
            .states()
            .filter(|(_, state)| *state == Lifecycle::Active)
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        if failures.is_empty() && still_active.is_empty() {
            return;
        }
        let outcome = if still_active.is_empty() {
            "everything is off now".to_string()
        } else {
            format!("STILL ACTIVE: {}", still_active.join(", "))
        };
        let report = format!(
            "dropping the hardware: switching it off failed {} {}: {}; {outcome}",
            failures.len(),
            if failures.len() == 1 { "time" } else { "times" },
            summarize(&failures)
        );
        match &mut self.drop_report {
            Some(sink) => sink(&report),
            None => eprintln!("{report}"),
        }
    }
}
