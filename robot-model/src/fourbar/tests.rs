use super::*;

const LOWER: f64 = (-30.0_f64).to_radians();
const UPPER: f64 = 50.0_f64.to_radians();
const CCW: Branch = Branch::CounterClockwise;
const CW: Branch = Branch::Clockwise;

/// lite_biped ankle; `CounterClockwise` is the branch that assembles over the range.
fn lite(branch: Branch) -> FourBar {
    let (ground, alpha_zero) = ([-0.012, 0.160], 338.82213_f64.to_radians());
    let (input_crank, coupler, output_crank) = (0.040, 0.150, 0.040);
    let sign = 1.0;
    FourBar {
        ground,
        input_crank,
        coupler,
        output_crank,
        alpha_zero,
        sign,
        branch,
    }
}

fn deg(d: f64) -> f64 {
    d.to_radians()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() < tol
}

fn samples(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    (0..=200).map(move |i| lo + (hi - lo) * f64::from(i) / 200.0)
}

fn bad_geometry<T>(r: Result<T, FourBarError>) -> bool {
    matches!(r, Err(FourBarError::BadGeometry { .. }))
}

#[test]
fn assembles_over_range_with_good_transmission() {
    let fb = lite(CCW);
    assert!(close(fb.ground_length(), 0.160449369, 1e-9));
    let r = fb.check_range(LOWER, UPPER).unwrap();
    let [lo, hi] = [r.min_transmission_angle, r.max_transmission_angle].map(f64::to_degrees);
    assert!(lo > 30.0, "{r:?}");
    // Interior angle at C of triangle O-B-C; its supplement (the angle
    // between C→B and O→C) is the 41°..126° band quoted for this ankle.
    assert!(close(lo, 53.8, 3.0) && close(hi, 139.1, 3.0), "{lo}..{hi}");
    assert!(close(180.0 - hi, 41.0, 3.0) && close(180.0 - lo, 126.0, 3.0));
    let ok = MIN_TRANSMISSION_ANGLE..=PI - MIN_TRANSMISSION_ANGLE;
    assert!(ok.contains(&r.min_input_angle) && ok.contains(&r.max_input_angle));
    assert!(r.min_ratio > 0.85 && r.max_ratio < 1.15, "{r:?}");
    let ends = (
        fb.joint_to_motor(LOWER).unwrap(),
        fb.joint_to_motor(UPPER).unwrap(),
    );
    // The same computation twice, but not bit-equal everywhere: Miri (as it may on other
    // platforms) gives `sin`, `atan2` and friends a last-bit error that differs between calls.
    assert!(
        close(r.motor_range.0, ends.0, 1e-12) && close(r.motor_range.1, ends.1, 1e-12),
        "{:?} vs {ends:?}",
        r.motor_range
    );
    assert!(r.motor_range.0 < 0.0 && r.motor_range.1 > 0.0);
}

#[test]
fn joint_motor_round_trip() {
    let fb = lite(CCW);
    for q in samples(LOWER, UPPER) {
        let theta = fb.joint_to_motor(q).unwrap();
        let q2 = fb.motor_to_joint(theta).unwrap();
        assert!(close(q2, q, 1e-9), "q = {q}");
        assert!(close(fb.joint_to_motor(q2).unwrap(), theta, 1e-9));
    }
}

#[test]
fn ratio_matches_finite_difference() {
    let flipped = FourBar {
        sign: -1.0,
        ..lite(CCW)
    };
    for (fb, lo, hi) in [
        (lite(CCW), LOWER, UPPER),
        (lite(CW), -1.0, 0.3),
        (flipped, LOWER, UPPER),
    ] {
        for q in samples(lo, hi) {
            let j = fb.ratio(q).unwrap();
            let theta = fb.joint_to_motor(q).unwrap();
            assert!(close(fb.ratio_at_motor(theta).unwrap(), j, 1e-9));
            let h = 1e-6;
            let [up, down] = [theta + h, theta - h].map(|t| fb.motor_to_joint(t).unwrap());
            let fd = (up - down) / (2.0 * h);
            assert!(close(fd, j, 1e-6 * j.abs()), "q = {q}: J = {j}, fd = {fd}");
        }
    }
}

