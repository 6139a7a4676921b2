//! `robot chaos` on MuJoCo (feature `mujoco`): lite_biped's schedules break no invariant, a seed
//! replays, and the simulation's own torque shows a component that leaves it on.
#![cfg(feature = "mujoco")]
#![allow(clippy::unwrap_used)]

use robot_chaos::{Defect, Options, explore};
use robot_runtime::Backend;
use robots::LiteBiped;

fn options(schedules: u64, seed: u64) -> Options {
    Options {
        backend: Backend::Mujoco,
        schedules,
        seed,
        cycles: 200,
        threads: 2,
        defect: None,
        keep_digests: false,
    }
}

#[test]
fn mujoco_schedules_break_no_invariant_and_replay() {
    let summary = explore::<LiteBiped>(&options(400, 1));
    for verdict in &summary.failed {
        eprintln!("{}\n  ended: {}", verdict.schedule, verdict.ended);
        for violation in &verdict.violations {
            eprintln!("  broke {violation}");
        }
    }
    assert_eq!(summary.schedules, 400);
    assert!(summary.failed.is_empty(), "{} failed", summary.failed.len());
    let again = explore::<LiteBiped>(&Options {
        threads: 1,
        ..options(400, 1)
    });
    assert_eq!(summary.digest, again.digest);
}

#[test]
fn torque_left_on_in_the_simulation_is_found() {
    for (defect, invariant) in [
        (
            Defect::DeactivateLeavesTorqueOn,
            "every actuator off at the end, or named",
        ),
        (
            Defect::WritesAfterTorqueOff,
            "only stop frames after torque-off began",
        ),
    ] {
        let summary = explore::<LiteBiped>(&Options {
            defect: Some(defect),
            ..options(100, 7)
        });
        let found = summary
            .failed
            .iter()
            .find(|v| v.violations.iter().any(|v| v.invariant == invariant));
        assert!(
            found.is_some(),
            "{defect:?} not found in 100 MuJoCo schedules"
        );
    }
}
