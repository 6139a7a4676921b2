//! The protocol's scaling table (what goes on the wire) and the model's ranges (what `robot!`
//! checks limits against) are written twice, in two crates that must not depend on each other;
//! here they are held to the same numbers, model by model.

use backend_robstride::component::wire;
use robot_core::RobstrideModel;

#[test]
fn every_models_ranges_agree_with_the_wire_scaling() {
    for model in RobstrideModel::ALL {
        let spec = model.spec();
        let s = wire(model).scaling();
        let name = wire(model).name();
        for (what, ours, theirs_min, theirs_max) in [
            (
                "position",
                spec.position,
                s.position.min(),
                s.position.max(),
            ),
            (
                "velocity",
                spec.velocity,
                s.velocity.min(),
                s.velocity.max(),
            ),
            ("torque", spec.torque, s.torque.min(), s.torque.max()),
        ] {
            assert!(
                (f64::from(theirs_max) - ours).abs() < 1e-5
                    && (f64::from(theirs_min) + ours).abs() < 1e-5,
                "{name} {what}: model ±{ours}, wire [{theirs_min}, {theirs_max}]"
            );
        }
        for (what, ours, range) in [("kp", spec.stiffness, s.kp), ("kd", spec.damping, s.kd)] {
            assert_eq!(range.min(), 0.0, "{name} {what} starts at 0");
            assert!(
                (f64::from(range.max()) - ours).abs() < 1e-5,
                "{name} {what}: model {ours}, wire {}",
                range.max()
            );
        }
    }
}
