//! Safe commands for the moment of activation.

use crate::interface::InterfaceKind;
use crate::typed::{RobotTypes, Slot, Values};

/// Seeds every command to a value that makes no joint move when the hardware is enabled: the
/// position command takes the measured position (NaN, no command, where there is none), velocity,
/// acceleration, feed-forward effort and current are zero, and the MIT gains are zero, so the law
/// `τ = stiffness·(q* − q) + damping·(v* − v) + τ_ff` starts at zero torque. A controller's own
/// `on_activate` then takes over from there.
///
/// Allocation-free: it walks the layouts.
pub fn seed_safe_commands<R: RobotTypes>(state: &R::State, command: &mut R::Command) {
    seed_safe_slots::<R>(state, command, 0..R::COMMAND_LAYOUT.len());
}

/// [`seed_safe_commands`] for the command slots `slots` only (one component's, when it alone is
/// activated). Allocation-free.
pub fn seed_safe_slots<R: RobotTypes>(
    state: &R::State,
    command: &mut R::Command,
    slots: impl IntoIterator<Item = usize>,
) {
    let states = state.as_slice();
    let commands = command.as_mut_slice();
    for index in slots {
        let (Some(slot), Some(value)) =
            (R::COMMAND_LAYOUT.slots.get(index), commands.get_mut(index))
        else {
            continue;
        };
        let Slot::Joint { joint, kind } = *slot else {
            continue;
        };
        *value = match kind {
            // Without a measured position there is nothing safe to hold: no command (NaN), never a
            // stale target a previous controller left behind.
            InterfaceKind::Position => {
                match R::STATE_LAYOUT.joint_slot(usize::from(joint), InterfaceKind::Position) {
                    Some(s) => states[s],
                    None => f64::NAN,
                }
            }
            InterfaceKind::Velocity
            | InterfaceKind::Acceleration
            | InterfaceKind::Effort
            | InterfaceKind::Current
            | InterfaceKind::Stiffness
            | InterfaceKind::Damping => 0.0,
            InterfaceKind::Temperature => *value,
        };
    }
}
