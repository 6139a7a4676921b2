//! Panics in component callbacks, caught at the call so that one broken backend cannot skip the
//! deactivation of the others.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use super::component::Component;
use super::error::{ErrorKind, HardwareError};
use crate::typed::RobotTypes;

/// Runs `f` on `component`; a panic becomes an escalated [`ErrorKind::Panicked`] error naming
/// the component and the `call`. Costs nothing unless something panics.
pub(crate) fn catching_panics<R: RobotTypes, T>(
    component: &mut dyn Component<R>,
    call: &'static str,
    f: impl FnOnce(&mut dyn Component<R>) -> Result<T, HardwareError>,
) -> Result<T, HardwareError> {
    match catch_unwind(AssertUnwindSafe(|| f(&mut *component))) {
        Ok(result) => result,
        Err(payload) => Err(HardwareError::new(
            name_of(component),
            ErrorKind::Panicked,
            format!("panicked in `{call}`"),
        )
        .caused_by(Panic::of(payload.as_ref()))
        .escalated()),
    }
}

/// `component`'s name, or a stand-in when `name` itself panics: a name is only ever needed to
/// report something, and reporting must not fail.
pub(crate) fn name_of<R: RobotTypes>(component: &dyn Component<R>) -> String {
    catch_unwind(AssertUnwindSafe(|| component.name().to_owned()))
        .unwrap_or_else(|_| "(a component whose `name` panics)".to_owned())
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "(a panic payload that is not a string)"
    }
}

/// A caught panic, as the cause of the error it became: its payload's text (`panic!` gives a
/// `&str` or a `String`; anything else is named as such).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Panic {
    message: Arc<str>,
}

impl Panic {
    /// The panic of `payload`.
    pub fn of(payload: &(dyn Any + Send)) -> Panic {
        Panic::new(panic_message(payload))
    }

    /// A panic whose payload said `message`.
    pub fn new(message: &str) -> Panic {
        Panic {
            message: Arc::from(message),
        }
    }

    /// What the payload said.
    pub fn message(&self) -> &str {
        &self.message
    }
}