#[test]
fn link_lengths_hold_at_every_pose() {
    for branch in [CCW, CW] {
        let fb = lite(branch);
        for q in samples(-1.0, UPPER) {
            let Ok(p) = fb.pose(q) else { continue };
            assert_eq!(p.a, fb.ground);
            assert!(close(norm(sub(p.b, p.c)), 0.150, 1e-12), "q = {q}");
            assert!(close(norm(sub(p.a, p.b)), 0.040, 1e-12));
            assert!(close(norm(p.c), 0.040, 1e-12));
            assert!(
                branch.sign() * cross(p.b, p.c) > 0.0,
                "branch kept at q = {q}"
            );
        }
    }
}

#[test]
fn joint_zero_is_motor_zero() {
    let fb = lite(CCW);
    assert!(close(fb.joint_to_motor(0.0).unwrap(), 0.0, 1e-12));
    assert!(close(fb.motor_to_joint(0.0).unwrap(), 0.0, 1e-12));
    let p = fb.pose(0.0).unwrap();
    let alpha = (p.b[1] - p.a[1]).atan2(p.b[0] - p.a[0]);
    assert!(close(wrap(alpha - fb.alpha_zero), 0.0, 1e-12));
}

#[test]
fn other_branch() {
    let (ccw, cw) = (lite(CCW), lite(CW));
    let [b_ccw, b_cw] = [ccw, cw].map(|f| f.output_angle_at_zero().unwrap().to_degrees());
    assert!(
        close(b_ccw, 165.652, 1e-2) && close(b_cw, -5.373, 1e-2),
        "{b_ccw} {b_cw}"
    );
    // Mirror images about O–B share the transmission angle.
    let [mu_ccw, mu_cw] = [ccw, cw].map(|f| f.transmission_angle(0.0).unwrap());
    assert!(close(mu_ccw, mu_cw, 1e-12));
    // It nears an input toggle inside [−30°, 50°] but is fine on [−60°, 20°].
    let err = cw.check_range(LOWER, UPPER);
    assert!(matches!(
        err,
        Err(FourBarError::Singular {
            side: ToggleSide::Input,
            ..
        })
    ));
    let r = cw.check_range(deg(-60.0), deg(20.0)).unwrap();
    assert!(r.max_ratio < 0.0, "J is negative on this branch: {r:?}");
    for q in samples(deg(-60.0), deg(20.0)) {
        let theta = cw.joint_to_motor(q).unwrap();
        assert!(close(cw.motor_to_joint(theta).unwrap(), q, 1e-9), "q = {q}");
    }
}

#[test]
fn a_linkage_that_does_not_close_says_which_links_and_by_how_much() {
    // A 50 mm coupler: with the 40 mm output crank it reaches 90 mm, but at joint zero the input
    // crank's end is about 147.7 mm from the joint pivot.
    let short = FourBar {
        coupler: 0.05,
        ..lite(CCW)
    };
    let Err(FourBarError::DoesNotAssemble {
        at: 0.0,
        gap: Some(gap),
    }) = short.check_range(LOWER, UPPER)
    else {
        panic!("expected a gap")
    };
    assert_eq!(gap.links, [("coupler", 0.05), ("output crank", 0.04)]);
    assert!(close(gap.shortfall(), gap.distance - 0.09, 1e-12) && gap.shortfall() > 0.05);
    let msg = short.check_range(LOWER, UPPER).unwrap_err().to_string();
    assert!(
        msg.starts_with(
            "does not assemble at joint angle 0 rad (0°): the coupler (50 mm) and the output \
             crank (40 mm) reach at most 90 mm, but the joint pivot and the input crank's end are"
        ) && msg.ends_with("mm too short"),
        "{msg}"
    );
    // A 300 mm coupler folds back no closer than 260 mm to the output crank's pivot.
    let long = FourBar {
        coupler: 0.3,
        ..lite(CCW)
    };
    let msg = long.check_range(LOWER, UPPER).unwrap_err().to_string();
    assert!(
        msg.contains("the coupler (300 mm) is ")
            && msg.contains(
                " too long for the output crank (40 mm): together they reach no closer than 260 mm"
            ),
        "{msg}"
    );
    // Far past its range the lite ankle opens: input crank and coupler fall 6.494 mm short.
    let msg = lite(CCW)
        .joint_to_motor(deg(-80.0))
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "does not assemble at joint angle -1.3963 rad (-80°): the input crank (40 mm) and the \
         coupler (150 mm) reach at most 190 mm, but the actuator pivot and the output crank's end \
         are 196.494 mm apart: together they are 6.494 mm too short"
    );
    // The other way it closes, but only flipped.
    let msg = lite(CCW)
        .joint_to_motor(deg(100.0))
        .unwrap_err()
        .to_string();
    assert!(msg.ends_with("the other branch's orientation"), "{msg}");
}

