//! The parameters of a four-bar as a definition writes them, and the checks that a value is
//! usable, naming the parameter when there is one.

use super::FourBarError;

/// A parameter of a [`super::FourBar`], as a definition writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FourBarParam {
    Ground,
    InputCrank,
    Coupler,
    OutputCrank,
    AlphaZero,
    Sign,
}

pub(super) fn bad(what: &'static str, value: f64) -> FourBarError {
    FourBarError::BadGeometry {
        what,
        value,
        param: None,
    }
}

pub(super) fn bad_param(param: FourBarParam, what: &'static str, value: f64) -> FourBarError {
    FourBarError::BadGeometry {
        what,
        value,
        param: Some(param),
    }
}

pub(super) fn finite(what: &'static str, value: f64) -> Result<f64, FourBarError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(bad(what, value))
    }
}

pub(super) fn finite_param(
    param: FourBarParam,
    what: &'static str,
    value: f64,
) -> Result<f64, FourBarError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(bad_param(param, what, value))
    }
}
