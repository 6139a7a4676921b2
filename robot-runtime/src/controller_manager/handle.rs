//! The other threads' side: the controllers as loaded, which are active, and switches asked
//! for and waited on. The control thread never locks: a switch goes to it through atomics and
//! its outcome comes back through a wait-free ring; only switches wait on each other here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::claims::{Claims, slot_name};
use super::manager::{ControllerManager, Managed};
use super::switch::{Problem, Problems, Strictness, Why, bits};
use crate::typed::RobotTypes;

/// The most controllers one manager runs (a switch is a `u64` of them).
pub const MAX_CONTROLLERS: usize = 64;

/// How long a switch waits for the control thread when the request gives no timeout: one
/// second, ros2_control's default.
pub const DEFAULT_SWITCH_TIMEOUT: Duration = Duration::from_secs(1);

/// A loaded controller, as `list_controllers` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerInfo {
    /// Its name.
    pub name: String,
    /// Its type.
    pub kind: String,
    /// The command interfaces it claims (`left_knee_pitch/position`).
    pub claims: Vec<String>,
    /// The state interfaces it reads.
    pub reads: Vec<String>,
}

/// A controller and whether it is active now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerStatus {
    /// What it is.
    pub info: ControllerInfo,
    /// Whether it is active (it runs whenever the hardware does).
    pub active: bool,
}

/// A switch waiting for the control thread.
#[derive(Debug, Clone, Copy)]
pub(super) struct Request {
    pub(super) id: u64,
    pub(super) activate: u64,
    pub(super) deactivate: u64,
    pub(super) strictness: Strictness,
}

/// A switch's outcome, from the control thread.
pub(super) struct Done {
    pub(super) id: u64,
    /// What best effort left out, or why a strict switch was refused.
    pub(super) outcome: Result<Problems, Problem>,
    /// The first incoming controller that refused, and why.
    pub(super) refusal: Option<(u8, crate::control_loop::ControllerError)>,
}

/// What both sides share.
#[derive(Debug)]
pub(super) struct Shared {
    pub(super) controllers: Vec<ControllerInfo>,
    /// Bit per controller, as the control thread last left them.
    pub(super) active: AtomicU64,
    /// Whether the control thread updates the manager (the hardware is active).
    pub(super) running: AtomicBool,
    /// The id of the switch waiting, 0 for none: whoever swaps it to 0 owns it (the control
    /// thread to carry it out, the asker to withdraw it).
    pending: AtomicU64,
    activate: AtomicU64,
    deactivate: AtomicU64,
    strict: AtomicBool,
    next_id: AtomicU64,
    /// The asker's end of the outcomes; held through a switch, so switches go one at a time.
    done: Mutex<rtrb::Consumer<Done>>,
}

impl std::fmt::Debug for Done {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Done({})", self.id)
    }
}

impl Shared {
    /// The switch waiting, now the control thread's. Allocates nothing.
    pub(super) fn take_request(&self) -> Option<Request> {
        let id = self.pending.load(Ordering::Acquire);
        if id == 0 {
            return None;
        }
        let request = Request {
            id,
            activate: self.activate.load(Ordering::Relaxed),
            deactivate: self.deactivate.load(Ordering::Relaxed),
            strictness: match self.strict.load(Ordering::Relaxed) {
                true => Strictness::Strict,
                false => Strictness::BestEffort,
            },
        };
        // Read before taken: the asker writes the next request only after this one is taken
        // or withdrawn, so a request read here and then taken is whole.
        (self.pending)
            .compare_exchange(id, 0, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| request)
    }
}

/// Why a set of controllers cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// More than [`MAX_CONTROLLERS`].
    #[error("{count} controllers: a controller manager runs at most {MAX_CONTROLLERS}")]
    TooMany {
        /// How many were given.
        count: usize,
    },
    /// Two with one name.
    #[error("two controllers are named `{0}`")]
    Duplicate(String),
    /// Two to be active at once that claim the same command interface: refused when loaded, not
    /// left to fight at run time.
    #[error(
        "controllers `{first}` and `{second}` both claim `{interface}`: they cannot be active \
         together (activate one, switch to the other)"
    )]
    Collision {
        /// The first, in load order.
        first: String,
        /// The second.
        second: String,
        /// The interface both claim.
        interface: String,
    },
}

