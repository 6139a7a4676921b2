//! The mechanics of a simulated actuator: the output shaft as a rotor inertia with viscous and
//! dry friction, driven by the firmware's MIT law `τ = Kp·(p* − p) + Kd·(v* − v) + τ_ff`,
//! clamped to the model's torque range.
//!
//! Everything here is in motor space (the actuator's own angle, rad), as the firmware sees it.
//! The firmware runs its law far faster than any host loop, so [`MotorModel::run`] applies it
//! every [`FIRMWARE_PERIOD`] with the target taken afresh each time: a host period of the law is
//! then the continuous law a real motor applies, not one torque held for the period. Integration
//! of each step is implicit (backward Euler) in the law's linear part, so a stiff gain on a light
//! rotor stays stable at any step: `Kp = 500 N·m/rad` on `1e-3 kg·m²` has a natural frequency of
//! 700 rad/s, far beyond what explicit Euler takes at a 5 ms step. Where the law saturates, the
//! clamped torque is applied explicitly.

use robot_runtime::RobstrideModel;
use robot_runtime::model::Dynamics;
use robstride_protocol::Mit;

/// The shaft's state.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Shaft {
    /// Angle, rad.
    pub position: f64,
    /// Speed, rad/s.
    pub velocity: f64,
    /// The torque the motor applied over the last step, N·m (what feedback reports).
    pub torque: f64,
}

/// How often the simulated firmware applies its law, and so the step the shaft is integrated in:
/// 10 kHz, ten steps or more in any host loop's period (1 kHz and slower), so that a period's
/// torque is the continuous law's to well under a percent.
pub const FIRMWARE_PERIOD: f64 = 1e-4;

/// The torque the motor applied over a stretch of time.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Applied {
    /// Its integral over the stretch, N·m·s.
    pub impulse: f64,
    /// The stretch's length, s.
    pub duration: f64,
    /// The largest magnitude it took, N·m.
    pub peak: f64,
}

impl Applied {
    /// The mean torque over the stretch, N·m (0 over none).
    pub fn mean(&self) -> f64 {
        if self.duration > 0.0 {
            self.impulse / self.duration
        } else {
            0.0
        }
    }

    fn add(&mut self, torque: f64, dt: f64) {
        self.impulse += torque * dt;
        self.duration += dt;
        self.peak = self.peak.max(torque.abs());
    }
}

/// The mechanical parameters of one simulated actuator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotorModel {
    /// Inertia at the output, kg·m²: rotor (reflected) plus whatever load the sim assumes.
    pub inertia: f64,
    /// Viscous friction, N·m·s/rad.
    pub viscous: f64,
    /// Dry (Coulomb) friction, N·m.
    pub coulomb: f64,
    /// The largest torque the motor applies, N·m (the model's range).
    pub torque_limit: f64,
    /// A torque the load exerts on the shaft whatever it does, N·m: the weight on a vertical
    /// lift through its lead (`−m·g·lead/2π` lifting upwards), a hanging winch.
    pub load: f64,
}

/// The load a simulated joint carries when the definition gives no armature: a light link,
/// `0.01 kg·m²`, so the sim moves like a joint, not like a bare rotor.
pub const DEFAULT_LOAD_INERTIA: f64 = 0.01;

impl MotorModel {
    /// A model's actuator carrying a joint with `dynamics` (its armature, damping and friction,
    /// as the definition gives them): inertia = armature + [`DEFAULT_LOAD_INERTIA`].
    pub fn new(model: RobstrideModel, dynamics: Option<&Dynamics>) -> MotorModel {
        let dynamics = dynamics.copied().unwrap_or_default();
        MotorModel {
            inertia: dynamics.armature.max(0.0) + DEFAULT_LOAD_INERTIA,
            viscous: dynamics.damping.max(0.0),
            coulomb: dynamics.friction.max(0.0),
            torque_limit: model.spec().torque,
            load: 0.0,
        }
    }

    /// This model with a constant `load` torque on the shaft, N·m ([`MotorModel::load`]).
    pub fn with_load(self, load: f64) -> MotorModel {
        MotorModel { load, ..self }
    }

    /// Advances `shaft` by `dt` seconds in steps of at most [`FIRMWARE_PERIOD`], each under the
    /// target `law` gives for the shaft as it then is (`None`: the motor is not enabled and
    /// applies no torque). Returns the torque applied meanwhile.
    pub fn run(
        &self,
        shaft: &mut Shaft,
        dt: f64,
        mut law: impl FnMut(&Shaft) -> Option<Mit>,
    ) -> Applied {
        let mut applied = Applied::default();
        if !dt.is_finite() || dt <= 0.0 {
            return applied;
        }
        let steps = (dt / FIRMWARE_PERIOD).ceil().max(1.0);
        let h = dt / steps;
        for _ in 0..steps as u64 {
            let target = law(shaft);
            self.step(shaft, target.as_ref(), h);
            applied.add(shaft.torque, h);
        }
        applied
    }

