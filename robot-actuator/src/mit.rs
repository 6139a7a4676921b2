//! The MIT law's five values, the one type every part of the project uses for them: a joint's
//! command (the `position`, `velocity`, `effort`, `stiffness` and `damping` command interfaces),
//! a motor's type-1 setpoint once the transmission has referred it to the motor (M §4.3.1 calls
//! stiffness and damping Kp and Kd), a simulated motor's target and the MuJoCo backend's.

/// The MIT law's five values, named as the command interfaces are.
///
/// The law is `τ = stiffness·(position − q) + damping·(velocity − v) + effort` ([`Mit::torque`]).
/// As a state (what a motor reports) only `position`, `velocity` and `effort` are meaningful.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Mit {
    /// Target position, rad (m for a prismatic joint).
    pub position: f64,
    /// Target velocity, rad/s (m/s).
    pub velocity: f64,
    /// Feed-forward torque, N·m (N), in a command; the measured torque in a state.
    pub effort: f64,
    /// Stiffness (Kp), N·m/rad (N/m).
    pub stiffness: f64,
    /// Damping (Kd), N·m·s/rad (N·s/m).
    pub damping: f64,
}

impl Mit {
    /// No command: every value NaN, so each term of [`Mit::torque`] drops out.
    pub const NONE: Mit = Mit {
        position: f64::NAN,
        velocity: f64::NAN,
        effort: f64::NAN,
        stiffness: f64::NAN,
        damping: f64::NAN,
    };

    /// The law's torque at position `q` and velocity `v`, unclamped. A term that is NaN (a
    /// target not yet commanded, a gain the joint does not declare) contributes nothing, so the
    /// result is a number whenever `q` and `v` are.
    #[inline]
    pub fn torque(&self, q: f64, v: f64) -> f64 {
        let term = |t: f64| if t.is_nan() { 0.0 } else { t };
        term(self.stiffness * (self.position - q))
            + term(self.damping * (self.velocity - v))
            + term(self.effort)
    }

    /// Whether every value is finite, as the wire needs.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.position.is_finite()
            & self.velocity.is_finite()
            & self.effort.is_finite()
            & self.stiffness.is_finite()
            & self.damping.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_law_adds_its_three_terms() {
        let mit = Mit {
            position: 0.5,
            velocity: 1.0,
            effort: 0.25,
            stiffness: 4.0,
            damping: 0.5,
        };
        // 4·(0.5 − 0.1) + 0.5·(1 − (−1)) + 0.25 = 1.6 + 1 + 0.25
        assert!((mit.torque(0.1, -1.0) - 2.85).abs() < 1e-12);
    }

    #[test]
    fn a_missing_term_contributes_nothing() {
        assert_eq!(Mit::NONE.torque(1.0, 1.0), 0.0);
        let no_position = Mit {
            position: f64::NAN,
            stiffness: 40.0,
            effort: 1.0,
            ..Mit::default()
        };
        assert_eq!(no_position.torque(0.3, 0.0), 1.0);
    }
}