/// The manager of `controllers` (in load order: `controllers.yaml`'s), for the control loop,
/// and its handle. Those marked active start with the hardware.
pub fn controller_manager<R: RobotTypes>(
    controllers: Vec<Managed<R>>,
) -> Result<(ControllerManager<R>, ManagerHandle), LoadError> {
    if controllers.len() > MAX_CONTROLLERS {
        return Err(LoadError::TooMany {
            count: controllers.len(),
        });
    }
    for (i, c) in controllers.iter().enumerate() {
        if controllers[..i].iter().any(|other| other.name == c.name) {
            return Err(LoadError::Duplicate(c.name.clone()));
        }
        let mut active = controllers[..i].iter().filter(|o| o.active && c.active);
        if let Some((other, slot)) =
            active.find_map(|o| o.claims.first_shared(&c.claims).map(|s| (o, s)))
        {
            return Err(LoadError::Collision {
                first: other.name.clone(),
                second: c.name.clone(),
                interface: slot_name::<R>(slot),
            });
        }
    }
    let (producer, consumer) = rtrb::RingBuffer::new(4);
    let shared = Arc::new(Shared {
        controllers: (controllers.iter())
            .map(|c| ControllerInfo {
                name: c.name.clone(),
                kind: c.kind.clone(),
                claims: c.claims.names::<R>(),
                reads: c.reads.clone(),
            })
            .collect(),
        active: AtomicU64::new(0),
        running: AtomicBool::new(false),
        pending: AtomicU64::new(0),
        activate: AtomicU64::new(0),
        deactivate: AtomicU64::new(0),
        strict: AtomicBool::new(true),
        next_id: AtomicU64::new(1),
        done: Mutex::new(consumer),
    });
    let claims: Vec<Claims> = controllers.iter().map(|c| c.claims.clone()).collect();
    let manager = ControllerManager::new(controllers, Arc::clone(&shared), producer);
    Ok((
        manager,
        ManagerHandle {
            shared,
            claims,
            last_problem: Arc::default(),
        },
    ))
}

/// How other threads see and switch the controllers of a running [`ControllerManager`].
#[derive(Debug, Clone)]
pub struct ManagerHandle {
    shared: Arc<Shared>,
    claims: Vec<Claims>,
    /// The last switch that was refused or left something out, and what it said.
    last_problem: Arc<Mutex<Option<String>>>,
}

/// Two handles are equal when they are of one manager.
impl PartialEq for ManagerHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

/// A switch's answer, as `switch_controller` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchAnswer {
    /// Whether it was done (under best effort: what could be done was).
    pub ok: bool,
    /// Why not, or what was left out; empty when all went as asked.
    pub message: String,
}

impl ManagerHandle {
    /// Every controller and whether it is active, in load order.
    pub fn controllers(&self) -> Vec<ControllerStatus> {
        let active = self.shared.active.load(Ordering::Acquire);
        (self.shared.controllers.iter().enumerate())
            .map(|(i, info)| ControllerStatus {
                info: info.clone(),
                active: active & (1 << i) != 0,
            })
            .collect()
    }

