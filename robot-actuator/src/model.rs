//! The RobStride actuator models, the one enum every crate uses for them: the definition names
//! one per actuated joint (`model: RS06`), the codec scales with its row of the table
//! (docs/robstride-protocol.md §9), and the definition's rules hold a joint's limits to its
//! [`ModelSpec`].

use crate::scaling::{Scaling, TABLE};
use crate::window::POSITION_SPAN;

/// A RobStride actuator model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[allow(missing_docs)]
pub enum RobstrideModel {
    RS00,
    RS01,
    RS02,
    RS03,
    RS04,
    RS05,
    RS06,
    EL05,
}

/// What one model can do, in f64 for the definition's rules and the component's clamps: the
/// table's ranges, symmetric for position, velocity and torque, from zero for the gains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelSpec {
    /// Position span ±, rad, of the motor's own angle from its mechanical zero
    /// ([`POSITION_SPAN`] on every model).
    pub position: f64,
    /// Velocity span ±, rad/s.
    pub velocity: f64,
    /// Torque span ±, N·m.
    pub torque: f64,
    /// Largest stiffness (Kp), N·m/rad.
    pub stiffness: f64,
    /// Largest damping (Kd), N·m·s/rad.
    pub damping: f64,
}

impl RobstrideModel {
    /// Every model, in order.
    pub const ALL: [RobstrideModel; 8] = [
        RobstrideModel::RS00,
        RobstrideModel::RS01,
        RobstrideModel::RS02,
        RobstrideModel::RS03,
        RobstrideModel::RS04,
        RobstrideModel::RS05,
        RobstrideModel::RS06,
        RobstrideModel::EL05,
    ];

    /// The model's ranges on the wire (f32, the manual's arithmetic).
    #[inline]
    pub const fn scaling(self) -> Scaling {
        TABLE[self as usize]
    }

    /// The same ranges as f64. Every table value is exactly representable in f32, so nothing is
    /// rounded; the position span is [`POSITION_SPAN`] itself, not its f32 rounding.
    pub fn spec(self) -> ModelSpec {
        let s = self.scaling();
        ModelSpec {
            position: POSITION_SPAN,
            velocity: f64::from(s.velocity.max()),
            torque: f64::from(s.torque.max()),
            stiffness: f64::from(s.kp.max()),
            damping: f64::from(s.kd.max()),
        }
    }

    /// The model's name as a definition writes it, `RS06`.
    pub const fn name(self) -> &'static str {
        match self {
            RobstrideModel::RS00 => "RS00",
            RobstrideModel::RS01 => "RS01",
            RobstrideModel::RS02 => "RS02",
            RobstrideModel::RS03 => "RS03",
            RobstrideModel::RS04 => "RS04",
            RobstrideModel::RS05 => "RS05",
            RobstrideModel::RS06 => "RS06",
            RobstrideModel::EL05 => "EL05",
        }
    }

    /// The model as the RobstrideSystem plugin's `model` param spells it, `rs-06`.
    pub const fn plugin_name(self) -> &'static str {
        match self {
            RobstrideModel::RS00 => "rs-00",
            RobstrideModel::RS01 => "rs-01",
            RobstrideModel::RS02 => "rs-02",
            RobstrideModel::RS03 => "rs-03",
            RobstrideModel::RS04 => "rs-04",
            RobstrideModel::RS05 => "rs-05",
            RobstrideModel::RS06 => "rs-06",
            RobstrideModel::EL05 => "el-05",
        }
    }

    /// The model named `RS06` (as in a definition) or `rs-06` (as in a plugin param).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == name || m.plugin_name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_is_the_table_in_f64_with_the_exact_position_span() {
        for model in RobstrideModel::ALL {
            let (spec, s) = (model.spec(), model.scaling());
            assert_eq!(spec.position, POSITION_SPAN);
            assert_eq!(spec.position as f32, s.position.max());
            assert_eq!(spec.velocity as f32, s.velocity.max());
            assert_eq!(spec.torque as f32, s.torque.max());
            assert_eq!(spec.stiffness as f32, s.kp.max());
            assert_eq!(spec.damping as f32, s.kd.max());
            assert_eq!(RobstrideModel::from_name(model.name()), Some(model));
            assert_eq!(RobstrideModel::from_name(model.plugin_name()), Some(model));
        }
    }
}
