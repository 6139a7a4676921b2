//! The MIT frame's angle window: the type-1 command and the type-2 feedback carry the motor
//! angle as 16 bits over ±4π, and newer firmware reports an angle that loops within it
//! (docs/robstride-protocol.md §6, "Angle wrap").

/// ±4π, rad: the span of the motor angle in the type-1 command and the type-2 feedback, on
/// every model (the manual's text; its sample code writes 12.57).
pub const POSITION_SPAN: f64 = 4.0 * core::f64::consts::PI;

/// One whole loop of the reported angle, rad: the window's width, 8π.
pub const LOOP: f64 = 2.0 * POSITION_SPAN;

/// `angle` brought into the window `[-4π, 4π)` by whole loops: what looping firmware reports for
/// an angle of `angle` rad from its zero. NaN stays NaN.
pub fn wrap(angle: f64) -> f64 {
    // `rem_euclid` is std's; in whole loops counted from the window's lower edge, truncated
    // toward zero (`as` saturates far beyond any motor's turn counter), then brought up.
    let from_edge = angle + POSITION_SPAN;
    let mut within = from_edge - (from_edge / LOOP) as i64 as f64 * LOOP;
    if within < 0.0 {
        within += LOOP;
    }
    if within >= LOOP {
        within -= LOOP;
    }
    within - POSITION_SPAN
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::PI;

    #[test]
    fn wrap_brings_an_angle_into_the_window() {
        assert_eq!(wrap(0.0), 0.0);
        assert!((wrap(5.0 * PI) - (-3.0 * PI)).abs() < 1e-12);
        assert!((wrap(-5.0 * PI) - 3.0 * PI).abs() < 1e-12);
        assert!((wrap(-21.0 * PI) - 3.0 * PI).abs() < 1e-12);
        assert_eq!(wrap(-POSITION_SPAN), -POSITION_SPAN);
        assert_eq!(wrap(POSITION_SPAN), -POSITION_SPAN);
        assert!(wrap(f64::NAN).is_nan());
        for i in -2000..2000 {
            let angle = f64::from(i) * 0.37;
            let looped = wrap(angle);
            assert!((-POSITION_SPAN..POSITION_SPAN).contains(&looped), "{angle}");
            let loops = (angle - looped) / LOOP;
            assert!((loops - loops.round()).abs() < 1e-9, "{angle}");
        }
    }
}
