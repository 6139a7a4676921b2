//! The control thread's side: the controllers, which are active, and the command each one
//! writes; one switch at most per cycle, taken at the start of the cycle's update.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::claims::Claims;
use super::handle::{Done, Shared};
use super::switch::{self, Plan, Problem, Strictness, Why, bits};
use crate::InterfaceKind;
use crate::control_loop::{Controller, ControllerError};
use crate::hardware::Clock;
use crate::typed::{RobotTypes, Slot, Values};

/// One controller the manager runs, as it is loaded.
pub struct Managed<R: RobotTypes> {
    /// Its name (`left_leg_trajectory_controller`), unique among the manager's.
    pub name: String,
    /// Its type, as `controllers.yaml` gives it
    /// (`joint_trajectory_controller/JointTrajectoryController`).
    pub kind: String,
    /// The command slots it writes: only these reach the hardware from it.
    pub claims: Claims,
    /// The state interfaces it reads (`left_knee_pitch/position`), for `list_controllers`.
    pub reads: Vec<String>,
    /// Whether it is active when the hardware is first activated.
    pub active: bool,
    /// The controller.
    pub controller: Box<dyn Controller<R>>,
}

impl<R: RobotTypes> std::fmt::Debug for Managed<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Managed")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("claims", &self.claims.slots())
            .field("active", &self.active)
            .finish_non_exhaustive()
    }
}

/// One loaded controller on the control thread.
struct Entry<R: RobotTypes> {
    controller: Box<dyn Controller<R>>,
    claims: Claims,
    /// What it writes, its own: its claimed slots are copied into the loop's command after
    /// each update.
    command: R::Command,
}

/// What a command slot becomes when the controller that wrote it lets go and none takes it: a
/// joint holds where it is measured (JTC's `on_deactivate`), at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hold {
    /// The measured position, from this state slot.
    Measured(usize),
    /// Zero (velocity, acceleration).
    Zero,
    /// As it was (effort, stiffness, damping: the servo it was).
    Keep,
}

/// Runs several controllers at once, each writing only the command slots it claims, and
/// switches them between cycles. It is the loop's [`Controller`]; its [`ManagerHandle`] is how
/// other threads list and switch them.
///
/// [`ManagerHandle`]: super::ManagerHandle
pub struct ControllerManager<R: RobotTypes> {
    entries: Vec<Entry<R>>,
    /// Bit `i`: controller `i` is active (or will be when the hardware is).
    active: u64,
    hold: Vec<Hold>,
    shared: Arc<Shared>,
    done: rtrb::Producer<Done>,
}

