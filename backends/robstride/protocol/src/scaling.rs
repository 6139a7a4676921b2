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
//! The table is the one statement of what each model can do: the definition's rules
//! (`robot-model`) read the same rows as f64 through [`RobstrideModel::spec`](crate::RobstrideModel::spec).

use crate::error::{EncodeError, Field};
use crate::model::POSITION_SPAN;

/// A closed interval that 16 bits span, 0x0000 at `min` and 0xFFFF at `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    min: f32,
    max: f32,
}

impl Range {
    /// `[-max, max]`.
    pub const fn symmetric(max: f32) -> Range {
        Range { min: -max, max }
    }

    /// `[0, max]`, as for the gains.
    pub const fn from_zero(max: f32) -> Range {
        Range { min: 0.0, max }
    }

    /// The lower end.
    pub const fn min(self) -> f32 {
        self.min
    }

    /// The upper end.
    pub const fn max(self) -> f32 {
        self.max
    }

    /// One code step, `(max − min) / 65535`.
    pub fn lsb(self) -> f32 {
        (self.max - self.min) / 65535.0
    }

    /// `x` clamped to the range. NaN stays NaN; callers reject it first.
    #[inline]
    pub fn clamp(self, x: f32) -> f32 {
        if x < self.min {
            self.min
        } else if x > self.max {
            self.max
        } else {
            x
        }
    }

    /// The code of `x`, clamped to the range; an error for NaN or ±∞.
    #[inline]
    pub fn encode(self, x: f32) -> Result<u16, EncodeError> {
        if x.is_finite() {
            Ok(self.encode_finite(x))
        } else {
            Err(EncodeError::NonFinite {
                field: Field::Value,
            })
        }
    }

    /// The code of a finite `x` (the manual's formula). Callers have rejected NaN; were one to
    /// get here it would saturate to 0, which is why every public path checks first.
    #[inline]
    pub(crate) fn encode_finite(self, x: f32) -> u16 {
        // `max`/`min` clamp as `clamp` does for every number (and compile to branch-free
        // instructions); `as` truncates toward zero and saturates.
        ((x.max(self.min).min(self.max) - self.min) * 65535.0 / (self.max - self.min)) as u16
    }

    /// The value of code `u` (the manual's formula).
    #[inline]
    pub fn decode(self, u: u16) -> f32 {
        f32::from(u) * (self.max - self.min) / 65535.0 + self.min
    }
}

/// The ranges of one model for the type-1 command and the type-2/24 feedback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scaling {
    /// Position, rad: ±4π on every model.
    pub position: Range,
    /// Velocity, rad/s.
    pub velocity: Range,
    /// Torque, N·m.
    pub torque: Range,
    /// Stiffness Kp, N·m/rad, from 0.
    pub kp: Range,
    /// Damping Kd, N·m·s/rad, from 0.
    pub kd: Range,
    /// Where the row comes from.
    pub source: &'static str,
}

const fn row(velocity: f32, torque: f32, kp: f32, kd: f32, source: &'static str) -> Scaling {
    Scaling {
        position: Range::symmetric(POSITION_SPAN as f32),
        velocity: Range::symmetric(velocity),
        torque: Range::symmetric(torque),
        kp: Range::from_zero(kp),
        kd: Range::from_zero(kd),
        source,
    }
}

/// One row per model, in [`RobstrideModel::ALL`](crate::RobstrideModel::ALL) order: the one table of what each model can
/// do ([`RobstrideModel::scaling`](crate::RobstrideModel::scaling), [`RobstrideModel::spec`](crate::RobstrideModel::spec)).
pub(crate) const TABLE: [Scaling; 8] = [
    row(
        33.0,
        14.0,
        500.0,
        5.0,
        "M-RS00 §4.1.2 text + §4.4 #defines (V_MIN lacks its minus sign); KA, KR, EL agree",
    ),
    row(
        44.0,
        17.0,
        500.0,
        5.0,
        "M-RS01 §4.1.2 text + §4.4 #defines; every source agrees",
    ),
    row(
        44.0,
        17.0,
        500.0,
        5.0,
        "M-RS02 §4.1.2 text + §4.4 #defines (its parameter table's 33/14 looks copied from RS00); KA, KR agree",
    ),
    row(
        20.0,
        60.0,
        5000.0,
        100.0,
        "M-RS03 §4.1.2 text + §4.4 #defines; KA, KR agree",
    ),
    row(
        15.0,
        120.0,
        5000.0,
        100.0,
        "M-RS04 §4.1.2 text + §4.4 #defines; every source agrees",
    ),
    row(
        50.0,
        5.5,
        500.0,
        5.0,
        "M-RS05 §4.1.2 text + §4.4 #defines; EL, LR and motorbridge PR #11 agree",
    ),
    row(
        50.0,
        36.0,
        5000.0,
        100.0,
        "M-RS06 §4.1.2 text + §4.4 #defines; LR agrees",
    ),
    row(
        50.0,
        6.0,
        500.0,
        5.0,
        "M-EL05 §4.1.2 text (its #define says T 5.5); EL driver, LR and the limit_torque range agree on 6",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RobstrideModel;

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