    /// Advances `shaft` by `dt` seconds under `target` in one step (`None`: the motor is not
    /// enabled and applies no torque; only friction and the load act).
    pub fn step(&self, shaft: &mut Shaft, target: Option<&Mit>, dt: f64) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let (j, b) = (self.inertia.max(1e-9), self.viscous);
        let (p, v) = (shaft.position, shaft.velocity);
        // The torque from outside the motor: the load, and dry friction, which opposes motion; a
        // shaft at rest feels no friction (no stiction modelled).
        let outside = if v == 0.0 {
            self.load
        } else {
            self.load - self.coulomb * v.signum()
        };
        let applied = match target {
            None => 0.0,
            Some(t) => {
                // Backward Euler on the unsaturated law: with p' = p + dt·v',
                // J(v' − v)/dt = Kp(p* − p − dt·v') + Kd(v* − v') + τ_ff − b·v' + outside.
                let (kp, kd) = (t.stiffness.max(0.0), t.damping.max(0.0));
                let rhs = j * v / dt + kp * (t.position - p) + kd * t.velocity + t.effort + outside;
                let v_next = rhs / (j / dt + kp * dt + kd + b);
                let p_next = p + dt * v_next;
                let law = kp * (t.position - p_next) + kd * (t.velocity - v_next) + t.effort;
                if law.abs() <= self.torque_limit {
                    shaft.position = p_next;
                    shaft.velocity = v_next;
                    shaft.torque = law;
                    return;
                }
                law.clamp(-self.torque_limit, self.torque_limit)
            }
        };
        // Saturated or off: the torque is fixed over the step; viscous friction stays implicit.
        let mut v_next = (j * v / dt + applied + outside) / (j / dt + b);
        // Dry friction stops the shaft rather than reversing it (a load may still turn it).
        if target.is_none() && v_next * v < 0.0 && self.load == 0.0 {
            v_next = 0.0;
        }
        shaft.position = p + dt * v_next;
        shaft.velocity = v_next;
        shaft.torque = applied;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rs02() -> MotorModel {
        MotorModel::new(RobstrideModel::RS02, None)
    }

    #[test]
    fn a_stiff_gain_settles_on_the_target_at_a_coarse_step() {
        let motor = rs02();
        let mut shaft = Shaft::default();
        let target = Mit {
            position: 0.5,
            stiffness: 500.0,
            damping: 5.0,
            ..Mit::default()
        };
        for _ in 0..400 {
            motor.step(&mut shaft, Some(&target), 0.005);
            assert!(shaft.position.abs() < 1.0, "stable: {shaft:?}");
        }
        assert!((shaft.position - 0.5).abs() < 1e-3, "{shaft:?}");
        assert!(shaft.velocity.abs() < 1e-3, "{shaft:?}");
    }

    #[test]
    fn the_torque_is_clamped_to_the_models_range() {
        let motor = rs02();
        let mut shaft = Shaft::default();
        let target = Mit {
            position: 10.0,
            stiffness: 500.0,
            ..Mit::default()
        };
        motor.step(&mut shaft, Some(&target), 0.001);
        assert_eq!(shaft.torque, 17.0);
        // a = τ/J, from rest: v = a·dt.
        assert!(
            (shaft.velocity - 17.0 / motor.inertia * 0.001).abs() < 1e-9,
            "{shaft:?}"
        );
    }

    #[test]
    fn zero_gains_hold_nothing_and_a_disabled_motor_coasts_to_a_stop() {
        let motor = MotorModel::new(
            RobstrideModel::RS02,
            Some(&Dynamics {
                damping: 0.0,
                friction: 0.5,
                armature: 0.0,
            }),
        );
        let mut shaft = Shaft {
            velocity: 1.0,
            ..Shaft::default()
        };
        // Zero gains, no feed-forward: only friction acts, the motor applies nothing.
        motor.step(&mut shaft, Some(&Mit::default()), 0.001);
        assert_eq!(shaft.torque, 0.0);
        assert!(shaft.velocity < 1.0);
        for _ in 0..1000 {
            motor.step(&mut shaft, None, 0.001);
        }
        assert_eq!(
            shaft.velocity, 0.0,
            "dry friction stops it, never reverses it"
        );
    }

    #[test]
    fn feed_forward_torque_accelerates_a_free_shaft() {
        let motor = rs02();
        let mut shaft = Shaft::default();
        let target = Mit {
            effort: 1.0,
            ..Mit::default()
        };
        motor.step(&mut shaft, Some(&target), 0.01);
        assert!((shaft.velocity - 1.0 / motor.inertia * 0.01).abs() < 1e-9);
        assert_eq!(shaft.torque, 1.0);
    }

    #[test]
    fn a_bad_step_changes_nothing() {
        let motor = rs02();
        let mut shaft = Shaft {
            position: 0.3,
            ..Shaft::default()
        };
        for dt in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            motor.step(&mut shaft, Some(&Mit::default()), dt);
        }
        assert_eq!(shaft.position, 0.3);
    }
}