impl<R: RobotTypes> std::fmt::Debug for ControllerManager<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControllerManager")
            .field("controllers", &self.shared.controllers)
            .field("active", &format_args!("{:#b}", self.active))
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> ControllerManager<R> {
    pub(super) fn new(
        controllers: Vec<Managed<R>>,
        shared: Arc<Shared>,
        done: rtrb::Producer<Done>,
    ) -> Self {
        let active = (controllers.iter().enumerate())
            .filter(|(_, c)| c.active)
            .fold(0u64, |mask, (i, _)| mask | 1 << i);
        shared.active.store(active, Ordering::Release);
        let hold = (R::COMMAND_LAYOUT.slots.iter())
            .map(|slot| match *slot {
                Slot::Joint {
                    joint,
                    kind: InterfaceKind::Position,
                } => R::STATE_LAYOUT
                    .joint_slot(usize::from(joint), InterfaceKind::Position)
                    .map_or(Hold::Keep, Hold::Measured),
                Slot::Joint {
                    kind: InterfaceKind::Velocity | InterfaceKind::Acceleration,
                    ..
                } => Hold::Zero,
                _ => Hold::Keep,
            })
            .collect();
        ControllerManager {
            entries: (controllers.into_iter())
                .map(|c| Entry {
                    controller: c.controller,
                    claims: c.claims,
                    command: R::Command::default(),
                })
                .collect(),
            active,
            hold,
            shared,
            done,
        }
    }

    /// Which controllers are active, bit `i` for controller `i` in load order.
    pub fn active(&self) -> u64 {
        self.active
    }

    /// Slot `slot` of `command` held ([`Hold`]). Allocates nothing.
    fn hold(&self, slot: usize, state: &[f64], command: &mut [f64]) {
        match self.hold[slot] {
            Hold::Measured(s) => {
                if let Some(p) = state.get(s).copied().filter(|p| p.is_finite()) {
                    command[slot] = p;
                }
            }
            Hold::Zero => command[slot] = 0.0,
            Hold::Keep => {}
        }
    }

    /// Controller `i` takes over from `command`: its own command starts as the loop's, its
    /// claimed slots held where the joints are ([`Hold`]), then its `on_activate`; what it
    /// claims goes into the loop's command.
    fn start(
        &mut self,
        i: usize,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let mut own = *command;
        for &slot in self.entries[i].claims.slots() {
            self.hold(slot, state.as_slice(), own.as_mut_slice());
        }
        let entry = &mut self.entries[i];
        entry.command = own;
        entry
            .controller
            .on_activate(clock, state, &mut entry.command)?;
        let (from, to) = (entry.command.as_slice(), command.as_mut_slice());
        for &slot in entry.claims.slots() {
            to[slot] = from[slot];
        }
        Ok(())
    }

    /// Controller `i` lets go: its `on_deactivate`, then the slots it claimed held (an incoming
    /// controller of the same switch then takes them over from there).
    fn stop(&mut self, i: usize, clock: Clock, state: &R::State, command: &mut R::Command) {
        self.entries[i].controller.on_deactivate(clock, state);
        for index in 0..self.entries[i].claims.slots().len() {
            let slot = self.entries[i].claims.slots()[index];
            self.hold(slot, state.as_slice(), command.as_mut_slice());
        }
    }

    /// Carries out a checked switch: the outgoing controllers first, then the incoming ones. An
    /// incoming one that refuses stays inactive; under a strict switch, so do the others it
    /// came with (ros2_control deactivates them again).
    fn carry_out(
        &mut self,
        plan: &Plan,
        strictness: Strictness,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
        refusal: &mut Option<(u8, ControllerError)>,
    ) -> Result<(), Problem> {
        for i in bits(plan.deactivate) {
            self.stop(i, clock, state, command);
            self.active &= !(1 << i);
        }
        let mut started = 0u64;
        for i in bits(plan.activate) {
            match self.start(i, clock, state, command) {
                Ok(()) => {
                    started |= 1 << i;
                    self.active |= 1 << i;
                }
                Err(error) if strictness == Strictness::BestEffort => {
                    refusal.get_or_insert((i as u8, error));
                }
                Err(error) => {
                    *refusal = Some((i as u8, error));
                    for j in bits(started) {
                        self.stop(j, clock, state, command);
                        self.active &= !(1 << j);
                    }
                    // It held nothing yet: what it would have claimed is held.
                    for index in 0..self.entries[i].claims.slots().len() {
                        let slot = self.entries[i].claims.slots()[index];
                        self.hold(slot, state.as_slice(), command.as_mut_slice());
                    }
                    return Err(Problem {
                        controller: i as u8,
                        why: Why::ActivationRefused,
                    });
                }
            }
        }
        Ok(())
    }

    /// Takes the switch waiting, if any, checks it and carries it out. Allocates nothing.
    fn take_switch(&mut self, clock: Clock, state: &R::State, command: &mut R::Command) {
        let Some(request) = self.shared.take_request() else {
            return;
        };
        // The first refusal's reason, moved to the asker (no allocation here).
        let mut refusal = None;
        let planned = switch::plan(
            request.deactivate,
            request.activate,
            request.strictness,
            self.active,
            &self.claims_view(),
        );
        let outcome = match planned {
            Ok(plan) => {
                let mut skipped = plan.skipped;
                let carried = self.carry_out(
                    &plan,
                    request.strictness,
                    clock,
                    state,
                    command,
                    &mut refusal,
                );
                if request.strictness == Strictness::BestEffort {
                    for i in bits(plan.activate & !self.active) {
                        skipped.push(Problem {
                            controller: i as u8,
                            why: Why::ActivationRefused,
                        });
                    }
                }
                carried.map(|()| skipped)
            }
            Err(problem) => Err(problem),
        };
        self.shared.active.store(self.active, Ordering::Release);
        let _ = self.done.push(Done {
            id: request.id,
            outcome,
            refusal,
        });
    }

    /// Every controller's claims, borrowed in order. The entries' claims live as long as the
    /// manager, so this slice is only a view (no allocation: see [`ClaimsView`]).
    fn claims_view(&self) -> ClaimsView<'_, R> {
        ClaimsView(&self.entries)
    }
}

/// The entries' claims, indexable as `switch::plan` wants them.
struct ClaimsView<'a, R: RobotTypes>(&'a [Entry<R>]);

impl<R: RobotTypes> std::ops::Index<usize> for ClaimsView<'_, R> {
    type Output = Claims;
    fn index(&self, i: usize) -> &Claims {
        &self.0[i].claims
    }
}

impl<R: RobotTypes> Controller<R> for ControllerManager<R> {
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        for i in bits(self.active) {
            if let Err(error) = self.start(i, clock, state, command) {
                let name = &self.shared.controllers[i].name;
                return Err(ControllerError::new(format!(
                    "controller `{name}` refused to activate: {error}"
                )));
            }
        }
        self.shared.running.store(true, Ordering::Release);
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.take_switch(clock, state, command);
        for i in bits(self.active) {
            let entry = &mut self.entries[i];
            if let Err(error) = entry.controller.update(clock, state, &mut entry.command) {
                let name = &self.shared.controllers[i].name;
                return Err(ControllerError::new(format!(
                    "controller `{name}`: {error}"
                )));
            }
            let (from, to) = (entry.command.as_slice(), command.as_mut_slice());
            for &slot in entry.claims.slots() {
                to[slot] = from[slot];
            }
        }
        Ok(())
    }

    fn on_deactivate(&mut self, clock: Clock, state: &R::State) {
        self.shared.running.store(false, Ordering::Release);
        for i in bits(self.active) {
            self.entries[i].controller.on_deactivate(clock, state);
        }
    }
}
