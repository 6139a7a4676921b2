//! Claims in a controller's type. `robot!` makes each bus of a robot a [`JointSet`]
//! (`lite_biped::LeftLegBus`), whose view (`LeftLegBusCommand`) has a field for each of that
//! bus's joints and no other, each named controller group (`controller arm { joints: [..] }`:
//! `ArmGroup`, view `ArmGroupCommand`), and each side of a limb (`LeftLeg`: that side's
//! `LegCommand`, so one controller type generic over the side serves every side); a [`TypedController`] names the set it claims, and is handed only
//! that view. Writing a joint it did not claim does not compile:
//!
//! ```text
//! impl TypedController<LiteBiped> for LeftKnee {
//!     type Claims = lite_biped::LeftLegBus;
//!     fn update(&mut self, clock: Clock, state: &LiteBipedState,
//!               command: LeftLegBusCommand<'_>) -> Result<(), ControllerError> {
//!         command.left_knee_pitch.position = 0.3;  // claimed
//!         command.right_knee_pitch.position = 0.3; // error[E0609]: no field `right_knee_pitch`
//!         Ok(())
//!     }
//! }
//! ```
//!
//! (`robot-macros/tests/ui/fail/unclaimed-write.rs` is that error, checked by trybuild.)
//!
//! The manager checks the same claims at run time ([`Managed::typed`]: the command slots of
//! the set's joints), as it does for every controller.

use std::marker::PhantomData;

use super::claims::Claims;
use super::manager::Managed;
use crate::control_loop::{Controller, ControllerError};
use crate::hardware::Clock;
use crate::typed::RobotTypes;

/// A set of joints of robot `R` a controller may claim, with the view of their commands it is
/// handed. `robot!` implements it for each bus; [`WholeRobot`] is every joint.
pub trait JointSet<R: RobotTypes>: 'static {
    /// The commands of these joints and no other, borrowed from the robot's command.
    type View<'a>;
    /// Their names.
    const JOINTS: &'static [&'static str];
    /// The view of `command`.
    fn view(command: &mut R::Command) -> Self::View<'_>;
}

/// Every joint of the robot: the whole command.
#[derive(Debug, Clone, Copy, Default)]
pub struct WholeRobot;

impl<R: RobotTypes> JointSet<R> for WholeRobot {
    type View<'a> = &'a mut R::Command;
    const JOINTS: &'static [&'static str] = &[];
    fn view(command: &mut R::Command) -> Self::View<'_> {
        command
    }
}

/// A controller whose claims are in its type: it is handed the view of the joints it claims.
/// Like [`Controller`], every method runs on the control thread and must not allocate, block or
/// lock.
pub trait TypedController<R: RobotTypes>: Send + 'static {
    /// The joints it commands.
    type Claims: JointSet<R>;

    /// When it is activated (the manager seeded its joints where they are).
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: <Self::Claims as JointSet<R>>::View<'_>,
    ) -> Result<(), ControllerError> {
        let _ = (clock, state, command);
        Ok(())
    }

    /// One step.
    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: <Self::Claims as JointSet<R>>::View<'_>,
    ) -> Result<(), ControllerError>;

    /// When it is deactivated.
    fn on_deactivate(&mut self, clock: Clock, state: &R::State) {
        let _ = (clock, state);
    }
}

/// A [`TypedController`] as a [`Controller`] of the whole command, handing it its view: how the
/// manager runs one, and how one runs alone.
pub struct Typed<R: RobotTypes, C: TypedController<R>> {
    controller: C,
    _robot: PhantomData<fn() -> R>,
}

impl<R: RobotTypes, C: TypedController<R>> std::fmt::Debug for Typed<R, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Typed<{}>", std::any::type_name::<C>())
    }
}

impl<R: RobotTypes, C: TypedController<R>> Typed<R, C> {
    /// `controller`, as a controller of the whole command.
    pub fn new(controller: C) -> Self {
        Typed {
            controller,
            _robot: PhantomData,
        }
    }

    /// The typed controller.
    pub fn inner(&self) -> &C {
        &self.controller
    }
}

impl<R: RobotTypes, C: TypedController<R>> Controller<R> for Typed<R, C> {
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.controller
            .on_activate(clock, state, C::Claims::view(command))
    }

    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.controller
            .update(clock, state, C::Claims::view(command))
    }

    fn on_deactivate(&mut self, clock: Clock, state: &R::State) {
        self.controller.on_deactivate(clock, state);
    }
}

impl<R: RobotTypes> Managed<R> {
    /// `controller`, named `name` and of type `kind`, claiming every command interface of the
    /// joints of its [`TypedController::Claims`] (all of them for [`WholeRobot`]).
    pub fn typed<C: TypedController<R>>(
        name: &str,
        kind: &str,
        controller: C,
        active: bool,
    ) -> Result<Managed<R>, String> {
        let joints = <C::Claims as JointSet<R>>::JOINTS;
        let claims = match joints.is_empty() {
            true => Claims::all::<R>(),
            false => Claims::of_joints::<R>(joints)?,
        };
        Ok(Managed {
            name: name.to_string(),
            kind: kind.to_string(),
            claims,
            reads: Vec::new(),
            active,
            controller: Box::new(Typed::new(controller)),
        })
    }
}
