//! Panics in component callbacks, caught at the call so that one broken backend cannot skip the
//! deactivation of the others.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::component::Component;
use super::error::{ErrorKind, HardwareError};
use crate::typed::RobotTypes;

/// Runs `f` on `component`; a panic becomes an escalated [`ErrorKind::Panicked`] error naming
/// the component and the `call`. Costs nothing unless something panics.
pub(crate) fn guarded<R: RobotTypes, T>(
    component: &mut dyn Component<R>,
    call: &'static str,
    f: impl FnOnce(&mut dyn Component<R>) -> Result<T, HardwareError>,
) -> Result<T, HardwareError> {
    match catch_unwind(AssertUnwindSafe(|| f(&mut *component))) {
        Ok(result) => result,
        Err(payload) => Err(HardwareError::new(
            component.name(),
            ErrorKind::Panicked,
            format!("panicked in `{call}`: {}", panic_message(payload.as_ref())),
        )
        .escalated()),
    }
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
