//! A controller manager, as ros2_control's: several controllers at once, each claiming the
//! command interfaces it writes, switched between two cycles.
//!
//! * [`controller_manager`] loads them ([`Managed`]: a name, a type, its [`Claims`] and whether
//!   it starts active); two that would start active with a shared claim are refused when
//!   loaded ([`LoadError::Collision`]), not left to fight at run time.
//! * The [`ControllerManager`] is the control loop's [`Controller`](crate::control_loop::Controller).
//!   Each controller writes into a command of its own; only its claimed slots are copied into
//!   the loop's, so a controller cannot move what it did not claim.
//! * The [`ManagerHandle`] lists them and switches them from any thread
//!   ([`ManagerHandle::switch`]): the control thread checks the switch at the start of its next
//!   update (a controller to deactivate must be active, one to activate inactive, and its
//!   claims free; [`Strictness`] says what a problem does), then carries it out at once: the
//!   outgoing controllers' joints hold where they are measured (position held, at rest, as
//!   joint_trajectory_controller's `on_deactivate` leaves them), the incoming ones start from
//!   there (their command seeded from the current state, then their `on_activate`), all before
//!   that cycle's write.
//!
//! * A [`TypedController`] has its claims in its type ([`JointSet`]: each bus of a `robot!`
//!   robot is one), and the view it is handed has fields for those joints only: writing one it
//!   did not claim does not compile, where ros2_control finds out at run time.
//!
//! Nothing of this allocates, locks or waits on the control thread.

mod claims;
mod handle;
mod manager;
mod switch;
mod typed;

pub use claims::{Claims, slot_name};
pub use handle::{
    ControllerInfo, ControllerStatus, DEFAULT_SWITCH_TIMEOUT, LoadError, MAX_CONTROLLERS,
    ManagerHandle, SwitchAnswer, controller_manager,
};
pub use manager::{ControllerManager, Managed};
pub use switch::{Problem, Problems, Strictness, Why};
pub use typed::{JointSet, Typed, TypedController, WholeRobot};
