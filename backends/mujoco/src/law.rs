//! The MIT law, `τ = stiffness·(q* − q) + damping·(v* − v) + τ_ff` ([`Mit`], the one type of its
//! five values), clamped to the effort limit, and the targets it works from.

use robot_runtime::Mit;

use crate::plan::Drive;

/// The targets of a joint driven by `drive` in `command` (the flat command struct), as `write`
/// stores them. A term whose target is missing (an interface the joint does not declare, or NaN:
/// no command yet) contributes nothing to [`torque`].
///
/// A position-commanded joint without a velocity command is damped towards rest (v* = 0);
/// gains the definition does not declare are the drive's defaults.
pub(crate) fn targets(command: &[f64], drive: &Drive) -> Mit {
    let slots = &drive.slots;
    let get = |slot: Option<usize>, otherwise: f64| slot.map_or(otherwise, |s| command[s]);
    // Damped towards rest where a position is commanded without a velocity.
    let rest = if slots.position.is_some() {
        0.0
    } else {
        f64::NAN
    };
    Mit {
        position: get(slots.position, f64::NAN),
        velocity: get(slots.velocity, rest),
        effort: get(slots.effort, 0.0),
        stiffness: get(slots.stiffness, drive.default_stiffness),
        damping: get(slots.damping, drive.default_damping),
    }
}

/// The torque of the MIT law ([`Mit::torque`]) for joint state `(q, v)`, clamped to `±limit`.
/// Never NaN: a term with a missing target or gain is left out.
pub(crate) fn torque(target: &Mit, q: f64, v: f64, limit: f64) -> f64 {
    target.torque(q, v).clamp(-limit, limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use robot_runtime::actuator::MitSlots;

    fn drive() -> Drive {
        Drive {
            slots: MitSlots {
                position: Some(0),
                velocity: Some(1),
                effort: Some(2),
                stiffness: Some(3),
                damping: Some(4),
            },
            default_stiffness: 0.0,
            default_damping: 0.0,
            limit: 10.0,
        }
    }

    #[test]
    fn the_mit_law_adds_its_three_terms_and_clamps() {
        let target = targets(&[0.5, 1.0, 0.25, 4.0, 0.5], &drive());
        // 4·(0.5 − 0.1) + 0.5·(1 − (−1)) + 0.25 = 1.6 + 1 + 0.25
        assert!((torque(&target, 0.1, -1.0, 10.0) - 2.85).abs() < 1e-12);
        assert_eq!(torque(&target, -100.0, 0.0, 10.0), 10.0);
        assert_eq!(torque(&target, 100.0, 0.0, 10.0), -10.0);
    }

    #[test]
    fn missing_targets_and_nan_commands_contribute_nothing() {
        assert_eq!(torque(&Mit::NONE, 1.0, 1.0, 10.0), 0.0);
        let target = targets(&[f64::NAN, 0.0, 0.0, 40.0, 0.0], &drive());
        assert_eq!(
            torque(&target, 0.3, 0.0, 10.0),
            0.0,
            "no position yet, gains or not"
        );
    }

    #[test]
    fn undeclared_gains_take_the_defaults() {
        let position_only = Drive {
            slots: MitSlots {
                position: Some(0),
                ..MitSlots::default()
            },
            default_stiffness: 20.0,
            default_damping: 1.0,
            ..drive()
        };
        let target = targets(&[0.1], &position_only);
        // 20·0.1 + 1·(0 − 0.5): the velocity target of a position servo is rest.
        assert!((torque(&target, 0.0, 0.5, 10.0) - 1.5).abs() < 1e-12);
    }
}
