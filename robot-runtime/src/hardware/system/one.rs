//! One component of a running system, alone: what it drives, and its lifecycle switched while
//! the others go on (ros2_control's `set_hardware_component_state`).

use super::{Lifecycle, SYSTEM, Standing, System};
use crate::hardware::component::Claims;
use crate::hardware::error::{ErrorKind, HardwareError, Recovery};
use crate::hardware::seed::seed_safe_slots;
use crate::typed::RobotTypes;

impl<R: RobotTypes> System<R> {
    /// How many components.
    pub fn component_count(&self) -> usize {
        self.members.len()
    }

    /// What component `index` drives.
    pub fn claims_of(&self, index: usize) -> Option<&Claims> {
        self.members.get(index).map(|m| &m.claims)
    }

    /// The command slots of component `index`'s joints (empty for a sensor's).
    pub fn command_slots_of(&self, index: usize) -> &[usize] {
        self.members.get(index).map_or(&[], |m| &m.commands)
    }

    /// Component `index` alone, inactive → active, the others as they are (ros2_control's
    /// `set_hardware_component_state` to active): its commands seeded safe from `state`
    /// ([`seed_safe_slots`]: its joints hold where they are, at zero torque), then its
    /// `on_activate`. On a failure it is left as [`System::activate`] leaves a failing
    /// component, and one that may be live is switched off again.
    pub fn activate_component(
        &mut self,
        index: usize,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        let Some(member) = self.members.get_mut(index) else {
            return Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!("no component #{index}"),
            ));
        };
        if member.lifecycle() != Lifecycle::Inactive {
            return Err(HardwareError::new(
                &member.name,
                ErrorKind::Lifecycle,
                format!(
                    "cannot activate: it is {}, not inactive",
                    member.lifecycle()
                ),
            ));
        }
        seed_safe_slots::<R>(state, command, member.commands.iter().copied());
        match member.call("on_activate", |c| c.on_activate(state, command)) {
            Ok(()) => {
                member.standing = Standing::In(Lifecycle::Active);
                Ok(())
            }
            Err(error) if error.is_possibly_live() || error.kind() == ErrorKind::Panicked => {
                member.standing = Standing::In(Lifecycle::Active);
                match self.deactivate_component(index) {
                    Ok(()) => Err(error),
                    Err(failure) => Err(error.then(Recovery::SwitchingOffAgain, failure)),
                }
            }
            Err(error) if error.is_escalated() => Err(member.fail(error)),
            Err(error) => Err(error),
        }
    }

    /// Component `index` alone, active → inactive (torque off), the others as they are. A
    /// failure leaves it as [`System::deactivate`] leaves a failing component: active, to try
    /// again, or through `on_error` when escalated.
    pub fn deactivate_component(&mut self, index: usize) -> Result<(), HardwareError> {
        let Some(member) = self.members.get_mut(index) else {
            return Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!("no component #{index}"),
            ));
        };
        if member.lifecycle() != Lifecycle::Active {
            return Ok(());
        }
        let held = member.standing == Standing::HeldActive;
        match member.call("on_deactivate", |c| c.on_deactivate()) {
            Ok(()) if held => member.standing = Standing::In(Lifecycle::Finalized),
            Ok(()) => member.standing = Standing::In(Lifecycle::Inactive),
            Err(error) if error.is_escalated() && !held => return Err(member.fail(error)),
            Err(error) => return Err(error),
        }
        Ok(())
    }
}
