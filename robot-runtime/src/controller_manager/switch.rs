//! A switch: which controllers to deactivate and activate, checked against the ones active and
//! their claims as ros2_control's `switch_controller` checks them, on the control thread,
//! allocation-free (controllers are bits of a `u64`).
//!
//! The checks, in ros2_control's order: a controller to deactivate must be active; one to
//! activate must be inactive (or be deactivated by the same switch: a restart); and its claims
//! must not collide with those of a controller that stays active or is activated before it
//! (in `controllers.yaml`'s order). Under [`Strictness::Strict`] the first problem refuses the
//! whole switch and nothing changes; under [`Strictness::BestEffort`] the controllers with a
//! problem are left as they are and the rest is done.

use super::claims::Claims;

/// How a switch treats a controller it cannot switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strictness {
    /// Switch what can be switched, leave the rest (`SwitchController.BEST_EFFORT`).
    BestEffort,
    /// All or nothing (`SwitchController.STRICT`).
    #[default]
    Strict,
}

/// Why a controller could not be switched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Asked to deactivate, but it is not active.
    NotActive,
    /// Asked to activate, but it is active already.
    AlreadyActive,
    /// Its claim on command slot `slot` collides with controller `with`'s.
    Collides {
        /// The controller that holds (or takes) the slot.
        with: u8,
        /// The slot.
        slot: u16,
    },
    /// Its `on_activate` refused.
    ActivationRefused,
}

/// One controller a switch left as it was, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem {
    /// The controller's index.
    pub controller: u8,
    /// Why.
    pub why: Why,
}

/// Problems of one switch, in a fixed array: at most one per controller and direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problems {
    list: [Option<Problem>; 128],
}

impl Default for Problems {
    fn default() -> Self {
        Problems { list: [None; 128] }
    }
}

impl Problems {
    pub(crate) fn push(&mut self, problem: Problem) {
        if let Some(free) = self.list.iter_mut().find(|p| p.is_none()) {
            *free = Some(problem);
        }
    }

    /// The problems, in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.list.iter().map_while(Option::as_ref)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list[0].is_none()
    }
}

/// What a checked switch does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Plan {
    pub(crate) deactivate: u64,
    pub(crate) activate: u64,
    /// What best effort left out.
    pub(crate) skipped: Problems,
}

/// Bits set in `mask`, lowest first.
pub(crate) fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| mask & (1 << i) != 0)
}

/// Checks switching `deactivate` off and `activate` on while `active` are, each controller
/// claiming `claims[i]`. `Err`: the first problem of a strict switch.
pub(crate) fn plan(
    mut deactivate: u64,
    mut activate: u64,
    strictness: Strictness,
    active: u64,
    claims: &impl std::ops::Index<usize, Output = Claims>,
) -> Result<Plan, Problem> {
    let mut skipped = Problems::default();
    let mut problem = |controller: usize, why: Why, mask: &mut u64| {
        let problem = Problem {
            controller: controller as u8,
            why,
        };
        match strictness {
            Strictness::Strict => Err(problem),
            Strictness::BestEffort => {
                *mask &= !(1 << controller);
                skipped.push(problem);
                Ok(())
            }
        }
    };
    for i in bits(deactivate) {
        if active & (1 << i) == 0 {
            problem(i, Why::NotActive, &mut deactivate)?;
        }
    }
    for i in bits(activate) {
        if active & !deactivate & (1 << i) != 0 {
            problem(i, Why::AlreadyActive, &mut activate)?;
        }
    }
    let mut holding = active & !deactivate;
    for i in bits(activate) {
        let collision =
            bits(holding).find_map(|j| claims[i].first_shared(&claims[j]).map(|slot| (j, slot)));
        match collision {
            Some((j, slot)) => problem(
                i,
                Why::Collides {
                    with: j as u8,
                    slot: u16::try_from(slot).unwrap_or(u16::MAX),
                },
                &mut activate,
            )?,
            None => holding |= 1 << i,
        }
    }
    Ok(Plan {
        deactivate,
        activate,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0: trajectory over slots 0-1; 1: forward position over slot 0; 2: another joint, slot 2.
    fn claims() -> Vec<Claims> {
        vec![
            Claims::of_slots([0, 1], 3).unwrap(),
            Claims::of_slots([0], 3).unwrap(),
            Claims::of_slots([2], 3).unwrap(),
        ]
    }

    #[test]
    fn a_switch_from_one_controller_to_another_of_the_same_joints_is_planned() {
        let plan = plan(0b001, 0b010, Strictness::Strict, 0b001, &claims()).unwrap();
        assert_eq!((plan.deactivate, plan.activate), (0b001, 0b010));
        assert!(plan.skipped.is_empty());
    }

    #[test]
    fn a_colliding_activation_is_refused_when_strict_and_skipped_at_best_effort() {
        let strict = plan(0, 0b110, Strictness::Strict, 0b001, &claims());
        assert_eq!(
            strict,
            Err(Problem {
                controller: 1,
                why: Why::Collides { with: 0, slot: 0 }
            })
        );
        let best = plan(0, 0b110, Strictness::BestEffort, 0b001, &claims()).unwrap();
        assert_eq!((best.deactivate, best.activate), (0, 0b100));
        let skipped: Vec<_> = best.skipped.iter().copied().collect();
        assert_eq!(
            skipped,
            [Problem {
                controller: 1,
                why: Why::Collides { with: 0, slot: 0 }
            }]
        );
    }

    #[test]
    fn two_activations_that_collide_with_each_other_are_caught() {
        let strict = plan(0, 0b011, Strictness::Strict, 0, &claims());
        assert!(matches!(
            strict,
            Err(Problem {
                controller: 1,
                why: Why::Collides { with: 0, .. }
            })
        ));
    }

    #[test]
    fn deactivating_an_inactive_one_and_activating_an_active_one_are_problems() {
        let strict = plan(0b100, 0, Strictness::Strict, 0b001, &claims());
        assert_eq!(
            strict.unwrap_err().why,
            Why::NotActive,
            "deactivating an inactive controller"
        );
        let strict = plan(0, 0b001, Strictness::Strict, 0b001, &claims());
        assert_eq!(strict.unwrap_err().why, Why::AlreadyActive);
        // A restart: deactivated and activated by one switch.
        let restart = plan(0b001, 0b001, Strictness::Strict, 0b001, &claims()).unwrap();
        assert_eq!((restart.deactivate, restart.activate), (0b001, 0b001));
        let best = plan(0b100, 0b001, Strictness::BestEffort, 0b001, &claims()).unwrap();
        assert_eq!((best.deactivate, best.activate), (0, 0));
        assert_eq!(best.skipped.iter().count(), 2);
    }
}
