//! PLACEHOLDER
use super::EmitError;
use crate::model::Robot;
pub(crate) fn yaml(_robot: &Robot) -> Result<String, EmitError> {
    Ok(String::new())
}