#[test]
fn failures_are_errors() {
    use FourBarError::{DoesNotAssemble, MotorDoesNotAssemble, Singular};
    let fb = lite(CCW);
    let short = FourBar {
        coupler: 0.05,
        ..fb
    };
    assert!(matches!(
        short.check_range(LOWER, UPPER),
        Err(DoesNotAssemble {
            at: 0.0,
            gap: Some(_)
        })
    ));
    assert!(matches!(
        short.joint_to_motor(0.1),
        Err(DoesNotAssemble { at: 0.0, .. })
    ));
    assert!(matches!(
        fb.check_range(deg(-80.0), 0.0),
        Err(DoesNotAssemble { at, .. }) if at == deg(-80.0)
    ));
    assert!(matches!(
        fb.joint_to_motor(1.6),
        Err(DoesNotAssemble { at: 1.6, .. })
    ));
    assert!(matches!(
        fb.motor_to_joint(2.0),
        Err(MotorDoesNotAssemble { theta: 2.0, .. })
    ));
    // Output toggle near +80°: J blows up; the range check stops before it.
    let Err(Singular {
        at,
        side,
        transmission_angle,
    }) = fb.check_range(LOWER, deg(85.0))
    else {
        panic!("expected a toggle")
    };
    assert!(side == ToggleSide::Output && at > UPPER && at < deg(80.0));
    assert!(transmission_angle > PI - MIN_TRANSMISSION_ANGLE);
    let msg = fb.check_range(LOWER, 1.5).unwrap_err().to_string();
    assert!(
        msg.contains("toggle") && msg.contains("output-side"),
        "{msg}"
    );
    let edits: [fn(&mut FourBar, f64); 7] = [
        |f, v| f.input_crank = v,
        |f, v| f.coupler = v,
        |f, v| f.output_crank = v,
        |f, v| f.sign = v,
        |f, v| f.ground = [v, v / 0.0],
        |f, v| f.ground = [0.0, v * 0.0],
        |f, v| f.alpha_zero = v / 0.0,
    ];
    for v in [f64::NAN, f64::INFINITY, -0.04, 0.0, 0.5] {
        for edit in edits {
            let mut g = fb;
            edit(&mut g, v);
            if v == 0.5 && g.sign == 1.0 {
                continue; // 0.5 is only invalid as a sign
            }
            assert!(bad_geometry(g.check_range(LOWER, UPPER)), "{g:?}");
            assert!(bad_geometry(g.joint_to_motor(0.0)) && bad_geometry(g.motor_to_joint(0.0)));
            assert!(bad_geometry(g.ratio(0.0)) && bad_geometry(g.ratio_at_motor(0.0)));
            assert!(bad_geometry(g.pose(0.0)) && bad_geometry(g.output_angle_at_zero()));
            assert!(bad_geometry(g.transmission_angle(0.0)));
        }
        let w = v / 0.0; // NaN or ±inf
        assert!(bad_geometry(fb.joint_to_motor(w)) && bad_geometry(fb.motor_to_joint(w)));
        assert!(bad_geometry(fb.check_range(w, UPPER)) && bad_geometry(fb.check_range(LOWER, -w)));
        assert!(bad_geometry(fb.ratio_at_motor(w)) && bad_geometry(fb.input_transmission_angle(w)));
    }
    for (lo, hi) in [(UPPER, LOWER), (0.1, 0.1), (-4.0, 4.0), (-1e300, 1e300)] {
        assert!(bad_geometry(fb.check_range(lo, hi)), "{lo}..{hi}");
    }
}

#[test]
fn serde_round_trip() {
    for fb in [lite(CCW), lite(CW)] {
        let json = serde_json::to_string(&fb).unwrap();
        assert_eq!(serde_json::from_str::<FourBar>(&json).unwrap(), fb);
        let extra = json.replace('}', ",\"extra\":1}");
        assert!(serde_json::from_str::<FourBar>(&extra).is_err());
    }
    let json = serde_json::to_string(&lite(CCW)).unwrap();
    assert!(json.contains(r#""branch":"counter_clockwise""#) && json.contains(r#""sign":1.0"#));
    let schema = serde_json::to_string(&schemars::schema_for!(FourBar)).unwrap();
    assert!(schema.contains("counter_clockwise") && schema.contains("alpha_zero"));
}
