//! Per-model ranges of the type-1 command and the type-2/24 feedback (docs/robstride-protocol.md
//! §9, column "manual"): the span each of the five values is carried in, 16 bits from its lower
//! end to its upper. How a value becomes its 16-bit code and back is the codec's
//! (`robstride_protocol::Code16`, the manual's formulas); what each model can do, in f64 for the
//! definition's rules, is [`RobstrideModel::spec`](crate::RobstrideModel::spec): one table.

use crate::window::POSITION_SPAN;

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