    /// The index (load order) of controller `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.shared.controllers.iter().position(|c| c.name == name)
    }

    /// Whether controller `index` is active now (one atomic load).
    pub fn is_active(&self, index: usize) -> bool {
        index < 64 && self.shared.active.load(Ordering::Acquire) & (1 << index) != 0
    }

    /// Whether the hardware is active, so that a switch would be carried out.
    pub fn running(&self) -> bool {
        self.shared.running.load(Ordering::Acquire)
    }

    /// The command interfaces active controllers hold.
    pub fn claimed(&self) -> Vec<String> {
        let active = self.shared.active.load(Ordering::Acquire);
        (bits(active))
            .flat_map(|i| self.shared.controllers[i].claims.iter().cloned())
            .collect()
    }

    /// What the last switch that was refused, or left something out, said (for `/diagnostics`).
    pub fn last_problem(&self) -> Option<String> {
        self.last_problem
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Deactivates `deactivate` and activates `activate` between two cycles, as
    /// `switch_controller` does, waiting at most `timeout` for the control thread (zero: one
    /// second). An unknown name is refused (strict) or left out (best effort).
    pub fn switch(
        &self,
        activate: &[String],
        deactivate: &[String],
        strictness: Strictness,
        timeout: Duration,
    ) -> SwitchAnswer {
        let answer = self.switch_unrecorded(activate, deactivate, strictness, timeout);
        if !answer.ok || !answer.message.is_empty() {
            *self
                .last_problem
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(answer.message.clone());
        }
        answer
    }

    fn switch_unrecorded(
        &self,
        activate: &[String],
        deactivate: &[String],
        strictness: Strictness,
        timeout: Duration,
    ) -> SwitchAnswer {
        let mut notes = Vec::new();
        let [mut deactivate_mask, mut activate_mask] = [0u64; 2];
        for (names, mask, verb) in [
            (deactivate, &mut deactivate_mask, "deactivate"),
            (activate, &mut activate_mask, "activate"),
        ] {
            for name in names {
                match self.shared.controllers.iter().position(|c| c.name == *name) {
                    Some(i) => *mask |= 1 << i,
                    None => {
                        let note = format!(
                            "Could not {verb} controller with name '{name}' because no \
                             controller with this name exists"
                        );
                        if strictness == Strictness::Strict {
                            return refused(note);
                        }
                        notes.push(note);
                    }
                }
            }
        }
        let (deactivate, activate) = (deactivate_mask, activate_mask);
        if deactivate == 0 && activate == 0 {
            let nothing_valid = !notes.is_empty();
            notes.push(
                "After checking the controllers, no controllers need to be activated or \
                 deactivated."
                    .to_string(),
            );
            return SwitchAnswer {
                ok: !nothing_valid,
                message: notes.join("\n"),
            };
        }
        let mut done = self
            .shared
            .done
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !self.running() {
            return refused(
                "the hardware is not active: controllers are switched between the cycles of an \
                 active loop"
                    .to_string(),
            );
        }
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let shared = &self.shared;
        shared.activate.store(activate, Ordering::Relaxed);
        shared.deactivate.store(deactivate, Ordering::Relaxed);
        let strict = strictness == Strictness::Strict;
        shared.strict.store(strict, Ordering::Relaxed);
        shared.pending.store(id, Ordering::Release);
        let timeout = if timeout.is_zero() {
            DEFAULT_SWITCH_TIMEOUT
        } else {
            timeout
        };
        let started = Instant::now();
        let mut withdrawn = false;
        loop {
            while let Ok(reply) = done.pop() {
                if reply.id == id {
                    return self.answer(reply, notes, activate);
                }
            }
            if !withdrawn && started.elapsed() > timeout {
                let taken = (shared.pending)
                    .compare_exchange(id, 0, Ordering::AcqRel, Ordering::Acquire)
                    .is_err();
                if !taken {
                    return refused(format!(
                        "the control loop did not take the switch within {timeout:?}; nothing \
                         was switched"
                    ));
                }
                // Taken already: its outcome is a cycle away.
                withdrawn = true;
            }
            if withdrawn && started.elapsed() > timeout * 2 + Duration::from_secs(1) {
                return refused(
                    "the control loop took the switch but did not say how it went".to_string(),
                );
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The answer to a switch the control thread carried out or refused.
    fn answer(&self, done: Done, mut notes: Vec<String>, activate: u64) -> SwitchAnswer {
        let explain = |problem: &Problem| {
            let said = self.explain(problem, activate);
            match &done.refusal {
                Some((i, why))
                    if *i == problem.controller && problem.why == Why::ActivationRefused =>
                {
                    format!("{said}: {why}")
                }
                _ => said,
            }
        };
        match &done.outcome {
            Ok(skipped) => {
                notes.extend(skipped.iter().map(explain));
                SwitchAnswer {
                    ok: true,
                    message: notes.join("\n"),
                }
            }
            Err(problem) => refused(format!(
                "{}; nothing was switched (STRICT)",
                explain(problem)
            )),
        }
    }

    /// A problem in ros2_control's words.
    fn explain(&self, problem: &Problem, activate: u64) -> String {
        let name = |i: u8| &self.shared.controllers[usize::from(i)].name;
        let this = name(problem.controller);
        match problem.why {
            Why::NotActive => {
                format!("Could not deactivate controller '{this}' since it is not active")
            }
            Why::AlreadyActive => {
                format!("Could not activate controller '{this}' since it is already active")
            }
            Why::Collides { with, slot } => {
                let interface = self.claims[usize::from(with)]
                    .slots()
                    .iter()
                    .position(|s| *s == usize::from(slot))
                    .map(|k| self.shared.controllers[usize::from(with)].claims[k].clone())
                    .unwrap_or_else(|| format!("slot {slot}"));
                let other = name(with);
                if activate & (1 << with) != 0 {
                    format!(
                        "Unable to activate controller '{this}' since the command interface \
                         '{interface}' will be used by another controller that is being \
                         activated ('{other}')"
                    )
                } else {
                    format!(
                        "Unable to activate controller '{this}' since the command interface \
                         '{interface}' is currently claimed by another controller ('{other}')"
                    )
                }
            }
            Why::ActivationRefused => {
                format!("Controller '{this}' refused to activate, it stays inactive")
            }
        }
    }
}

fn refused(message: String) -> SwitchAnswer {
    SwitchAnswer { ok: false, message }
}
