//! Per-model scaling of the type-1 command and the type-2/24 feedback (docs/robstride-protocol.md §9, column
//! "manual"), with the manual's formulas (M §4.4 `float_to_uint` / `uint_to_float`):
//!
//! ```text
//! encode  u = trunc((clamp(x, min, max) − min) · 65535 / (max − min))   in f32
//! decode  x = u · (max − min) / 65535 + min                              in f32
//! ```
//!
//! Out-of-range values are clamped to the range, as the manual's code does. Zero therefore
//! encodes to 0x7FFF on a symmetric range, and 0x7FFF decodes to −LSB/2, not to 0 (the
//! `(x/max + 1)·0x7FFF` formula of some SDKs differs by up to 1 LSB; §13).
//!
//! The ranges are the actuators' vocabulary's (`robot_actuator::Scaling`, one row per model, the
//! one statement of what each model can do); the formulas are the codec's, [`Code16`].

use crate::error::{EncodeError, Field};
use robot_actuator::Range;

/// A [`Range`]'s 16-bit codes: the manual's formulas.
pub trait Code16 {
    /// The code of `x`, clamped to the range; an error for NaN or ±∞.
    fn encode(self, x: f32) -> Result<u16, EncodeError>;

    /// The code of a finite `x` (the manual's formula). Callers have rejected NaN; were one to
    /// get here it would saturate to 0, which is why every public path checks first.
    fn encode_finite(self, x: f32) -> u16;

    /// The value of code `u` (the manual's formula).
    fn decode(self, u: u16) -> f32;
}

impl Code16 for Range {
    #[inline]
    fn encode(self, x: f32) -> Result<u16, EncodeError> {
        if x.is_finite() {
            Ok(self.encode_finite(x))
        } else {
            Err(EncodeError::NonFinite {
                field: Field::Value,
            })
        }
    }

    #[inline]
    fn encode_finite(self, x: f32) -> u16 {
        let (min, max) = (self.min(), self.max());
        // `max`/`min` clamp as `clamp` does for every number (and compile to branch-free
        // instructions); `as` truncates toward zero and saturates.
        ((x.max(min).min(max) - min) * 65535.0 / (max - min)) as u16
    }

    #[inline]
    fn decode(self, u: u16) -> f32 {
        f32::from(u) * (self.max() - self.min()) / 65535.0 + self.min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robot_actuator::RobstrideModel;

    #[test]
    fn zero_encodes_to_0x7fff_and_the_ends_to_the_ends() {
        for model in RobstrideModel::ALL {
            let s = model.scaling();
            for r in [s.position, s.velocity, s.torque] {
                assert_eq!(r.encode(0.0), Ok(0x7FFF), "{}", model.name());
                assert_eq!(r.encode(r.max()), Ok(0xFFFF), "{}", model.name());
                assert_eq!(r.encode(r.min()), Ok(0x0000), "{}", model.name());
                assert_eq!(r.decode(0xFFFF), r.max());
                assert_eq!(r.decode(0x0000), r.min());
            }
            for r in [s.kp, s.kd] {
                assert_eq!(r.encode(0.0), Ok(0));
                assert_eq!(r.encode(r.max()), Ok(0xFFFF));
            }
        }
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let t = RobstrideModel::RS03.scaling().torque;
        assert_eq!(t.encode(1e9), Ok(0xFFFF));
        assert_eq!(t.encode(-1e9), Ok(0));
        assert_eq!(RobstrideModel::RS03.scaling().kp.encode(-1.0), Ok(0));
    }

    #[test]
    fn nan_and_infinity_are_refused_not_encoded_as_0x0000() {
        let t = RobstrideModel::RS06.scaling().torque;
        for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(
                t.encode(x),
                Err(EncodeError::NonFinite {
                    field: Field::Value
                })
            );
        }
    }
}
